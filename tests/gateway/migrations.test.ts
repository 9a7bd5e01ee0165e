import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { migrate, openDatabase, useMigrations } from '../../gateway/orm';
import { setTokenEncryptionKey } from '../../gateway/database/token-cipher';
import { createTestDatabase } from '../support/database';
import { clientResource } from '../../gateway/clients/client.resource';
import { itemResource } from '../../gateway/items/item.resource';
import { userResource } from '../../gateway/users/user.resource';

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

  it('give every searchable field a trigram index, which `q` (ilike anywhere in the text) can use', async () => {
    const searched = [
      ['Client', clientResource.searched],
      ['Item', itemResource.searched],
      ['User', userResource.searched],
    ] as const;
    const missing: string[] = [];
    for (const [entity, props] of searched) {
      const meta = orm.getMetadata().get(entity);
      for (const prop of props) {
        const column = meta.properties[prop as keyof typeof meta.properties].fieldNames[0];
        const indexes = await orm.em
          .getConnection()
          .execute<{ indexdef: string }[]>('select indexdef from pg_indexes where tablename = ?', [meta.tableName]);
        const trigram = new RegExp(`USING gin \\("?${column}"? gin_trgm_ops\\)`);
        if (!indexes.some((i) => trigram.test(i.indexdef))) missing.push(`${meta.tableName}.${column}`);
      }
    }
    expect(searched.flatMap(([, props]) => props)).toHaveLength(4);
    expect(missing).toEqual([]);
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

describe('the search indexes', () => {
  it('are built on a large table however long that takes, past the statement timeout of requests', async () => {
    const large = await createTestDatabase(inject('postgresUrl'));
    const before = await openDatabase(large.url);
    try {
      await useMigrations(before);
      await before.getMigrator().up({ to: 'Migration20261126070000' });
      await before.em.getConnection().execute(
        `insert into clients (id, url) select gen_random_uuid(), 'https://store-' || lpad(g::text, 7, '0') || '.example'
         from generate_series(1, 100000) g`,
      );
    } finally {
      await before.close(true);
    }
    // Indexing 100,000 URLs takes about a second: far longer than this timeout.
    const bounded = await openDatabase(large.url, 2, 300);
    try {
      expect(await migrate(bounded)).toEqual(
        expect.arrayContaining(['Migration20261127003947', 'Migration20261127010000']),
      );
      const [after] = await bounded.em.getConnection().execute('show statement_timeout');
      expect(after).toEqual({ statement_timeout: '300ms' });
    } finally {
      await bounded.close(true);
      await large.drop();
    }
  });
});

describe('the payment map as an object', () => {
  it('keeps each client’s JSON text as the object it holds, and turns text that is no JSON object into null', async () => {
    const old = await createTestDatabase(inject('postgresUrl'));
    const before = await openDatabase(old.url);
    try {
      await useMigrations(before);
      await before.getMigrator().up({ to: 'Migration20261201213431' });
      const stored = {
        'https://objeto.example': '{"credit_card": 4, "pix": 12}',
        'https://vazio.example': '',
        'https://quebrado.example': '{"pix": 12',
        'https://lista.example': '[["pix", 12]]',
        'https://nada.example': null,
      };
      for (const [url, text] of Object.entries(stored))
        await before.em
          .getConnection()
          .execute(`insert into clients (id, url, orders_payment_ids) values (gen_random_uuid(), ?, ?)`, [url, text]);
      await migrate(before);
      const rows = await before.em
        .getConnection()
        .execute<{ url: string; orders_payment_ids: unknown; type: string }[]>(
          `select url, orders_payment_ids, pg_typeof(orders_payment_ids)::text as type from clients order by url`,
        );
      expect(rows.map((r) => [r.url, r.orders_payment_ids])).toEqual([
        ['https://lista.example', null],
        ['https://nada.example', null],
        ['https://objeto.example', { credit_card: 4, pix: 12 }],
        ['https://quebrado.example', null],
        ['https://vazio.example', null],
      ]);
      expect(rows[0].type).toBe('jsonb');
      // Back, the object is JSON text again.
      await before.getMigrator().down({ to: 'Migration20261201213431' });
      const [back] = await before.em
        .getConnection()
        .execute<{ orders_payment_ids: string }[]>(
          `select orders_payment_ids from clients where url = 'https://objeto.example'`,
        );
      expect(JSON.parse(back.orders_payment_ids)).toEqual({ credit_card: 4, pix: 12 });
    } finally {
      await before.close(true);
      await old.drop();
    }
  });
});
