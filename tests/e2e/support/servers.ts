import http from 'node:http';
import net from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A real SMTP server on 127.0.0.1 keeping every message it receives. */
export async function startMailServer() {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    messages,
    async waitForMessage(to: string, timeoutMs = 15_000): Promise<ParsedMail> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = messages.find((m) => JSON.stringify(m.to).includes(to));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no email to ${to}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A stand-in for the store platform's token endpoint, and a checkout page, on 127.0.0.1. */
export async function startStorePlatform() {
  const codes: string[] = [];
  const server = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/token') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const code = String(JSON.parse(body || '{}').code ?? '');
        codes.push(code);
        res.setHeader('Content-Type', 'application/json');
        if (code !== 'good-code') {
          res.end(JSON.stringify({ error: 'invalid_grant', error_description: 'The authorization code is invalid' }));
          return;
        }
        res.end(
          JSON.stringify({
            access_token: 'store-access-token',
            token_type: 'bearer',
            scope: 'write_products',
            user_id: 98765,
          }),
        );
      });
      return;
    }
    if (req.method === 'GET' && req.url?.startsWith('/checkout')) {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end('<!doctype html><title>Checkout</title><h1>Pagamento</h1>');
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    codes,
    tokenUrl: `${base}/token`,
    checkoutUrl: `${base}/checkout`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
