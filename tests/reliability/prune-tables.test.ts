import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrate, openDatabase } from '../../gateway/orm';
import { setTokenEncryptionKey } from '../../gateway/database/token-cipher';
import { createTestDatabase, sql } from '../support/database';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { recordFigures } from './support/figures';

/**
 * Expired rate-limit counters and old authorization codes go on a schedule (a pg-boss cron job), so these tables do
 * not grow forever. The rows are in place before the gateway starts, and its schedule runs every minute, checked
 * every second: the first run removes the old rows and leaves the fresh ones.
 */
let database: { url: string; drop(): Promise<void> };
let t: TestGateway;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  setTokenEncryptionKey(Buffer.alloc(32, 3).toString('base64'));
  database = await createTestDatabase(inject('postgresUrl'));
  const orm = await openDatabase(database.url);
  await migrate(orm);
  await orm.close(true);
  const now = Date.now();
  // rate-limiter-flexible's rows: `expire` in epoch milliseconds, null for a counter that never expires.
  for (const [key, expire] of [
    ['login:expired-long-ago', now - DAY],
    ['login:expired-just-now', now - 1000],
    ['login:still-counting', now + HOUR],
    ['login:never-expires', null],
  ] as const) {
    await sql(database.url, 'insert into rate_limits (key, points, expire) values ($1, 3, $2)', [key, expire]);
  }
  for (const [hash, ageDays] of [
    ['a'.repeat(64), 45],
    ['b'.repeat(64), 11],
    ['c'.repeat(64), 9],
    ['d'.repeat(64), 0],
  ] as const) {
    await sql(
      database.url,
      `insert into authorization_codes (code_hash, status, answer, created_at)
       values ($1, 200, '{}', now() - make_interval(days => $2))`,
      [hash, ageDays],
    );
  }
  // History: a client's sync runs and the webhooks of its store, old and young, finished or still waiting.
  const [client] = await sql<{ id: string }>(
    database.url,
    `insert into clients (id, url, nuvemshop_store_id) values (gen_random_uuid(), 'https://loja.example', 77)
     returning id`,
  );
  for (const [name, ageDays, state] of [
    ['old-finished', 100, 'succeeded'],
    ['old-failed', 95, 'failed'],
    ['young', 10, 'succeeded'],
    ['old-but-running', 100, 'running'],
  ] as const) {
    await sql(
      database.url,
      `insert into sync_runs (id, client_id, kind, trigger, state, queued_at, started_at, finished_at, errors, created_at)
       values (gen_random_uuid(), $1, 'stock', 'schedule', $2, now() - make_interval(days => $3),
         now() - make_interval(days => $3), case when $2 = 'running' then null else now() - make_interval(days => $3) end,
         $4, now() - make_interval(days => $3))`,
      [client.id, state, ageDays, JSON.stringify([{ name }])],
    );
  }
  // Stock movements written to its store, old and young.
  for (const [sku, ageDays] of [
    ['old', 91],
    ['young', 89],
  ] as const) {
    await sql(
      database.url,
      `insert into stock_movements (id, client_id, sku, value, previous, reason, created_at, updated_at)
       values (gen_random_uuid(), $1, $2, 3, 5, 'hiper', now() - make_interval(days => $3), now())`,
      [client.id, sku, ageDays],
    );
  }
  for (const [key, ageDays, outcome] of [
    ['old-handled', 100, 'handled'],
    ['old-unsigned', 91, 'unsigned'],
    ['old-waiting', 100, 'recorded'],
    ['young', 5, 'ignored'],
  ] as const) {
    await sql(
      database.url,
      `insert into webhook_events (id, event, store_id, received_at, outcome, signed, delivery_key)
       values (gen_random_uuid(), 'app/resumed', 77, now() - make_interval(days => $1), $2, $2 <> 'unsigned', $3)`,
      [ageDays, outcome, key],
    );
  }
  // A store's days of signed webhooks, old and young; signed bodies seen, past their 5-minute window and within it.
  for (const ageDays of [100, 5]) {
    await sql(
      database.url,
      `insert into webhook_days (id, store_id, day, recorded, dropped)
       values (gen_random_uuid(), 77, current_date - $1::int, 3, $1)`,
      [ageDays],
    );
  }
  for (const [hash, ageSeconds] of [
    ['e'.repeat(64), 600],
    ['f'.repeat(64), 60],
  ] as const) {
    await sql(
      database.url,
      `insert into webhook_deliveries (body_hash, seen_at) values ($1, now() - make_interval(secs => $2))`,
      [hash, ageSeconds],
    );
  }
  // The audit log: events past AUDIT_RETENTION_DAYS (30 here) and within it.
  for (const [record, ageDays] of [
    ['audit-old', 31],
    ['audit-young', 29],
  ] as const) {
    await sql(
      database.url,
      `insert into audit_events (id, created_at, user_email, action, resource, record_id, changes)
       values (gen_random_uuid(), now() - make_interval(days => $2), 'admin@example.com', 'update', 'Client', $1, '{}')`,
      [record, ageDays],
    );
  }
  t = await startTestGateway({
    HISTORY_RETENTION_DAYS: '90',
    AUDIT_RETENTION_DAYS: '30',
    DATABASE_URL: database.url,
    MAINTENANCE_CRON: '* * * * *',
    JOBS_CRON_CHECK_SECONDS: '1',
    AUTHORIZATION_CODE_RETENTION_DAYS: '10',
  });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

describe('the prune-tables schedule', () => {
  it('is registered with pg-boss with the configured cron', async () => {
    const schedules = await t.sql("select name, cron, timezone from pgboss.schedule where name = 'prune-tables'");
    expect(schedules).toEqual([{ name: 'prune-tables', cron: '* * * * *', timezone: 'UTC' }]);
  });

  it('removes expired rate-limit rows, codes and history past their retention, and keeps the rest', async () => {
    const runs = () =>
      t.sql<{ output: Record<string, number> }>(
        `select output from pgboss.job where name = 'prune-tables' and state = 'completed'`,
      );
    await expect.poll(async () => (await runs()).length, { timeout: 20_000, interval: 250 }).toBeGreaterThan(0);
    const [first] = await runs();
    expect(first.output).toEqual({
      rateLimits: 2,
      authorizationCodes: 2,
      webhookEvents: 2,
      webhookDays: 1,
      webhookDeliveries: 1,
      syncRuns: 2,
      stockMovements: 1,
      auditEvents: 1,
    });
    const auditLeft = await t.sql<{ record_id: string }>('select record_id from audit_events');
    expect(auditLeft).toEqual([{ record_id: 'audit-young' }]);
    const movements = await t.sql<{ sku: string }>('select sku from stock_movements');
    expect(movements.map((r) => r.sku)).toEqual(['young']);

    const keys = await t.sql<{ key: string }>('select key from rate_limits order by key');
    expect(keys.map((r) => r.key)).toEqual(['login:never-expires', 'login:still-counting']);
    const codes = await t.sql<{ code_hash: string }>('select code_hash from authorization_codes order by code_hash');
    expect(codes.map((r) => r.code_hash)).toEqual(['c'.repeat(64), 'd'.repeat(64)]);
    const runsLeft = await t.sql<{ name: string }>(`select errors->0->>'name' as name from sync_runs order by 1`);
    expect(runsLeft.map((r) => r.name)).toEqual(['old-but-running', 'young']);
    const eventsLeft = await t.sql<{ delivery_key: string }>(`select delivery_key from webhook_events order by 1`);
    expect(eventsLeft.map((r) => r.delivery_key)).toEqual(['old-waiting', 'young']);
    const daysLeft = await t.sql<{ dropped: number }>(`select dropped from webhook_days`);
    expect(daysLeft).toEqual([{ dropped: 5 }]);
    const bodiesLeft = await t.sql<{ body_hash: string }>(`select body_hash from webhook_deliveries`);
    expect(bodiesLeft).toEqual([{ body_hash: 'f'.repeat(64) }]);
    recordFigures('prune-tables', {
      securityPruned: `first scheduled run removed ${first.output.rateLimits} of 2 expired rate-limit rows and ${first.output.authorizationCodes} of 2 codes past a 10-day retention, and ${first.output.webhookEvents} webhooks and ${first.output.syncRuns} sync runs past 90 days; fresh rows, running runs and waiting webhooks kept`,
    });
  });
});
