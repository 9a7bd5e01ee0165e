import type { Logger } from 'pino';
import { ApiError, databaseUnavailable, ValidationFailed } from '../errors';
import { isDatabaseUnavailable } from '../database/unavailable';
import { messages } from '../messages';

interface BodyParserError {
  type?: string;
  status?: number;
  body?: string;
  message?: string;
}

export interface ErrorAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * The one place domain, parser and infrastructure errors become HTTP answers (undefined: the client went away, there
 * is no one to answer). No answer carries a stack trace; only what is not the caller's doing is logged as an error.
 */
export function errorAnswer(error: unknown, log: Logger | undefined): ErrorAnswer | undefined {
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ status, body, headers });
  if (error instanceof ApiError) return answer(error.status, { detail: error.detail }, error.headers);
  if (error instanceof ValidationFailed) return answer(422, { detail: error.issues });
  const parser = error as BodyParserError;
  switch (parser.type) {
    case 'entity.parse.failed':
      return answer(422, {
        detail: [
          { type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: {}, ctx: { error: 'Invalid JSON' } },
        ],
      });
    case 'entity.too.large':
      return answer(413, { detail: messages.bodyTooLarge });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return answer(415, { detail: messages.unsupportedEncoding });
    case 'request.aborted':
      return undefined;
  }
  if (typeof parser.status === 'number' && parser.status >= 400 && parser.status < 500) {
    return answer(parser.status, { detail: messages.badRequest });
  }
  if (isDatabaseUnavailable(error)) {
    log?.warn({ err: error }, 'database unavailable');
    const unavailable = databaseUnavailable();
    return answer(unavailable.status, { detail: unavailable.detail }, unavailable.headers);
  }
  log?.error({ err: error }, 'unhandled error');
  return answer(500, { detail: messages.internalError });
}
