import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import cors, { type CorsOptions } from 'cors';
import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { RequestCounter } from './metrics-route';

/** What every answer carries, whatever part of the server writes it. */
export const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
};

/** Cross-origin calls from the configured origins only (none unless CORS_ORIGINS is set). */
export function corsOptions(config: Config): CorsOptions | undefined {
  if (!config.CORS_ORIGINS.length) return undefined;
  return { origin: config.CORS_ORIGINS, allowedHeaders: ['Authorization', 'Content-Type', 'Apollo-Require-Preflight'] };
}

/**
 * helmet's headers for HELMET_OPTIONS, asked of helmet once: its answer does not depend on the request, so they are
 * set from one map instead of running helmet's dozen setters on every request.
 */
export function securityHeaders(): Map<string, string> {
  const headers = new Map<string, string>();
  // A response of no connection, whose headers are noted as helmet names them.
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  response.setHeader = (name, value) => {
    headers.set(name, String(value));
    return response;
  };
  response.removeHeader = (name) => void headers.delete(name);
  response.getHeader = (name) => headers.get(name);
  let done = false;
  helmet(HELMET_OPTIONS)(request, response, () => (done = true));
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}

/** Query parameters that carry secrets (reset tokens, authorization codes) are masked in logs. */
const SECRET_QUERY = /([?&](?:token|code|access_token)=)[^&#]*/gi;
export const maskUrl = (url: string) => (url.includes('=') ? url.replace(SECRET_QUERY, '$1[redacted]') : url);

/** The caller's X-Request-Id when it is a plain token, else a new one. */
export function requestId(given: string | string[] | undefined): string {
  return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
}

export const TIMED_OUT = 'The request took too long and was stopped';

/** Health checks are polled every few seconds by orchestrators: not worth a log line each. */
export const HEALTH_CHECK_PATH = '/api/v1/utils/health-check/';

/** What a handler may leave for the access log: the error behind a 5xx it answered. */
export interface Logged {
  failure?: unknown;
}

/** Marks the error behind a 5xx answer, for the request's access log line. */
export const noteFailure = (res: ServerResponse, error: unknown) => ((res as ServerResponse & Logged).failure = error);

/**
 * RFC 9112 §3.2.2: a server accepts a request target in absolute form (`GET http://host/path`), as a proxy sends it,
 * and answers it as its origin-form path. A path starting with `//` is kept as it is: it names no route.
 */
export function originForm(url: string): string {
  if (url.startsWith('/') || url === '*') return url;
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.pathname + parsed.search;
  } catch {
    // not a URL: routed as it is, and answered 404
  }
  return url;
}

/**
 * Every request's protections, declared once and run first for every address the server answers (the REST API,
 * GraphQL and its explorer, /docs, the admin's page and files): a request id,
 * helmet's security headers, CORS when configured, the request timeout and the access log
 * line, of one shape for all, and with a `counter` (METRICS_TOKEN set) the request counted by its route. The caller's
 * address (`req.ip`, which every per-address limit keys on) is Express's `trust proxy` reading of it, set on the app.
 */
export function protections(config: Config, log: Logger, counter?: RequestCounter): RequestHandler[] {
  const headers = securityHeaders();
  const crossOrigin = corsOptions(config);
  // The line of an answered request holds nothing secret (its address passes maskUrl first): it skips the logger's
  // redaction, which would walk it for secret fields on every request. A failure's line keeps it, for its error.
  const answered = log.child({}, { redact: [] });
  const first: RequestHandler = (req, res, next) => {
    const url = req.url;
    const id = requestId(req.headers['x-request-id']);
    res.setHeaders(headers);
    res.setHeader('X-Request-Id', id);
    const started = performance.now();
    const timer = setTimeout(() => {
      if (!res.headersSent) res.status(503).json({ detail: TIMED_OUT });
    }, config.REQUEST_TIMEOUT_MS);
    timer.unref();
    res.once('close', () => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      counter?.count(req, res, ms / 1000);
      if (url === HEALTH_CHECK_PATH) return;
      const line = {
        req: { id, method: req.method, url: maskUrl(url), remoteAddress: req.ip },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(ms),
      };
      const { failure } = res as typeof res & Logged;
      if (!res.writableFinished) answered.info(line, 'request aborted');
      else if (failure || res.statusCode >= 500) log.error({ ...line, err: failure }, 'request errored');
      else answered.info(line, 'request completed');
    });
    next();
  };
  return crossOrigin ? [first, cors(crossOrigin)] : [first];
}
