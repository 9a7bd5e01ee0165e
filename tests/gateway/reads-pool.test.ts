import { describe, expect, it } from 'vitest';
import { PlainRows } from '../../gateway/database/plain-rows';
import { openDatabase } from '../../gateway/orm';
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
