import type http from 'node:http';

/** Listens on 127.0.0.1 at `port` (0: a free one), or fails with the reason (a port in use). */
export const listen = (server: http.Server, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
