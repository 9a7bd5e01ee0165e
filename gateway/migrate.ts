import { loadConfig } from './config';
import { startEmbeddedPostgres } from './database/embedded-postgres';
import { migrate, openDatabase } from './orm';
import { setTokenEncryptionKey } from './database/token-cipher';
import { createLogger } from './gateway';
import { installJobSchema } from './queue/queue';

/**
 * `npm run migrate`: applies the committed migrations to DATABASE_URL (or to the embedded database) and installs or
 * upgrades the job queue's schema, as the gateway does when it starts.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config);
  setTokenEncryptionKey(config.TOKEN_ENCRYPTION_KEY);
  const embedded = config.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres(config.EMBEDDED_PG_DIR, config.EMBEDDED_PG_PORT, log);
  const orm = await openDatabase(config.DATABASE_URL ?? embedded!.url);
  try {
    const applied = await migrate(orm);
    log.info({ migrations: applied }, applied.length ? 'migrations applied' : 'the database is up to date');
    // The job queue's own tables (schema `pgboss`), which pg-boss creates and upgrades itself.
    await installJobSchema(config.DATABASE_URL ?? embedded!.url);
    log.info('job queue schema ready');
  } finally {
    await orm.close(true);
    await embedded?.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
