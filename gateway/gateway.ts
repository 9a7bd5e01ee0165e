import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import pino, { type Logger } from 'pino';
import { adminDist } from './admin-files';
import { createApp } from './app';
import { adminAssets } from './http/admin-assets';
import { originForm } from './http/protections';
import { expressServer } from './http/server';
import { restApi } from './rest/api';
import { utilsRoutes } from './rest/routes/utils.routes';
import type { Config } from './config';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './database/embedded-postgres';
import { migrate, openDatabase } from './orm';
import { setTokenEncryptionKey } from './database/token-cipher';
import { JobQueue, jobQueueOptions } from './queue/queue';
import { createApolloServer } from './graphql/server';
import { compiledExecution } from './graphql/compiled-executor';
import { graphqlSchema } from './graphql/schema';
import { resolvers } from './resolvers';
import { restRoutes } from './routes';
import { createServices, type Services } from './services';

/** How long a client may take to send a request's headers (ms). */
const HEADERS_TIMEOUT_MS = 10_000;

export interface Gateway {
  url: string;
  orm: MikroORM;
  services: Services;
  log: Logger;
  /** Stops accepting, lets in-flight requests finish, closes connections and the embedded database. */
  close(): Promise<void>;
}

export function createLogger(config: Config, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'],
        censor: '[redacted]',
      },
    },
    // Standard output written asynchronously: lines logged while a write is under way go out together in the
    // next one, instead of one blocking write per request. Pending lines are flushed when the process exits.
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

export async function startGateway(config: Config, log: Logger = createLogger(config)): Promise<Gateway> {
  setTokenEncryptionKey(config.TOKEN_ENCRYPTION_KEY);
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(config.EMBEDDED_PG_DIR, config.EMBEDDED_PG_PORT, log);
    databaseUrl = embedded.url;
  }
  let orm: MikroORM | undefined;
  let jobs: JobQueue | undefined;
  try {
    orm = await openDatabase(databaseUrl, config.DATABASE_POOL_MAX, config.DATABASE_STATEMENT_TIMEOUT_MS);
    const applied = await migrate(orm);
    if (applied.length) log.info({ migrations: applied }, 'migrations applied');
    jobs = new JobQueue(jobQueueOptions(config, databaseUrl, config.RUN_WORKERS), log);
    const services = createServices(orm, config, log, jobs);
    if (await services.users.ensureSuperuser(config.FIRST_SUPERUSER, config.FIRST_SUPERUSER_PASSWORD)) {
      log.info({ email: config.FIRST_SUPERUSER }, 'first superuser created');
    }
    // pg-boss installs or upgrades its schema here; with RUN_WORKERS this process also keeps the schedules and works
    // the queued jobs (mail, synchronisation, orders).
    await jobs.start(services.queues);
    const execution = compiledExecution(graphqlSchema(resolvers()), config.GRAPHQL_COMPILED_OPERATIONS);
    const apollo = createApolloServer(config, log, execution);
    await apollo.start();
    const db = orm;
    const rest = restApi(
      [...restRoutes(services), ...utilsRoutes(() => db.em.getConnection().execute('select 1'))],
      services.auth,
      { document: config.PUBLIC_API_DOCS },
    );
    const assets = adminAssets(path.join(adminDist, 'assets'), config.ADMIN_FILE_CACHE_BYTES);
    // prom-client is loaded only for a gateway that serves /metrics: the others keep its memory.
    const metrics = config.METRICS_TOKEN
      ? new (await import('./metrics/gateway-metrics.js')).GatewayMetrics(
          (statement) => db.em.getConnection().execute(statement),
          log,
        )
      : undefined;
    const app = createApp({ config, log, services, apollo, rest, assets, metrics });
    const server = expressServer(
      app,
      // Node checks for stalled requests every 30 s by default: a client sending headers slowly would hold a
      // connection for up to that long past the timeout.
      {
        requestTimeout: config.REQUEST_TIMEOUT_MS,
        // A client has this long to send its headers (Node's default is a minute): a connection sending them a
        // byte at a time holds one of MAX_CONNECTIONS meanwhile.
        headersTimeout: Math.min(HEADERS_TIMEOUT_MS, config.REQUEST_TIMEOUT_MS),
        connectionsCheckingInterval: 1000,
      },
      (req, res) => {
        // Routed, logged and rate-limited by its path alone, whichever form the target came in.
        req.url = originForm(req.url ?? '/');
        app(req, res);
      },
    );
    server.keepAliveTimeout = 5000;
    server.maxConnections = config.MAX_CONNECTIONS;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.PORT, config.HOST, resolve);
    });
    const { port } = server.address() as AddressInfo;
    const url = `http://localhost:${port}`;
    log.info({ url }, 'gateway listening');
    const queue = jobs;
    let closing: Promise<void> | undefined;
    return {
      url,
      orm: db,
      services,
      log,
      close: () =>
        (closing ??= (async () => {
          const closed = new Promise<void>((resolve) => server.close(() => resolve()));
          server.closeIdleConnections();
          const force = setTimeout(() => server.closeAllConnections(), 10_000);
          await closed;
          clearTimeout(force);
          await apollo.stop();
          // Mail being sent finishes first; queued mail stays in the database for the next worker.
          await queue.stop();
          services.mailer.close();
          await db.close(true);
          await embedded?.stop();
          log.info('gateway stopped');
        })()),
    };
  } catch (error) {
    await jobs?.stop();
    await orm?.close(true);
    await embedded?.stop();
    throw error;
  }
}
