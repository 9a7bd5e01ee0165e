import { ApiError } from '../errors';
import { messages } from '../messages';

export type Exchange =
  | {
      kind: 'granted';
      storeId: number;
      accessToken: string;
      /** The scopes granted, comma-separated as answered (`read_products,write_products`); null when not said. */
      scope: string | null;
    }
  | { kind: 'refused'; reason: string };

export interface NuvemshopApp {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
}

/**
 * Trades an authorization code for the store's token at the Nuvemshop token endpoint.
 * A refusal is an answer (the code is spent or bad); an unreachable or slow platform is a 502.
 */
export async function exchangeCode(app: NuvemshopApp, code: string): Promise<Exchange> {
  let response: Response;
  try {
    response = await fetch(app.tokenUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        client_id: app.clientId,
        client_secret: app.clientSecret,
        grant_type: 'authorization_code',
        code,
      }),
      signal: AbortSignal.timeout(app.timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new ApiError(502, timedOut ? messages.nuvemshopTimedOut : 'Could not reach Nuvemshop');
  }
  let body: Record<string, unknown>;
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    throw new ApiError(502, `Nuvemshop answered with an unreadable response (HTTP ${response.status})`);
  }
  if (body && typeof body === 'object' && typeof body.error === 'string') {
    const description = typeof body.error_description === 'string' ? body.error_description : body.error;
    return { kind: 'refused', reason: description };
  }
  // The store id comes as `user_id`, or at some requests as `store_id` (authentication.md).
  const storeId = Number(body?.user_id ?? body?.store_id);
  const accessToken = body?.access_token;
  if (
    !response.ok ||
    typeof accessToken !== 'string' ||
    !accessToken ||
    !Number.isSafeInteger(storeId) ||
    storeId <= 0
  ) {
    throw new ApiError(502, `Nuvemshop answered with an unexpected response (HTTP ${response.status})`);
  }
  const scope = typeof body.scope === 'string' ? body.scope : null;
  return { kind: 'granted', storeId, accessToken, scope };
}
