import { readdirSync } from 'node:fs';
import path from 'node:path';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { compiled, projectRoot } from './paths';
import { entities } from './entities';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from './config';
import { PostgreSqlReadsDriver } from './database/reads-driver';

// Compiled runs read dist/migrations/*.js; TypeScript runs (tests, the CLI) read migrations/*.ts.
const root = projectRoot;

/** Where the committed migrations are, for this run (compiled JavaScript or the TypeScript sources). */
const migrationsDirectory = path.join(root, compiled ? 'dist/migrations' : 'migrations');

/**
 * `statementTimeoutMs` bounds every statement on the pool's connections (requests and workers alike): PostgreSQL
 * cancels one that runs longer, so a costly query frees its connection instead of starving other callers.
 */
export function ormOptions(
  databaseUrl: string,
  poolMax = 10,
  statementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS,
): Options {
  return {
    driver: PostgreSqlReadsDriver,
    clientUrl: databaseUrl,
    entities: entities(),
    discovery: { requireEntitiesArray: true },
    pool: { min: 0, max: poolMax, acquireTimeoutMillis: 5000 },
    driverOptions: { connection: { connectionTimeoutMillis: 5000, statement_timeout: statementTimeoutMs } },
    migrations: {
      tableName: 'mikro_orm_migrations',
      path: migrationsDirectory,
      pathTs: path.join(root, 'migrations'),
      glob: compiled ? '!(*.d|index).js' : '!(index).ts',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      emit: 'ts',
      fileName: (timestamp: string) => `Migration${timestamp}`,
      silent: true,
    },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: false,
  };
}

export async function openDatabase(
  databaseUrl: string,
  poolMax?: number,
  statementTimeoutMs?: number,
): Promise<MikroORM> {
  return MikroORM.init(ormOptions(databaseUrl, poolMax, statementTimeoutMs));
}

/** The committed migrations' names, from their files (`Migration<timestamp>`), without loading them. */
function committedMigrations(): string[] {
  return readdirSync(migrationsDirectory)
    .map((file) => /^(Migration\d+)\.(js|ts)$/.exec(file)?.[1])
    .filter((name): name is string => name !== undefined);
}

/**
 * Whether any committed migration is not yet applied, asked of the migrations table directly: the migrations and the
 * migrator (@mikro-orm/migrations, with umzug and its command-line parser) load only when there is work for them, so
 * a gateway started on an up-to-date database never holds them in memory.
 */
async function hasPendingMigrations(orm: MikroORM): Promise<boolean> {
  const connection = orm.em.getConnection();
  const table = orm.config.get('migrations').tableName ?? 'mikro_orm_migrations';
  const [found] = await connection.execute<{ present: boolean }[]>('select to_regclass(?) is not null as present', [
    table,
  ]);
  if (!found?.present) return true;
  const rows = await connection.execute<{ name: string }[]>(`select name from "${table}"`);
  const applied = new Set(rows.map((row) => row.name.replace(/\.[jt]s$/, '')));
  return committedMigrations().some((name) => !applied.has(name));
}

/**
 * Hands the committed migrations (found by migrations/index.ts; they load @mikro-orm/migrations) to MikroORM's migrator;
 * MikroORM loads the migrator itself on first use.
 */
export async function useMigrations(orm: MikroORM): Promise<void> {
  const { loadMigrations } = await import('../migrations/index.js');
  orm.config.set('migrations', { ...orm.config.get('migrations'), migrationsList: await loadMigrations() });
}

/** Applies the pending migrations; the names of those applied. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  if (!(await hasPendingMigrations(orm))) return [];
  await useMigrations(orm);
  const applied = await orm.getMigrator().up();
  return applied.map((m) => m.name);
}
