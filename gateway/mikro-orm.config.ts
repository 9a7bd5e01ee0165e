import 'reflect-metadata';
import { loadConfig } from './config';
import { ormOptions } from './orm';
import { setTokenEncryptionKey } from './database/token-cipher';

// Used by the MikroORM CLI (`npm run migration:create`). It needs DATABASE_URL: the schema diff runs against a real server.
const config = loadConfig();
setTokenEncryptionKey(config.TOKEN_ENCRYPTION_KEY);
if (!config.DATABASE_URL) throw new Error('Set DATABASE_URL to run the MikroORM CLI');
export default ormOptions(config.DATABASE_URL);
