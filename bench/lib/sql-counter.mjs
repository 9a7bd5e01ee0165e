import net from 'node:net';

/**
 * A TCP relay in front of PostgreSQL that reads the frontend side of the wire protocol and counts the
 * statements a server sends: each simple Query ('Q') and each extended-protocol Execute ('E') is one.
 * Used only in a counting pass, never during timed load, so it adds nothing to the timings.
 */
/**
 * Connections whose startup names one of `ignoredApplications` (application_name) are relayed but not counted: the
 * gateway's job queue polls and keeps its own tables on a pool of its own, whatever the requests do.
 */
export async function startSqlCounter(targetHost, targetPort, ignoredApplications = []) {
  let statements = 0;
  let recording = false;
  const log = [];
  const sockets = new Set();

  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, targetHost);
    sockets.add(client).add(upstream);
    let buffer = Buffer.alloc(0);
    let started = false;
    let ignored = false;
    let pendingParse = '';
    const parse = () => {
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          // SSLRequest / GSSENCRequest are followed by a real startup message; anything else is the startup,
          // whose parameters are NUL-terminated name and value pairs after the protocol version.
          if (code !== 80877103 && code !== 80877104) {
            started = true;
            const pairs = buffer.toString('utf8', 8, length).split('\0');
            const name = pairs[pairs.indexOf('application_name') + 1];
            ignored = pairs.includes('application_name') && ignoredApplications.includes(name);
          }
          buffer = buffer.subarray(length);
          continue;
        }
        if (buffer.length < 5) return;
        const type = String.fromCharCode(buffer[0]);
        const length = buffer.readInt32BE(1);
        if (buffer.length < length + 1) return;
        const body = buffer.subarray(5, length + 1);
        buffer = buffer.subarray(length + 1);
        if (ignored) continue;
        if (type === 'Q') {
          statements++;
          if (recording) log.push(body.toString('utf8', 0, body.length - 1));
        } else if (type === 'P') {
          const nameEnd = body.indexOf(0);
          const textEnd = body.indexOf(0, nameEnd + 1);
          pendingParse = body.toString('utf8', nameEnd + 1, textEnd);
        } else if (type === 'E') {
          statements++;
          if (recording) log.push(pendingParse || '(prepared statement)');
        }
      }
    };
    client.on('data', (chunk) => {
      upstream.write(chunk);
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      parse();
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    /** Statements counted since the last reset; with `record`, their text too. */
    reset(record = false) {
      statements = 0;
      recording = record;
      log.length = 0;
    },
    get statements() {
      return statements;
    },
    get log() {
      return [...log];
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
