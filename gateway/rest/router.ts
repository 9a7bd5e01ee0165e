import bodyParser from 'body-parser';
import { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import typeis from 'type-is';
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
  const json = bodyParser.json({
    limit: config.BODY_LIMIT,
    strict: true,
    type: ['application/json', 'application/*+json'],
  });
  const urlencoded = bodyParser.urlencoded({ limit: config.BODY_LIMIT, extended: false, parameterLimit: 50 });
  // What a caller reads with its token is its own: no browser or shared cache may keep it, whatever the answer.
  router.use((req, res, next) => {
    if (req.headers.authorization !== undefined) res.setHeader('Cache-Control', 'no-store');
    next();
  });
  // A route that takes its body as bytes is served before the parsers, which would change them.
  const rawParsers = new Map<string, RequestHandler>();
  const rawParser = (limit: string) => {
    if (!rawParsers.has(limit)) rawParsers.set(limit, bodyParser.raw({ limit, type: () => true }));
    return rawParsers.get(limit)!;
  };
  for (const endpoint of endpoints.filter((e) => e.rawBody)) {
    router[endpoint.method.toLowerCase() as 'post'](endpoint.path, (req, res, next) => {
      const take = async () => {
        const admission = endpoint.admit
          ? await endpoint.admit({ headers: req.headers, ip: req.ip ?? 'unknown' })
          : { limit: endpoint.rawBody!, run: <T>(work: () => Promise<T>) => work() };
        await admission.run(async () => {
          await new Promise<void>((resolve, reject) =>
            rawParser(admission.limit)(req, res, (error?: unknown) => (error ? reject(error) : resolve())),
          );
          await answerWithin(endpoint, req, res);
        });
      };
      take().catch(next);
    });
  }
  // Both parsers in one step, taken only by a request with a body: a GET passes neither.
  router.use((req, res, next) => {
    if (!typeis.hasBody(req)) return next();
    json(req, res, (error) => (error ? next(error) : urlencoded(req, res, next)));
  });
  // One route per path, its methods on it, and the 405 naming them: the router tries each path once.
  const paths = new Map<string, Endpoint[]>();
  for (const endpoint of endpoints) paths.set(endpoint.path, [...(paths.get(endpoint.path) ?? []), endpoint]);
  for (const [path, served] of paths) {
    const route = router.route(path);
    for (const endpoint of served) route[endpoint.method.toLowerCase() as 'get'](answerWith(endpoint));
    const allowed = served.map((endpoint) => endpoint.method).join(', ');
    route.all((_req, res) => {
      res.setHeader('Allow', allowed);
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

/** An endpoint as an Express handler: its input read from the request, its answer written in one call. */
function answerWith(endpoint: Endpoint): RequestHandler {
  return (req, res, next) => {
    answerWithin(endpoint, req, res).catch(next);
  };
}

async function answerWithin(endpoint: Endpoint, req: Request, res: Response): Promise<void> {
  if (endpoint.form) await readForm(req, res);
  const result = await endpoint.answer({
    params: req.params as Record<string, string | undefined>,
    query: () => req.query as Record<string, unknown>,
    body: req.body,
    raw: endpoint.rawBody && Buffer.isBuffer(req.body) ? req.body : undefined,
    headers: req.headers,
    ip: req.ip ?? 'unknown',
  });
  sendBody(res, result.status, result.body, result.contentType);
}

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
