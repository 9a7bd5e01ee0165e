import type { ErrorRequestHandler } from 'express';
import { ApiError, databaseUnavailable, ValidationFailed } from '../errors';
import { isDatabaseUnavailable } from '../database/unavailable';

interface BodyParserError {
  type?: string;
  status?: number;
  body?: string;
  message?: string;
}

/** The one place domain, parser and infrastructure errors become HTTP answers. No answer carries a stack trace. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.headersSent) return;
    res.set(headers).status(status).json(body);
  };
  if (error instanceof ApiError) return send(error.status, { detail: error.detail }, error.headers);
  if (error instanceof ValidationFailed) return send(422, { detail: error.issues });
  const parser = error as BodyParserError;
  switch (parser.type) {
    case 'entity.parse.failed':
      return send(422, {
        detail: [
          { type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: {}, ctx: { error: 'Invalid JSON' } },
        ],
      });
    case 'entity.too.large':
      return send(413, { detail: 'Request body is too large' });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return send(415, { detail: 'Unsupported request encoding' });
    case 'request.aborted':
      return undefined;
  }
  if (typeof parser.status === 'number' && parser.status >= 400 && parser.status < 500) {
    return send(parser.status, { detail: 'Bad request' });
  }
  if (isDatabaseUnavailable(error)) {
    req.log?.warn({ err: error }, 'database unavailable');
    const unavailable = databaseUnavailable();
    return send(unavailable.status, { detail: unavailable.detail }, unavailable.headers);
  }
  req.log?.error({ err: error }, 'unhandled error');
  return send(500, { detail: 'Internal Server Error' });
};
