import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { QueueDefinition } from '../queue/queue';
import { DELIVERY_WINDOW_SECONDS } from '../webhooks/delivery-bounds';

// Rows are deleted a batch at a time, so a table grown large (an attack's worth of rate-limit keys) is pruned
// without one long statement holding locks or running into the statement timeout.
const BATCH = 5_000;

/**
 * The `prune-tables` queue, sent on MAINTENANCE_CRON: deletes rate-limit counters whose window is over (they would
 * be reset on their next use anyway), exchanged authorization codes older than AUTHORIZATION_CODE_RETENTION_DAYS
 * (a code is spent within minutes; its stored answer only serves a browser posting it twice), and history older than
 * HISTORY_RETENTION_DAYS: webhooks received (not one still waiting for its job), the stores' days of them, finished
 * sync runs and the stock movements written, and the audit log older than AUDIT_RETENTION_DAYS. Signed bodies seen go once their delivery window is over. Finished jobs are pg-boss's own to delete,
 * after the same number of days (gateway/queue/queue.ts).
 */
export function pruneQueue({
  orm,
  config,
  log,
}: {
  orm: MikroORM;
  config: Config;
  log: Logger;
}): QueueDefinition<'prune-tables'> {
  const deleteInBatches = async (table: string, key: string, condition: string, values: unknown[]) => {
    const connection = orm.em.getConnection();
    let total = 0;
    for (;;) {
      const result = await connection.execute<{ affectedRows: number }>(
        `delete from "${table}" where "${key}" in (select "${key}" from "${table}" where ${condition} limit ${BATCH})`,
        values,
        'run',
      );
      total += result.affectedRows;
      if (result.affectedRows < BATCH) return total;
    }
  };

  return {
    name: 'prune-tables',
    options: { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 600 },
    concurrency: 1,
    schedule: config.MAINTENANCE_CRON,
    handle: async () => {
      // rate-limiter-flexible keeps `expire` in epoch milliseconds; a counter without one never expires.
      const rateLimits = await deleteInBatches(
        'rate_limits',
        'key',
        'expire is not null and expire < extract(epoch from now()) * 1000',
        [],
      );
      const authorizationCodes = await deleteInBatches(
        'authorization_codes',
        'code_hash',
        `created_at < now() - make_interval(days => ?)`,
        [config.AUTHORIZATION_CODE_RETENTION_DAYS],
      );
      const webhookEvents = await deleteInBatches(
        'webhook_events',
        'id',
        `received_at < now() - make_interval(days => ?) and outcome <> 'recorded'`,
        [config.HISTORY_RETENTION_DAYS],
      );
      const webhookDays = await deleteInBatches(
        'webhook_days',
        'id',
        `day < (now() at time zone 'UTC')::date - ?::int`,
        [config.HISTORY_RETENTION_DAYS],
      );
      const webhookDeliveries = await deleteInBatches(
        'webhook_deliveries',
        'body_hash',
        `seen_at < now() - make_interval(secs => ?)`,
        [DELIVERY_WINDOW_SECONDS],
      );
      const syncRuns = await deleteInBatches(
        'sync_runs',
        'id',
        `finished_at < now() - make_interval(days => ?) and state not in ('queued', 'running')`,
        [config.HISTORY_RETENTION_DAYS],
      );
      const stockMovements = await deleteInBatches(
        'stock_movements',
        'id',
        `created_at < now() - make_interval(days => ?)`,
        [config.HISTORY_RETENTION_DAYS],
      );
      const auditEvents = await deleteInBatches('audit_events', 'id', `created_at < now() - make_interval(days => ?)`, [
        config.AUDIT_RETENTION_DAYS,
      ]);
      const pruned = {
        rateLimits,
        authorizationCodes,
        webhookEvents,
        webhookDays,
        webhookDeliveries,
        syncRuns,
        stockMovements,
        auditEvents,
      };
      log.info(pruned, 'old rows pruned');
      return pruned;
    },
  };
}
