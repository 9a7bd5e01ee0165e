import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { expressMiddleware } from '@as-integrations/express5';
import type { ApolloServer } from '@apollo/server';
import cors from 'cors';
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import type { Config } from './config';
import { projectRoot } from './paths';
import { buildContext, type Context } from './graphql/context';
import { graphqlBodyErrors, queryLengthLimit } from './graphql/server';
import { restApi } from './rest/api';
import { errorHandler } from './rest/error-handler';
import { docsPage } from './rest/docs';
import type { Services } from './services';

export const adminDist = path.join(projectRoot, 'dist', 'admin');

/** Query parameters that carry secrets (reset tokens, authorization codes) are masked in logs. */
const SECRET_QUERY = /([?&](?:token|code|access_token)=)[^&#]*/gi;
export const maskUrl = (url: string) => url.replace(SECRET_QUERY, '$1[redacted]');

function requestTimeout(ms: number): RequestHandler {
  return (_req, res, next) => {
    const timer = setTimeout(() => {
      if (!res.headersSent) res.status(503).json({ detail: 'The request took too long and was stopped' });
    }, ms);
    timer.unref();
    res.on('close', () => clearTimeout(timer));
    next();
  };
}

export interface AppParts {
  config: Config;
  services: Services;
  apollo: ApolloServer<Context>;
  log: Logger;
}

/** The whole HTTP surface: /api/v1, /graphql, /docs and the admin, behind one set of protections. */
export function createApp({ config, services, apollo, log }: AppParts): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('query parser', 'simple');
  // No ETag on API answers (the contract has none, and hashing every list page costs more than it saves);
  // the admin's files keep theirs from express.static.
  app.set('etag', false);

  app.use(
    pinoHttp({
      logger: log,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      serializers: {
        req: (req) => ({ id: req.id, method: req.method, url: maskUrl(req.url), remoteAddress: req.remoteAddress }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
      autoLogging: { ignore: (req) => req.url === '/api/v1/utils/health-check/' },
    }),
  );
  app.use(
    helmet({
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
    }),
  );
  if (config.CORS_ORIGINS.length) {
    app.use(
      cors({
        origin: config.CORS_ORIGINS,
        allowedHeaders: ['Authorization', 'Content-Type', 'Apollo-Require-Preflight'],
      }),
    );
  }
  app.use(requestTimeout(config.REQUEST_TIMEOUT_MS));

  app.use('/api/v1', restApi(services, config));

  const explorer = path.join(adminDist, 'graphiql', 'index.html');
  app.get('/graphql', (req, res, next) => {
    if (!req.accepts('html') || req.query.query !== undefined) return next();
    if (existsSync(explorer)) return res.sendFile(explorer);
    res.type('text').send('The GraphQL explorer is part of the admin build: run `npm run build`.');
  });
  app.use(
    '/graphql',
    express.json({ limit: config.BODY_LIMIT }),
    queryLengthLimit(config.GRAPHQL_MAX_QUERY_LENGTH),
    expressMiddleware(apollo, { context: async ({ req }) => buildContext(req, services) }),
    graphqlBodyErrors,
  );

  app.use('/docs', docsPage());

  app.use(express.static(adminDist, { index: false, maxAge: '1h' }));
  // History fallback: every screen's address answers with the admin app, which routes it.
  app.get(/^\/(?!api\/|graphql|docs).*/, (_req, res) => {
    const index = path.join(adminDist, 'index.html');
    if (existsSync(index)) return res.sendFile(index, { headers: { 'Cache-Control': 'no-cache' } });
    res.type('text').send('The admin is not built yet: run `npm run build`.');
  });
  app.use((_req, res) => {
    res.status(404).json({ detail: 'Not Found' });
  });
  // Whatever reaches here would otherwise get Express's default page, which shows the stack trace.
  app.use(errorHandler);
  return app;
}
