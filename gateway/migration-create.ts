import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from './config';
import { processDatabase } from './database/embedded-postgres';
import { setTokenEncryptionKey } from './database/token-cipher';
import { createLogger } from './gateway';
import { migrate, openDatabase, useMigrations } from './orm';
import { projectRoot } from './paths';

/**
 * `npm run migration:create`: the migration from the committed ones to the declarations, as a formatted file in
 * migrations/. The difference is worked out against DATABASE_URL, or, when it is unset, against the embedded
 * PostgreSQL `npm start` uses (the running one, or started here and stopped after), with the committed migrations applied first: one
 * command, and nothing in the shell to set or undo.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config);
  setTokenEncryptionKey(config.TOKEN_ENCRYPTION_KEY);
  // The embedded database `npm start` may already be running: used as it is, else started here.
  const { url, embedded } = await processDatabase(config, log);
  const orm = await openDatabase(url);
  try {
    await migrate(orm);
    await useMigrations(orm);
    // Written among the TypeScript sources (migrations/), which the next build compiles.
    orm.config.set('migrations', { ...orm.config.get('migrations'), path: path.join(projectRoot, 'migrations') });
    const created = await orm.getMigrator().createMigration();
    if (!created.fileName) {
      console.log('No changes: the declarations match the migrations.');
      return;
    }
    const file = path.join(projectRoot, 'migrations', path.basename(created.fileName));
    execFileSync(process.execPath, [
      require.resolve('prettier/bin/prettier.cjs'),
      '--write',
      '--log-level',
      'warn',
      file,
    ]);
    console.log(`Created ${path.relative(process.cwd(), file)}`);
  } finally {
    await orm.close(true);
    await embedded?.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
