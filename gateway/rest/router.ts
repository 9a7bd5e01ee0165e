import { METHODS } from 'node:http';
import bodyParser from 'body-parser';
import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { ApiError } from '../errors';
import { noteFailure } from '../http/protections';
import { sendBody } from '../http/send';
import { messages } from '../messages';
import { errorAnswer } from './error-handler';
import { readForm } from './form-body';
import { JSON_TYPE, type Endpoint } from './route';

/** errorAnswer for any part of the Express app: the REST API, the admin's files, /docs, the explorer. */
export const errorHandler =
  (log: Logger): ErrorRequestHandler =>
  (error, _req, res, _next) => {
    const answer = errorAnswer(error, log.child({ reqId: res.getHeader('X-Request-Id') }));
    if (!answer || res.headersSent) return;
    if (answer.status >= 500) noteFailure(res, error);
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    sendBody(res, answer.status, JSON.stringify(answer.body), JSON_TYPE);
  };

/** Any address the API does not serve: a JSON 404, never the admin's page. */
export const notFound: RequestHandler = (_req, res) =>
  sendBody(res, 404, JSON.stringify({ detail: messages.notFound }), JSON_TYPE);

/**
 * The REST API below /api/v1 on Express's router: each endpoint on its path and method (HEAD with GET), a known path
 * asked with another method a 405 naming the allowed ones, as FastAPI answers, and anything else a JSON 404. Paths
 * match whatever their case and trailing slash (Express's defaults, which the API has always answered by).
 */
export function restRouter(endpoints: Endpoint[], config: Config, log: Logger): Router {
  const router = Router();
  router.use(
    bodyParser.json({ limit: config.BODY_LIMIT, strict: true, type: ['application/json', 'application/*+json'] }),
    bodyParser.urlencoded({ limit: config.BODY_LIMIT, extended: false, parameterLimit: 50 }),
  );
  const methods = new Map<string, string[]>();
  for (const endpoint of endpoints) {
    const handler: RequestHandler = (req, res, next) => {
      const answer = async () => {
        if (endpoint.form) await readForm(req, res);
        const result = await endpoint.answer({
          params: req.params as Record<string, string | undefined>,
          query: () => req.query as Record<string, unknown>,
          body: req.body,
          headers: req.headers,
          ip: req.ip ?? 'unknown',
        });
        sendBody(res, 200, result.body, result.contentType);
      };
      answer().catch(next);
    };
    router[endpoint.method.toLowerCase() as 'get'](endpoint.path, handler);
    methods.set(endpoint.path, [...(methods.get(endpoint.path) ?? []), endpoint.method]);
  }
  for (const [path, allowed] of methods) {
    const others = new Set(METHODS.filter((m) => !allowed.includes(m) && !(m === 'HEAD' && allowed.includes('GET'))));
    router.all(path, (req, res, next) => {
      if (!others.has(req.method)) return next();
      res.setHeader('Allow', allowed.join(', '));
      sendBody(res, 405, JSON.stringify({ detail: messages.methodNotAllowed }), JSON_TYPE);
    });
  }
  router.use((req, _res, next) =>
    // A path that cannot be decoded (a stray `%`) is the caller's mistake: 400, as Express answers it.
    next(isDecodable(req.path) ? new ApiError(404, messages.notFound) : new ApiError(400, messages.badRequest)),
  );
  router.use(errorHandler(log));
  return router;
}

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
