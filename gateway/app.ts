import { randomUUID } from 'node:crypto';
import { expressMiddleware } from '@as-integrations/express5';
import type { ApolloServer } from '@apollo/server';
import cors from 'cors';
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import type { Config } from './config';
import { adminFiles, explorerPage } from './admin-files';
import { buildContext, type Context } from './graphql/context';
import { graphqlBodyErrors, queryLengthLimit } from './graphql/server';
import { restApi } from './rest/api';
import { errorHandler } from './rest/error-handler';
import { docsPage } from './rest/docs';
import type { Services } from './services';

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

  app.get('/graphql', explorerPage());
  app.use(
    '/graphql',
    express.json({ limit: config.BODY_LIMIT }),
    queryLengthLimit(config.GRAPHQL_MAX_QUERY_LENGTH),
    expressMiddleware(apollo, { context: async ({ req }) => buildContext(req, services) }),
    graphqlBodyErrors,
  );

  app.use('/docs', docsPage());

  app.use(adminFiles());
  app.use((_req, res) => {
    res.status(404).json({ detail: 'Not Found' });
  });
  // Whatever reaches here would otherwise get Express's default page, which shows the stack trace.
  app.use(errorHandler);
  return app;
}
