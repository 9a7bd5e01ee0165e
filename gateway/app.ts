import type { ApolloServer } from '@apollo/server';
import compression from 'compression';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { Config } from './config';
import { adminFiles } from './admin-files';
import type { Context } from './graphql/context';
import { graphqlRoute } from './graphql/route';
import type { AdminAssets } from './http/admin-assets';
import { inFlightGate } from './http/in-flight';
import { metricsRoute, RequestCounter } from './http/metrics-route';
import { protections } from './http/protections';
import { proxyTrust } from './http/trust';
import { docsPage } from './rest/docs';
import type { GatewayMetrics } from './metrics/gateway-metrics';
import type { Endpoint } from './rest/route';
import { errorHandler, notFound, restRouter } from './rest/router';
import type { Services } from './services';

export interface AppParts {
  config: Config;
  log: Logger;
  services: Services;
  apollo: ApolloServer<Context>;
  /** The REST API's endpoints, below /api/v1. */
  rest: Endpoint[];
  /** The admin's hashed files, below /assets. */
  assets: AdminAssets;
  /** What /metrics answers, when METRICS_TOKEN is set. */
  metrics?: GatewayMetrics;
}

/** A slash as a path may spell it: plain, percent-encoded (`%2f`), or a backslash, which browsers read as one. */
const SLASH = String.raw`(?:\/|\\|%2f|%5c)`;
/**
 * Addresses that belong to the API, the explorer or /docs, however many slashes lead them and however they are
 * spelled: never the admin's page.
 */
const NOT_A_SCREEN = new RegExp(`^${SLASH}+(?:api|graphql|docs)(?:${SLASH}|$)`, 'i');

/**
 * The one HTTP pipeline: every request, whatever answers it, passes the same protections (http/protections.ts) first,
 * then the REST API (/api/v1), GraphQL and its explorer (/graphql), /docs, /metrics, the admin's hashed files
 * (/assets) or its page. What none of them serves is a JSON 404; an error none of them answered is answered without a
 * stack trace.
 */
export function createApp({ config, log, services, apollo, rest, assets, metrics }: AppParts): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', proxyTrust(config.TRUST_PROXY));
  app.set('query parser', 'simple');
  // No ETag on generated answers; the admin's files carry their own.
  app.set('etag', false);

  // First, before any work a request could make the process hold: the bounds on requests being answered at once.
  app.use(inFlightGate({ total: config.REQUESTS_IN_FLIGHT, perAddress: config.REQUESTS_IN_FLIGHT_PER_ADDRESS }, log));
  const counter = metrics && new RequestCounter(metrics);
  app.use(protections(config, log, counter));
  // Every text answer over 1 KiB goes compressed to a browser that accepts it (REST, GraphQL, the OpenAPI document);
  // the admin's page, its files and /docs carry copies compressed at build or first use, and are left as they are.
  app.use(compression({ threshold: 1024 }));
  app.use('/api/v1', restRouter(rest, config, log));
  app.use('/graphql', graphqlRoute(apollo, services, config));
  if (config.PUBLIC_API_DOCS) app.use('/docs', docsPage());
  // Without METRICS_TOKEN, /metrics is an unknown address: a JSON 404, never the admin's page.
  app.get('/metrics', config.METRICS_TOKEN && metrics ? metricsRoute(config.METRICS_TOKEN, metrics) : notFound);
  app.get('/assets/:name', assets.handler);
  app.use((req, res, next) => (NOT_A_SCREEN.test(req.path) ? notFound(req, res, next) : next()));
  app.use(adminFiles());
  app.use(notFound);
  app.use(errorHandler(log));
  counter?.learn(app.router);
  return app;
}
