/** query_canceled: the statement ran past DATABASE_STATEMENT_TIMEOUT_MS (or an administrator cancelled it). */
const STATEMENT_CANCELLED = '57014';

/**
 * True when an error means PostgreSQL cannot be reached or is shutting down, or cancelled a statement that ran too
 * long (as opposed to a bad query), so callers get 503 and can retry instead of a 500.
 */
const CONNECTION_CODES = new Set([
  STATEMENT_CANCELLED,
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
]);
// 'Transaction query already complete': the connection died inside a transaction, which knex then rolled back.
const CONNECTION_MESSAGES =
  /Knex: Timeout acquiring a connection|Connection terminated|connection is closed|Client has encountered a connection error|terminating connection|the database system is (starting up|shutting down)|timeout exceeded when trying to connect|Transaction query already complete/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  return someCause(error, (e) => {
    const { code, message, name } = e as { code?: string; message?: string; name?: string };
    if (code && CONNECTION_CODES.has(code)) return true;
    if (name === 'KnexTimeoutError' || name === 'ConnectionException') return true;
    return !!message && CONNECTION_MESSAGES.test(message);
  });
}

/** True when PostgreSQL cancelled the statement, which the statement timeout does to one that runs too long. */
export function isStatementCancelled(error: unknown): boolean {
  return someCause(error, (e) => (e as { code?: string }).code === STATEMENT_CANCELLED);
}

/** Whether the error, or one it wraps (MikroORM's `previous`, a `cause`), passes `test`. */
function someCause(error: unknown, test: (e: unknown) => boolean): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (test(e)) return true;
    e = (e as { cause?: unknown; previous?: unknown }).previous ?? (e as { cause?: unknown }).cause;
  }
  return false;
}
