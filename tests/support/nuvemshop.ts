import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TokenRequest {
  client_id: string;
  client_secret: string;
  grant_type: string;
  code: string;
}

export interface TokenAnswer {
  status: number;
  body: unknown;
  delayMs?: number;
}

export interface NuvemshopStandIn {
  /** The token endpoint, for NUVEMSHOP_TOKEN_URL. */
  url: string;
  /** A checkout page on the same server, for CHECKOUT_URL. */
  checkoutUrl: string;
  /** Every exchange request received, in order. */
  requests: TokenRequest[];
  /** How many exchanges were received, for one code or in all. */
  exchanges(code?: string): number;
  /** Decides the answer to each code; the default grants `token-for-<code>` for store 4242. */
  answer: (code: string) => TokenAnswer;
  close(): Promise<void>;
}

const invalidGrant = { error: 'invalid_grant', error_description: 'The authorization code is invalid' };

/** The refusal the platform sends for a code it does not accept (with status 200, as the platform does). */
export function refusal(delayMs?: number): TokenAnswer {
  return { status: 200, body: invalidGrant, delayMs };
}

const codeOf = (request: Partial<TokenRequest>) => String(request.code ?? '');

const digest = (code: string) => createHash('sha256').update(code).digest();

/** The access token `derivedAnswer` grants for a code (the same on every exchange of it). */
export const tokenFor = (code: string) => `store-token-${digest(code).toString('hex').slice(0, 32)}`;

/** The store id `derivedAnswer` grants for a code. */
export const storeFor = (code: string) => 1_000_000 + (digest(code).readUInt32BE(0) % 1_000_000_000);

/**
 * Grants every code a token and a store id derived from the code, after `delayMs`; empty codes and codes starting
 * with `refused` are refused. The store id is `user_id`, or `store_id` as "some requests" get it (authentication.md).
 */
export function derivedAnswer(
  delayMs = 0,
  storeIdField: 'user_id' | 'store_id' = 'user_id',
): (code: string) => TokenAnswer {
  return (code) =>
    !code || code.startsWith('refused')
      ? refusal(delayMs)
      : {
          status: 200,
          body: {
            access_token: tokenFor(code),
            token_type: 'bearer',
            scope: 'read_products,write_products',
            [storeIdField]: String(storeFor(code)),
          },
          delayMs,
        };
}

/**
 * A local server speaking the Nuvemshop token endpoint's HTTP (POST JSON, answers token or error), which also serves
 * a checkout page on GET /checkout.
 */
export async function startNuvemshopStandIn(answer?: NuvemshopStandIn['answer']): Promise<NuvemshopStandIn> {
  const standIn: NuvemshopStandIn = {
    url: '',
    checkoutUrl: '',
    requests: [],
    exchanges: (code) =>
      code === undefined ? standIn.requests.length : standIn.requests.filter((r) => codeOf(r) === code).length,
    answer:
      answer ??
      ((code) => ({
        status: 200,
        body: {
          access_token: `token-for-${code}`,
          token_type: 'bearer',
          scope: 'read_products,write_products',
          user_id: 4242,
        },
      })),
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/checkout')) {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end('<!doctype html><title>Checkout</title><h1>Pagamento</h1>');
      return;
    }
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      let body = {} as TokenRequest;
      try {
        body = JSON.parse(raw || '{}') as TokenRequest;
      } catch {
        // an unreadable body counts as an exchange without a code
      }
      standIn.requests.push(body);
      const { status, body: reply, delayMs = 0 } = standIn.answer(codeOf(body));
      const timer = setTimeout(() => {
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(reply));
      }, delayMs);
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.url = `${base}/apps/authorize/token`;
  standIn.checkoutUrl = `${base}/checkout`;
  standIn.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return standIn;
}
