import { messages } from '../messages';
import type { SyncRunError } from './sync-run.resource';

/**
 * SQLSTATEs of a database that may answer otherwise the next time: a connection lost, a deadlock or serialization
 * failure, resources short, the server shutting down or cancelling, a lock not available.
 */
const MAY_PASS = /^(?:08|40|53|57|58)|^55P03$/;

/** What a failed step's error says, kept short: it is shown to staff beside the run's reason. */
const MAX_SAID = 300;

/**
 * A step's failure of its own (the database's, the product's; not a platform's): what it said, and what makes it the
 * same failure on another attempt, null when it may pass by itself. A database error is known by its SQLSTATE and
 * PostgreSQL's words, not by the statement quoted before them, whose values (a time, an id) differ on every attempt.
 */
export function stepFailureOf(error: unknown): { said: string; sameness: string | null } {
  const message = error instanceof Error ? error.message : String(error);
  const sqlState = (error as { code?: unknown } | null)?.code;
  if (typeof sqlState === 'string' && /^[0-9A-Z]{5}$/.test(sqlState) && error instanceof Error && 'routine' in error) {
    // The driver's message is `<statement> - <PostgreSQL's words>`, the ORM adding `\n - detail: <detail>`.
    const detailAt = message.lastIndexOf('\n - detail: ');
    const head = detailAt < 0 ? message : message.slice(0, detailAt);
    const at = head.lastIndexOf(' - ');
    const words = (at < 0 ? head : head.slice(at + 3)).trim();
    const detail = (error as { detail?: unknown }).detail;
    const said = (typeof detail === 'string' && detail ? `${words}: ${detail}` : words).slice(0, MAX_SAID);
    return { said, sameness: MAY_PASS.test(sqlState) ? null : `${sqlState} ${said}` };
  }
  const name = error instanceof Error ? error.name : typeof error;
  return { said: message.slice(0, MAX_SAID), sameness: `${name}: ${message}` };
}

/** A run's own error when its step failed the same way twice in a row: trying again would only wait longer. */
export const repeatedFailure = (said: string): SyncRunError => ({
  hiper_id: '',
  sku: null,
  message: messages.syncStepFailedRepeatedly,
  code: 'internal_repeated',
  detail: said,
});
