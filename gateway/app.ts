import cors from 'cors';
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';
import type { Config } from './config';
import { adminFiles, explorerPage } from './admin-files';
import { corsOptions, HELMET_OPTIONS, maskUrl, requestId, TIMED_OUT } from './http/protections';
import { errorHandler } from './rest/error-handler';
import { docsPage } from './rest/docs';
import { messages } from './messages';

function requestTimeout(ms: number): RequestHandler {
  return (_req, res, next) => {
    const timer = setTimeout(() => {
      if (!res.headersSent) res.status(503).json({ detail: TIMED_OUT });
    }, ms);
    timer.unref();
    res.on('close', () => clearTimeout(timer));
    next();
  };
}

export interface AppParts {
  config: Config;
  log: Logger;
}

/**
 * What the API lane (http/lane.ts) leaves: the admin's page and screens, /docs and the GraphQL explorer, behind the
 * same protections.
 */
export function createApp({ config, log }: AppParts): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('query parser', 'simple');
  // No ETag on generated answers; the files served by the static middleware keep theirs.
  app.set('etag', false);

  app.use(
    pinoHttp({
      logger: log,
      genReqId: (req, res) => {
        const id = requestId(req.headers['x-request-id']);
        res.setHeader('X-Request-Id', id);
        return id;
      },
      serializers: {
        req: (req) => ({ id: req.id, method: req.method, url: maskUrl(req.url), remoteAddress: req.remoteAddress }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    }),
  );
  app.use(helmet(HELMET_OPTIONS));
  const crossOrigin = corsOptions(config);
  if (crossOrigin) app.use(cors(crossOrigin));
  app.use(requestTimeout(config.REQUEST_TIMEOUT_MS));

  app.get('/graphql', explorerPage());
  app.use('/docs', docsPage());

  app.use(adminFiles());
  app.use((_req, res) => {
    res.status(404).json({ detail: messages.notFound });
  });
  // Whatever reaches here would otherwise get Express's default page, which shows the stack trace.
  app.use(errorHandler);
  return app;
}
