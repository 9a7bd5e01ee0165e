import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface NuvemshopStandIn {
  /** The token endpoint, for NUVEMSHOP_TOKEN_URL. */
  tokenUrl: string;
  /** Exchanges answered, per code. */
  exchanges: Map<string, number>;
  totalExchanges(): number;
  /** The access token granted for a code (the same on every exchange of it). */
  tokenFor(code: string): string;
  /** The store id granted for a code. */
  storeFor(code: string): number;
  close(): Promise<void>;
}

/**
 * A local stand-in for the Nuvemshop token endpoint: grants every code a token and a store id derived from the
 * code, after `delayMs`, and counts the exchanges. Codes starting with `refused` are refused as the platform does.
 */
export async function startNuvemshopStandIn(delayMs = 0): Promise<NuvemshopStandIn> {
  const exchanges = new Map<string, number>();
  const digest = (code: string) => createHash('sha256').update(code).digest();
  const tokenFor = (code: string) => `store-token-${digest(code).toString('hex').slice(0, 32)}`;
  const storeFor = (code: string) => 1_000_000 + (digest(code).readUInt32BE(0) % 1_000_000_000);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let code = '';
      try {
        code = String(JSON.parse(Buffer.concat(chunks).toString('utf8')).code ?? '');
      } catch {
        // an unreadable body is refused below
      }
      exchanges.set(code, (exchanges.get(code) ?? 0) + 1);
      setTimeout(() => {
        res.setHeader('Content-Type', 'application/json');
        if (!code || code.startsWith('refused')) {
          res.end(JSON.stringify({ error: 'invalid_grant', error_description: 'The authorization code is invalid' }));
          return;
        }
        res.end(
          JSON.stringify({
            access_token: tokenFor(code),
            token_type: 'bearer',
            scope: 'read_products,write_products',
            user_id: String(storeFor(code)),
          }),
        );
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    tokenUrl: `http://127.0.0.1:${port}/apps/authorize/token`,
    exchanges,
    totalExchanges: () => [...exchanges.values()].reduce((a, b) => a + b, 0),
    tokenFor,
    storeFor,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
