import path from 'node:path';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';
import { compiled, projectRoot } from './paths';
import { migrationsList } from '../migrations';
import { entities } from './entities';

// Compiled runs read dist/migrations/*.js; TypeScript runs (tests, the CLI) read migrations/*.ts.
const root = projectRoot;

export function ormOptions(databaseUrl: string, poolMax = 10): Options {
  return {
    driver: PostgreSqlDriver,
    clientUrl: databaseUrl,
    entities,
    extensions: [Migrator],
    discovery: { requireEntitiesArray: true },
    pool: { min: 0, max: poolMax, acquireTimeoutMillis: 5000 },
    driverOptions: { connection: { connectionTimeoutMillis: 5000, statement_timeout: 15000 } },
    migrations: {
      tableName: 'mikro_orm_migrations',
      path: path.join(root, compiled ? 'dist/migrations' : 'migrations'),
      pathTs: path.join(root, 'migrations'),
      glob: compiled ? '!(*.d|index).js' : '!(index).ts',
      migrationsList,
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

export async function openDatabase(databaseUrl: string, poolMax?: number): Promise<MikroORM> {
  return MikroORM.init(ormOptions(databaseUrl, poolMax));
}

export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((m) => m.name);
}
