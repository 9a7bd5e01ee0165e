import { METHODS, type IncomingMessage, type ServerResponse } from 'node:http';
import querystring from 'node:querystring';
import { HeaderMap, type ApolloServer } from '@apollo/server';
import accepts from 'accepts';
import bodyParser from 'body-parser';
import cors from 'cors';
import FindMyWay from 'find-my-way';
import type { Logger } from 'pino';
import proxyaddr from 'proxy-addr';
import type { Config } from '../config';
import { ApiError } from '../errors';
import type { CompiledExecution, PreparedRequest } from '../graphql/compiled-executor';
import type { AdminAssets } from './admin-assets';
import { buildContext, type Context } from '../graphql/context';
import { graphqlBodyRefusal, queryTooLong } from '../graphql/server';
import { errorAnswer } from '../rest/error-handler';
import { readForm } from '../rest/form-body';
import { JSON_TYPE, type Endpoint } from '../rest/route';
import type { Services } from '../services';
import { corsOptions, HEALTH_CHECK_PATH, maskUrl, requestId, securityHeaders, TIMED_OUT } from './protections';
import { proxyTrust } from './trust';
import { messages } from '../messages';

export interface LaneParts {
  config: Config;
  services: Services;
  apollo: ApolloServer<Context>;
  /** Apollo's executor, which also runs a query text Apollo has already validated without Apollo. */
  execution: CompiledExecution;
  log: Logger;
  /** The REST API's endpoints, below /api/v1. */
  rest: Endpoint[];
  /** The admin's hashed files, below /assets. */
  assets: AdminAssets;
}

/** A request on its way through the lane: what the body parsers and the handlers read and set. */
interface LaneRequest extends IncomingMessage {
  body?: unknown;
  ip: string;
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
const run = (middleware: Middleware, req: IncomingMessage, res: ServerResponse) =>
  new Promise<void>((resolve, reject) => middleware(req, res, (error) => (error ? reject(error) : resolve())));

type RestRoute = { endpoint: Endpoint } | { allowed: string };

/**
 * The API's own path through the server: /api/v1, /graphql and the admin's hashed files (/assets) are answered here on
 * Node's http objects, with the same protections the Express app gives everything else (helmet's headers, a request
 * id, an access log line, CORS when configured, the request timeout, body limits), and without Express's per-request
 * machinery, which cost more than the rest of a read by id together. The admin's page, /docs and the GraphQL
 * explorer stay with Express.
 *
 * Answers `true` when it took the request.
 */
export function createLane({ config, services, apollo, execution, log, rest, assets }: LaneParts) {
  const headers = securityHeaders();
  // As Express's `trust proxy`: the client is the nearest address in X-Forwarded-For that is not a trusted proxy.
  const trust = proxyTrust(config.TRUST_PROXY);
  const crossOrigin = corsOptions(config);
  const corsMiddleware = crossOrigin ? (cors(crossOrigin) as Middleware) : undefined;
  const json = bodyParser.json({
    limit: config.BODY_LIMIT,
    strict: true,
    type: ['application/json', 'application/*+json'],
  }) as Middleware;
  const urlencoded = bodyParser.urlencoded({
    limit: config.BODY_LIMIT,
    extended: false,
    parameterLimit: 50,
  }) as Middleware;
  const graphqlJson = bodyParser.json({ limit: config.BODY_LIMIT }) as Middleware;

  // Express's defaults, which the API has always answered by: paths match whatever their case and trailing slash.
  const router = FindMyWay<FindMyWay.HTTPVersion.V1>({ caseSensitive: false, ignoreTrailingSlash: true });
  const methods = new Map<string, string[]>();
  for (const endpoint of rest) {
    const route: RestRoute = { endpoint };
    router.on(endpoint.method, `/api/v1${endpoint.path}`, () => undefined, route);
    if (endpoint.method === 'GET') router.on('HEAD', `/api/v1${endpoint.path}`, () => undefined, route);
    methods.set(endpoint.path, [...(methods.get(endpoint.path) ?? []), endpoint.method]);
  }
  // A known path asked with another method is a 405 naming the allowed ones, as FastAPI answers.
  for (const [path, allowed] of methods) {
    const others = METHODS.filter((m) => !allowed.includes(m) && !(m === 'HEAD' && allowed.includes('GET')));
    if (others.length)
      router.on(others as FindMyWay.HTTPMethod[], `/api/v1${path}`, () => undefined, { allowed: allowed.join(', ') });
  }

  return function lane(incoming: IncomingMessage, res: ServerResponse): boolean {
    const url = incoming.url ?? '/';
    const end = url.indexOf('?');
    const path = end === -1 ? url : url.slice(0, end);
    const api =
      path.length >= 7 && path.slice(0, 7).toLowerCase() === '/api/v1' && (path.length === 7 || path[7] === '/');
    const graphql = !api && /^\/graphql\/?$/i.test(path) && !wantsExplorer(incoming, url, end);
    const asset = !api && !graphql && assets.handles(incoming.method, path);
    if (!api && !graphql && !asset) return false;

    const req = incoming as LaneRequest;
    req.ip = proxyaddr(req, trust);
    const started = performance.now();
    const id = requestId(req.headers['x-request-id']);
    let failure: unknown;

    const send = (status: number, body: string | Buffer, contentType: string, extra: string[] = []) => {
      if (res.headersSent) return;
      res.writeHead(status, [
        ...headers,
        'X-Request-Id',
        id,
        ...extra,
        'Content-Type',
        contentType,
        'Content-Length',
        String(Buffer.byteLength(body)),
      ]);
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const sendError = (error: unknown) => {
      const answer = errorAnswer(error, errorLog());
      if (!answer) return;
      if (answer.status >= 500) failure = error;
      send(answer.status, JSON.stringify(answer.body), JSON_TYPE, Object.entries(answer.headers).flat());
    };
    const errorLog = () => log.child({ reqId: id });

    const timer = setTimeout(
      () => send(503, JSON.stringify({ detail: TIMED_OUT }), JSON_TYPE),
      config.REQUEST_TIMEOUT_MS,
    );
    timer.unref();
    res.once('close', () => {
      clearTimeout(timer);
      if (path === HEALTH_CHECK_PATH) return;
      const line = {
        req: { id, method: req.method, url: maskUrl(url), remoteAddress: req.socket.remoteAddress },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(performance.now() - started),
      };
      if (!res.writableFinished) log.info(line, 'request aborted');
      else if (failure || res.statusCode >= 500) log.error({ ...line, err: failure }, 'request errored');
      else log.info(line, 'request completed');
    });

    const answer = async () => {
      if (corsMiddleware) {
        // A preflight is answered by cors itself; the headers it set travel with the answer.
        let passed = false;
        corsMiddleware(req, res, () => (passed = true));
        if (!passed) return;
      }
      if (graphql) return answerGraphql();
      if (asset) return answerAsset();
      await run(json, req, res);
      await run(urlencoded, req, res);
      const found = router.find(req.method as FindMyWay.HTTPMethod, path);
      // A path find-my-way cannot decode (a stray `%`) is the caller's mistake, as Express answered it: 400.
      if (!found)
        throw isDecodable(path) ? new ApiError(404, messages.notFound) : new ApiError(400, messages.badRequest);
      const route = found.store as RestRoute;
      if ('allowed' in route) {
        send(405, JSON.stringify({ detail: messages.methodNotAllowed }), JSON_TYPE, ['Allow', route.allowed]);
        return;
      }
      if (route.endpoint.form) await readForm(req, res);
      const result = await route.endpoint.answer({
        params: found.params,
        query: () => (end === -1 ? {} : querystring.parse(url.slice(end + 1))),
        body: req.body,
        headers: req.headers,
        ip: req.ip,
      });
      send(200, result.body, result.contentType);
    };

    const answerAsset = async () => {
      const result = await assets.answer(req, path);
      if (result.status === 404) {
        send(404, JSON.stringify({ detail: messages.notFound }), JSON_TYPE);
      } else if (result.status === 304) {
        if (res.headersSent) return;
        res.writeHead(304, [...headers, 'X-Request-Id', id, ...result.file.headers]);
        res.end();
      } else {
        send(200, result.file.body, result.file.contentType, result.file.headers);
      }
    };

    const answerGraphql = async () => {
      try {
        await run(graphqlJson, req, res);
      } catch (error) {
        const refusal = graphqlBodyRefusal(error);
        if (!refusal) throw error;
        send(refusal.status, JSON.stringify(refusal.body), JSON_TYPE);
        return;
      }
      const tooLong = queryTooLong(
        req.method === 'GET' ? querystring.parse(url.slice(end + 1)).query : req.body,
        config,
      );
      if (tooLong) {
        send(tooLong.status, JSON.stringify(tooLong.body), JSON_TYPE);
        return;
      }
      let context: Context | undefined;
      const prepared = preparedRequest(req);
      if (prepared) {
        context = buildContext(req, services);
        const result = await execution.runPrepared(prepared, context);
        if (result && !result.errors?.length) {
          // Apollo's own answer to a result without errors: the same status, type and bytes.
          send(200, JSON.stringify({ data: result.data }) + '\n', GRAPHQL_JSON_TYPE);
          return;
        }
        context.executed = result;
      }
      const requestHeaders = new HeaderMap();
      for (const [key, value] of Object.entries(req.headers)) {
        if (value !== undefined) requestHeaders.set(key, Array.isArray(value) ? value.join(', ') : value);
      }
      const answer = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: {
          method: (req.method ?? 'GET').toUpperCase(),
          headers: requestHeaders,
          search: end === -1 ? '' : url.slice(end),
          body: req.body,
        },
        context: async () => context ?? buildContext(req, services),
      });
      const extra: string[] = [];
      let contentType = JSON_TYPE;
      for (const [key, value] of answer.headers) {
        if (key === 'content-type') contentType = value;
        else extra.push(key, value);
      }
      if (answer.body.kind === 'complete') {
        send(answer.status ?? 200, answer.body.string, contentType, extra);
        return;
      }
      // Incremental delivery (@defer) is not in the schema; answered in full should it ever come.
      let text = '';
      for await (const chunk of answer.body.asyncIterator) text += chunk;
      send(answer.status ?? 200, text, contentType, extra);
    };

    answer().catch(sendError);
    return true;
  };
}

const GRAPHQL_JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A request that may skip Apollo's pipeline when its query text has been through it (`runPrepared`): a POST of a JSON
 * object with a query, an optional operation name and variables, asking for no extension (a persisted query's
 * hash, say) and accepting Apollo's plain JSON answer. A JSON content type is one that Apollo's CSRF prevention lets
 * through. Anything else takes Apollo's path, which answers it as it always has.
 */
function preparedRequest(req: LaneRequest): PreparedRequest | undefined {
  if (req.method !== 'POST') return undefined;
  const type = req.headers['content-type'];
  if (!type || !/^application\/json\s*(;|$)/i.test(type)) return undefined;
  const { accept } = req.headers;
  if (accept !== undefined && accept !== '*/*' && !/^application\/json\s*(;\s*charset=utf-8\s*)?$/i.test(accept))
    return undefined;
  const body = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { query, operationName, variables } = body as Record<string, unknown>;
  if (typeof query !== 'string' || 'extensions' in body) return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables)))
    return undefined;
  return { query, operationName, variables: variables as Record<string, unknown> | null | undefined };
}

/** A browser opening /graphql gets the explorer (from the Express app); a query in its address is run here. */
function wantsExplorer(req: IncomingMessage, url: string, end: number): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (end !== -1 && querystring.parse(url.slice(end + 1)).query !== undefined) return false;
  return Boolean(accepts(req).type('html'));
}

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
