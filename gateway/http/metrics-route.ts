import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { GatewayMetrics } from '../metrics/gateway-metrics';
import { ABORTED, UNMATCHED_ROUTE } from '../metrics/request-labels';
import { messages } from '../messages';
import { sendBody } from './send';

const JSON_TYPE = 'application/json; charset=utf-8';

/** A token's SHA-256: digests of equal length, so comparing them takes the same time whatever the token given. */
const digest = (token: string) => createHash('sha256').update(token).digest();

/**
 * GET /metrics for Prometheus, with METRICS_TOKEN as the bearer token (`Authorization: Bearer <token>`, compared in
 * constant time); without it or with another, 401. What is scraped says how busy the product is and which queues fail:
 * nobody without the token reads it, and no cache keeps it.
 */
export function metricsRoute(token: string, metrics: GatewayMetrics): RequestHandler {
  const expected = digest(token);
  return (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    const given = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      const detail = given === undefined ? messages.notAuthenticated : messages.invalidCredentials;
      return sendBody(res, 401, JSON.stringify({ detail }), JSON_TYPE);
    }
    // A count that cannot be read is left out (metrics/tallies.ts): what fails here is answered as any error is.
    metrics.text().then((text) => sendBody(res, 200, text, metrics.contentType), next);
  };
}

/** What the counter reads of Express's router: its layers, each a route or a middleware, which may be a router. */
interface Layer {
  rawPath?: string | RegExp | (string | RegExp)[];
  route?: { path: string | RegExp | (string | RegExp)[] };
  handle: { stack?: unknown };
}

/** A route's pattern below a mount's: `/graphql` and `/` are `/graphql`, `/api/v1` and `/clients/:id` its join. */
const below = (mount: string, path: Layer['rawPath']) =>
  path === undefined || (path === '/' && mount !== '') ? mount : mount + String(path);

/**
 * Counts each request the app answers by the pattern of the route that matched it (`/api/v1/clients/:id`), or
 * `unmatched`: never its address, whose ids would make a series each. Each route's whole pattern, its mounts'
 * paths before its own, is worked out once from the app's router (the layers Express's `router.listRoutes()` reads),
 * so a request costs a lookup.
 */
export class RequestCounter {
  private readonly patterns = new WeakMap<object, string>();

  constructor(private readonly metrics: GatewayMetrics) {}

  /** Learns every route's pattern: called once the app has mounted them all. */
  learn(router: { stack: unknown[] }, mount = ''): void {
    for (const layer of router.stack as Layer[]) {
      if (layer.route) this.patterns.set(layer.route, below(mount, layer.route.path));
      else if (Array.isArray(layer.handle.stack)) {
        this.learn(layer.handle as { stack: unknown[] }, layer.rawPath === '/' ? mount : below(mount, layer.rawPath));
      }
    }
  }

  /** Counts an answered request, `seconds` after it came. */
  count(req: Request, res: Response, seconds: number): void {
    const route: unknown = req.route;
    const pattern = (typeof route === 'object' && route && this.patterns.get(route)) || UNMATCHED_ROUTE;
    this.metrics.request(req.method, pattern, res.writableFinished ? res.statusCode : ABORTED, seconds);
  }
}
