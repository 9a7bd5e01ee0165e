import 'reflect-metadata';
import { Migrator } from '@mikro-orm/migrations';
import { loadMigrations } from '../migrations';
import { loadConfig } from './config';
import { ormOptions } from './orm';
import { setTokenEncryptionKey } from './database/token-cipher';

// Used by the MikroORM CLI (`npm run migration:create`). It needs DATABASE_URL: the schema diff runs against a real server.
const config = loadConfig();
setTokenEncryptionKey(config.TOKEN_ENCRYPTION_KEY);
if (!config.DATABASE_URL) throw new Error('Set DATABASE_URL to run the MikroORM CLI');
const databaseUrl = config.DATABASE_URL;
export default async () => {
  const options = ormOptions(databaseUrl);
  return {
    ...options,
    extensions: [Migrator],
    migrations: { ...options.migrations, migrationsList: await loadMigrations() },
  };
};
