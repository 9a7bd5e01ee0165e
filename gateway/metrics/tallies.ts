import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import { JOBS_SCHEMA } from '../queue/queue';

/** One row a tally's statement answers: a column per label, and `count`. */
export type TallyRow = Record<string, unknown>;

/** Runs one read-only statement and answers its rows (the ORM's connection: gateway.ts). */
export type Sql = (statement: string) => Promise<TallyRow[]>;

/** A gauge counted by one grouped statement at each scrape. */
interface Tally {
  name: string;
  help: string;
  labelNames: readonly string[];
  statement: string;
}

/**
 * pg-boss's jobs by queue and state: queued (`created`, and `retry` waiting for its next attempt), active, and failed
 * (kept in the job table a week before pg-boss archives them: queue/queue.ts). Every queue of the product is listed
 * (pg-boss's own `__pgboss__` ones aside), its empty states as 0, so an alert on a queue's failures sees it from its
 * first.
 */
const JOBS: Tally = {
  name: 'jobs',
  help: 'Jobs in the queue, by queue and state (queued, active, failed)',
  labelNames: ['queue', 'state'],
  statement: `
    with counts as (
      select name, case when state in ('created', 'retry') then 'queued' else state::text end as state, count(*) as count
      from ${JOBS_SCHEMA}.job
      where state in ('created', 'retry', 'active', 'failed')
      group by 1, 2
    )
    select q.name as queue, s.state, coalesce(c.count, 0) as count
    from ${JOBS_SCHEMA}.queue q
    cross join (values ('queued'), ('active'), ('failed')) as s (state)
    left join counts c on c.name = q.name and c.state = s.state
    where not starts_with(q.name, '__pgboss__')`,
};

/** Synchronisation runs kept (HISTORY_RETENTION_DAYS), by kind and state: queued, running, or how they ended. */
const SYNC_RUNS: Tally = {
  name: 'sync_runs',
  help: 'Synchronisation runs kept, by kind and status (queued, running, succeeded, partial, failed)',
  labelNames: ['kind', 'status'],
  statement: 'select kind, state as status, count(*) as count from sync_runs group by 1, 2',
};

/** Store orders by state: sent to Hiper, waiting for a person, refused... */
const ORDERS: Tally = {
  name: 'orders',
  help: 'Store orders, by state',
  labelNames: ['state'],
  statement: 'select state, count(*) as count from orders group by 1',
};

/** Live clients by health (the Saúde screen's, as last worked out): an alert on `critical` above 0 pages someone. */
const CLIENT_HEALTH: Tally = {
  name: 'clients_health',
  help: 'Live clients by health as last worked out (ok, attention, critical)',
  labelNames: ['health'],
  statement: 'select health, count(*) as count from client_health group by 1',
};

export const TALLIES = [JOBS, SYNC_RUNS, ORDERS, CLIENT_HEALTH];

/**
 * Registers each tally as a gauge read when scraped. A label set seen once stays, as 0 when its rows are gone, so a
 * series does not vanish when the last failed run is pruned. A statement that fails is logged and its gauge left
 * without samples for that scrape: the rest of the scrape is answered.
 */
export function registerTallies(registry: Registry, sql: Sql, log: Logger): void {
  for (const tally of TALLIES) {
    const seen = new Map<string, Record<string, string>>();
    new Gauge({
      name: tally.name,
      help: tally.help,
      labelNames: tally.labelNames,
      registers: [registry],
      async collect() {
        let rows: TallyRow[];
        try {
          rows = await sql(tally.statement);
        } catch (error) {
          this.reset();
          log.warn(
            { metric: tally.name, err: { message: error instanceof Error ? error.message : String(error) } },
            'metrics: a count could not be read, and is left out of this scrape',
          );
          return;
        }
        this.reset();
        for (const labels of seen.values()) this.set(labels, 0);
        for (const row of rows) {
          const labels = Object.fromEntries(tally.labelNames.map((name) => [name, String(row[name])]));
          seen.set(JSON.stringify(labels), labels);
          this.set(labels, Number(row.count));
        }
      },
    });
  }
}
