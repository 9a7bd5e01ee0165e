import 'reflect-metadata';
import type { MikroORM } from '@mikro-orm/postgresql';
import { loadProcessConfig } from './config';
import { processDatabase, type EmbeddedDatabase } from './database/embedded-postgres';
import { migrate, openDatabase } from './orm';
import { setTokenEncryptionKey } from './database/token-cipher';
import { createLogger } from './gateway';
import { JobQueue, jobQueueOptions } from './queue/queue';
import { createServices } from './services';

/**
 * `npm run worker`: runs the job queue's workers (store synchronisation, mail, scheduled maintenance) without serving HTTP, beside any
 * number of gateways and other workers on the same database; each job runs in one process only.
 *
 * Without DATABASE_URL it uses the embedded PostgreSQL that `npm start` runs: the one already running on
 * EMBEDDED_PG_PORT, or, when nothing answers there, it starts it itself (which a gateway started later cannot share).
 */
async function main(): Promise<void> {
  const config = loadProcessConfig();
  const log = createLogger(config);
  setTokenEncryptionKey(config.TOKEN_ENCRYPTION_KEY);

  let embedded: EmbeddedDatabase | undefined;
  let orm: MikroORM | undefined;
  let jobs: JobQueue | undefined;
  const release = async () => {
    await jobs?.stop();
    await orm?.close(true);
    await embedded?.stop();
  };
  try {
    const database = await processDatabase(config, log);
    embedded = database.embedded;
    const databaseUrl = database.url;
    orm = await openDatabase(databaseUrl, config.DATABASE_POOL_MAX, config.DATABASE_STATEMENT_TIMEOUT_MS);
    const applied = await migrate(orm);
    if (applied.length) log.info({ migrations: applied }, 'migrations applied');
    jobs = new JobQueue(jobQueueOptions(config, databaseUrl, true), log);
    const services = createServices(orm, config, log, jobs);
    await jobs.start(services.queues);
    log.info({ queues: services.queues.map((q) => q.name) }, 'worker started');
  } catch (error) {
    await release();
    throw error;
  }

  const stop = (signal: string) => {
    log.info({ signal }, 'stopping');
    // Mail being sent is finished (up to the queue's timeout); what is still queued waits for the next worker.
    release().then(
      () => {
        log.info('worker stopped');
        process.exit(0);
      },
      (error) => {
        log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error) => {
  console.error('The worker could not start:', error instanceof Error ? error.message : String(error));
  process.exit(1);
});
