import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobQueue, JOBS_SCHEMA } from '../../gateway/queue/queue';
import { migratedDatabase, sql } from '../support/database';

/**
 * A job sent with a transaction's entity manager (gateway/queue/queue.ts): written on that transaction's own
 * connection, through knex's transaction client, so it exists only if the transaction commits.
 */
describe("a job sent in a transaction's entity manager", () => {
  const db = migratedDatabase(2, 4000);
  let queue: JobQueue;
  const jobs = (where = '') =>
    sql<{ id: string; delay: number }>(
      db.database.url,
      `select id, extract(epoch from start_after - created_on)::int as delay from ${JOBS_SCHEMA}.job
       where name = 'store-install' ${where}`,
    );

  beforeAll(async () => {
    queue = new JobQueue(
      {
        databaseUrl: db.database.url,
        poolMax: 2,
        pollingIntervalSeconds: 1,
        cronCheckSeconds: 30,
        maintenanceSeconds: 60,
        retentionDays: 1,
        work: false,
      },
      pino({ level: 'silent' }),
    );
    const options = { retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 60 };
    await queue.start([{ name: 'store-install', options, concurrency: 1, handle: async () => undefined }]);
  });
  afterAll(async () => {
    await queue?.stop();
  });

  it('is seen inside the transaction, not outside it, and is gone when it rolls back', async () => {
    const seen: { inside?: number; outside?: number } = {};
    const rolledBack = db.orm.em.fork().transactional(async (tx) => {
      await queue.send('store-install', { storeId: 1 }, { em: tx });
      const [inside] = await tx.execute<{ n: number }[]>(
        `select count(*)::int as n from ${JOBS_SCHEMA}.job where name = 'store-install'`,
      );
      seen.inside = inside?.n;
      seen.outside = (await jobs()).length;
      throw new Error('rolled back');
    });
    await expect(rolledBack).rejects.toThrow('rolled back');
    expect(seen).toEqual({ inside: 1, outside: 0 });
    expect(await jobs()).toEqual([]);
  });

  it('is kept when the transaction commits, with a start taken as pg-boss reads it (one parameter, two types)', async () => {
    await db.orm.em.fork().transactional(async (tx) => {
      await queue.send('store-install', { storeId: 2 }, { em: tx, startAfterSeconds: 90 });
      await queue.sendMany('store-install', [{ storeId: 3 }], { em: tx });
    });
    const kept = await jobs('order by start_after');
    expect(kept).toHaveLength(2);
    expect(kept[1]!.delay).toBeGreaterThanOrEqual(89);
  });
});
