import { syncErrorNotes } from '../../schema/staff-notes';

/**
 * Every reason a run or a product can fail, as the API names it (`code`); its English `message` stays beside it, and
 * the admin says it in the screen's language from the code.
 */
export const SYNC_ERROR_CODES = [
  /** The client lacks a credential or the store id, or its state stops every call. */
  'not_connected',
  'hiper_key_refused',
  /** No answer from Hiper (refused connection, unknown host, cut short). */
  'hiper_unreachable',
  'hiper_timeout',
  /** Hiper answered 5xx, 408 or 429. */
  'hiper_unavailable',
  /** Hiper refused a call other than the key's (another 4xx, or a token it had just issued). */
  'hiper_refused',
  'hiper_not_understood',
  'hiper_cursor_stuck',
  /** Nuvemshop's 401, 402 and 403. */
  'nuvemshop_token_revoked',
  'nuvemshop_suspended',
  'nuvemshop_permission_missing',
  /** Nuvemshop's 409 ("too many PUT requests"), retried. */
  'nuvemshop_busy',
  /** Nuvemshop kept answering 429 past the retries a call gets. */
  'nuvemshop_rate_limited',
  'nuvemshop_unreachable',
  'nuvemshop_timeout',
  /** Nuvemshop answered 5xx or 408. */
  'nuvemshop_unavailable',
  /** Nuvemshop refused a product's call (422, 400, 404...): `detail` has its words. */
  'nuvemshop_refused',
  /** A 2xx without what it should carry. */
  'nuvemshop_not_understood',
  /** `PATCH /products/stock-price` did not apply a variant: `detail` has Nuvemshop's words. */
  'nuvemshop_variant_refused',
  /** A SKU that matches several products in the store. */
  'sku_ambiguous',
  /** A SKU of the catalogue that the Hiper account of a location (`location`, its name) does not know: 0 there. */
  'sku_missing_at_location',
  /** Anything else (the database, a fault of the product's own): the server log has the rest. */
  'internal',
  /** The same failure of the product's own on two attempts in a row: the run ends rather than waiting for nothing. */
  'internal_repeated',
] as const;

export type SyncErrorCode = (typeof SYNC_ERROR_CODES)[number];

/**
 * A call to Hiper or Nuvemshop that did not do what was asked, with the `code` a run's error carries. `retryable` says whether the same call may succeed
 * later (the platform was down, slow or busy) or will fail again until someone changes something (a refused key, a
 * revoked token, a body the platform rejects): a job retries the first kind with backoff and never the second.
 */
export class PlatformError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** The platform's HTTP status, when it answered. */
    readonly status?: number,
    /** The platform's answer, parsed when it was JSON. */
    readonly body?: unknown,
    /** What a run's error says it was (a call outside the synchronisation, an order's, may leave it `internal`). */
    readonly code: SyncErrorCode = 'internal',
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The platform's own words about a refusal, when it said any. */
  get detail(): string | undefined {
    return undefined;
  }
}

/** A failed call as staff read it (an order's hold or history): its code's text, and the status the platform gave. */
export function staffTextOf(error: unknown): string {
  if (!(error instanceof PlatformError)) return syncErrorNotes.internal;
  return error.status ? `${syncErrorNotes[error.code]} (HTTP ${error.status})` : syncErrorNotes[error.code];
}

/** Waits `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A platform's text as PostgreSQL can keep it: text and jsonb refuse the NUL character (dropped here) and jsonb a
 * surrogate without its pair (made U+FFFD, as UTF-8 would). Whatever the platforms send passes here on its way in.
 */
const storable = (text: string) => text.replaceAll('\u0000', '').replace(LONE_SURROGATES, '\uFFFD');

/** JSON escapes that spell a NUL or a surrogate: only an answer holding one needs its texts looked at. */
const UNSTORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/** The answer's body: parsed JSON, the text when it is not JSON, or undefined when there is none; texts storable. */
export async function readBody(response: Response): Promise<unknown> {
  const text = storable(await response.text());
  if (!text) return undefined;
  try {
    return UNSTORABLE_ESCAPE.test(text)
      ? JSON.parse(text, (_key, value: unknown) => (typeof value === 'string' ? storable(value) : value))
      : JSON.parse(text);
  } catch {
    return text;
  }
}

/** Whether a failed fetch gave up because its timeout signal fired. */
export const timedOut = (error: unknown) =>
  error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
