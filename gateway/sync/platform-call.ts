import type { SyncErrorCode } from '../resources/sync-run.resource';
import { syncErrorNotes } from '../../schema/staff-notes';

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
