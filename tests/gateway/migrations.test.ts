import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { migrate, openDatabase } from '../../gateway/orm';
import { setTokenEncryptionKey } from '../../gateway/database/token-cipher';
import { createTestDatabase } from '../support/database';

let orm: MikroORM;
let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  setTokenEncryptionKey(Buffer.alloc(32, 1).toString('base64'));
  database = await createTestDatabase(inject('postgresUrl'));
  orm = await openDatabase(database.url);
});
afterAll(async () => {
  await orm?.close(true);
  await database?.drop();
});

describe('migrations', () => {
  it('build exactly the schema the entities describe', async () => {
    const applied = await migrate(orm);
    expect(applied.length).toBeGreaterThan(0);
    const drift = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true });
    expect(drift.trim(), `entities and migrations disagree; run npm run migration:create\n${drift}`).toBe('');
  });

  it('are applied once: a second run changes nothing', async () => {
    expect(await migrate(orm)).toEqual([]);
  });

  it('can be rolled back and applied again', async () => {
    await orm.getMigrator().down({ to: 0 });
    expect(await orm.getMigrator().getExecutedMigrations()).toEqual([]);
    await migrate(orm);
    const drift = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true });
    expect(drift.trim()).toBe('');
  });
});
