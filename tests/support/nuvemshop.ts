import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TokenRequest {
  client_id: string;
  client_secret: string;
  grant_type: string;
  code: string;
}

export interface NuvemshopStandIn {
  url: string;
  /** Every exchange request received, in order. */
  requests: TokenRequest[];
  /** Decides the answer to each code; the default grants store 1000 + a counter. */
  answer: (code: string) => { status: number; body: unknown; delayMs?: number };
  close(): Promise<void>;
}

/** A local server speaking the Nuvemshop token endpoint's HTTP (POST JSON, answers token or error). */
export async function startNuvemshopStandIn(): Promise<NuvemshopStandIn> {
  const standIn: NuvemshopStandIn = {
    url: '',
    requests: [],
    answer: (code) => ({
      status: 200,
      body: {
        access_token: `token-for-${code}`,
        token_type: 'bearer',
        scope: 'read_products,write_products',
        user_id: 4242,
      },
    }),
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as TokenRequest;
      standIn.requests.push(body);
      const { status, body: answer, delayMs = 0 } = standIn.answer(body.code);
      const timer = setTimeout(() => {
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
      }, delayMs);
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/apps/authorize/token`;
  standIn.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return standIn;
}
