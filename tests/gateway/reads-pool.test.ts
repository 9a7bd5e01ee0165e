import { describe, expect, it } from 'vitest';
import { MikroORM } from '@mikro-orm/postgresql';
import { PlainRows } from '../../gateway/database/plain-rows';
import { readsPoolConfig } from '../../gateway/database/reads-driver';
import { openDatabase, ormOptions } from '../../gateway/orm';
import { clientResource } from '../../gateway/clients/client.resource';
import { entityFor } from '../../gateway/kit/entity';
import { syncRunResource } from '../../gateway/sync/sync-run.resource';
import { migratedDatabase, sql } from '../support/database';

/** The reads' pool (gateway/database/reads-driver.ts): pg's own pool, made as the ORM's connections are. */
describe("the plain reads' pool", () => {
  const db = migratedDatabase(3, 4000);
  const name = () => new URL(db.database.url).pathname.slice(1);
  /** This database's connections other than the one asking, by the statement each last ran. */
  const connections = () =>
    sql<{ query: string }>(
      db.database.url,
      'select query from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name()],
    );

  it("is made from the settings the ORM's own connections are made from: address, password, timeouts, types", async () => {
    // The ORM (knex) keeps what it made its connections from on its client; the reads' pool is made from the ORM's
    // public configuration. An upgrade that makes the ORM's connections otherwise is seen here.
    const url = new URL(db.database.url);
    url.username = 'reader';
    url.password = 'p@ss word';
    const orm = await MikroORM.init({ ...ormOptions(url.href, 7, 1234), connect: false });
    try {
      const connection = orm.em.getConnection();
      const made = (connection.getKnex().client as { connectionSettings: Record<string, unknown> }).connectionSettings;
      const config = readsPoolConfig(connection, orm.config);
      for (const key of new Set([...Object.keys(made), 'password']))
        if (key !== 'types') expect([key, config[key as keyof typeof config]]).toEqual([key, made[key]]);
      // The type parsers: each made anew, so compared by what they make of a value of every type that has one.
      type Parsers = { getTypeParser(oid: number, format: 'text'): (value: string) => unknown };
      const samples: [number, string][] = [
        [16, 't'],
        [20, '12'],
        [23, '1'],
        [114, '{"a":1}'],
        [701, '1.5'],
        [1082, '2026-11-29'],
        [1114, '2026-11-29 12:00:00'],
        [1115, '{"2026-11-29 12:00:00"}'],
        [1182, '{2026-11-29}'],
        [1184, '2026-11-29 12:00:00+00'],
        [1185, '{"2026-11-29 12:00:00+00"}'],
        [1186, '1 day'],
        [1187, '{"1 day"}'],
        [1700, '1.5'],
        [3802, '{"a":1}'],
      ];
      const parsed = (types: unknown) =>
        samples.map(([oid, text]) => [oid, (types as Parsers).getTypeParser(oid, 'text')(text)]);
      expect(parsed(config.types)).toEqual(parsed(made.types));
      expect(config).toMatchObject({
        user: 'reader',
        password: 'p@ss word',
        statement_timeout: 1234,
        connectionTimeoutMillis: 5000,
        max: 7,
      });
    } finally {
      await orm.close(true);
    }
  });

  it("times statements out and reads values as the ORM's connections do", async () => {
    const rows = new PlainRows(db.orm);
    const text = "select current_setting('statement_timeout') as timeout, timestamptz '2026-11-29 12:00:00+00' as at";
    const [ours] = await rows.query(text, []);
    const [theirs] = await db.orm.em.getConnection().execute(text);
    expect(ours).toEqual(theirs);
    expect(ours).toEqual({ timeout: '4s', at: '2026-11-29 12:00:00+00' });
  });

  it("reads dates as the ORM's connections do, as text its converters turn into dates", async () => {
    const rows = new PlainRows(db.orm);
    const [row] = await rows.query("select timestamptz '2026-11-29 12:00:00+00' as at, date '2026-11-29' as day", []);
    expect(typeof row?.at).toBe('string');
    expect(row?.day).toBe('2026-11-29');
  });

  it("holds no more connections than the ORM's pool, however many reads wait", async () => {
    const rows = new PlainRows(db.orm);
    let most = 0;
    const reads = Promise.all(
      Array.from({ length: 8 }, (_, i) => rows.query(`select pg_sleep(0.15), ${i} as reading`, [])),
    );
    const watching = (async () => {
      for (let i = 0; i < 10; i++) {
        const sleeping = (await connections()).filter((c) => c.query.includes('pg_sleep(0.15)'));
        most = Math.max(most, sleeping.length);
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
    })();
    const answers = await reads;
    await watching;
    expect(answers.map(([row]) => row?.reading)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('survives its idle connections being ended by the server, and the next read opens another', async () => {
    const rows = new PlainRows(db.orm);
    await rows.query('select 1', []);
    const ended = await sql<{ ended: boolean }>(
      db.database.url,
      'select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name()],
    );
    expect(ended.length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [row] = await rows.query('select 2 as again', []);
    expect(row?.again).toBe(2);
  });

  it('closes with the ORM, and opens again when the ORM is opened again', async () => {
    const other = await openDatabase(db.database.url, 2, 4000);
    const rows = new PlainRows(other);
    await rows.query("select 'before closing' as marker", []);
    expect((await connections()).some((c) => c.query.includes('before closing'))).toBe(true);
    await other.close(true);
    expect((await connections()).some((c) => c.query.includes('before closing'))).toBe(false);
    await other.connect();
    try {
      const [row] = await rows.query("select 'after opening' as marker", []);
      expect(row?.marker).toBe('after opening');
    } finally {
      await other.close(true);
    }
  });
});

/** Plain rows (gateway/database/plain-rows.ts) turn a row into the ORM's values with the ORM's own converters. */
describe('a plain read', () => {
  const db = migratedDatabase(2, 4000);

  it('holds what the ORM reads of every declared entity: dates, encrypted text, references, numbers, JSON', async () => {
    const client = entityFor(clientResource);
    const run = entityFor(syncRunResource);
    const em = db.orm.em.fork();
    const created = em.create(client, {
      url: 'https://plain.example',
      nuvemshopStoreId: 2 ** 40,
      hiperToken: 'hiper-secret-token',
      nuvemshopToken: 'store-secret-token',
      ordersPaymentIds: { pix: 12 },
      catalogueSyncedAt: new Date('2026-11-29T12:00:00.123Z'),
    });
    const queued = em.create(run, {
      client: created as { id: string },
      kind: 'catalogue',
      trigger: 'manual',
      queuedAt: new Date('2026-11-29T13:00:00Z'),
      errors: [{ code: 'internal', detail: 'a product' }],
    });
    await em.flush();
    const rows = new PlainRows(db.orm);
    for (const [entity, resource, id] of [
      [client, clientResource, created.id],
      [run, syncRunResource, queued.id],
    ] as const) {
      const props = resource.full.props as never[];
      const plain = (await rows.findOne(entity as never, props, id)) as Record<string, unknown>;
      const orm = (await db.orm.em.fork().findOneOrFail(entity as never, { id })) as Record<string, unknown>;
      for (const prop of resource.full.props) {
        const theirs = orm[prop];
        const expected = theirs && typeof theirs === 'object' && 'id' in theirs ? { id: theirs.id } : theirs;
        expect([prop, plain[prop]]).toEqual([prop, expected]);
      }
    }
  });
});
