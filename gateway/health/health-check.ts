import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import cronParser from 'cron-parser';
import type { Config } from '../config';
import { healthNotes, syncErrorNotes, type HealthReasonCode, type SyncErrorNoteCode } from '../../schema/staff-notes';
import { SEVERITY, type Health, type HealthReason } from './client-health.resource';

/** The kinds of run a reason is about (a full read counts as a catalogue run). */
type RunKind = 'catalogue' | 'stock';

/**
 * Of two reasons at one level, which comes first: what stops the store, then a failure saying what to fix, then
 * orders waiting, then what is merely late or missing.
 */
const REASON_ORDER: readonly HealthReasonCode[] = [
  'store_token_revoked',
  'store_suspended',
  'run_failed',
  'orders_stuck',
  'orders_held',
  'orders_rejected',
  'orders_uncertain',
  'run_late',
  'run_never',
  'rate_limited',
  'drift_open',
  'scopes_missing',
  'not_connected',
  'store_uninstalled',
];

/** Clients worked out together: their facts read in one statement each, their rows written in one. */
const BATCH = 500;

/** The order states that wait for a person, each with its reason; `received` only once it is stuck. */
const WAITING_ORDERS = {
  held: 'orders_held',
  rejected: 'orders_rejected',
  uncertain: 'orders_uncertain',
  received: 'orders_stuck',
} as const;

interface ClientFacts {
  id: string;
  name: string;
  sync_state: string;
  missing_scopes: string | null;
  created_at: Date;
}

interface RunFacts {
  client_id: string;
  kind: RunKind;
  last_ok: Date | null;
  /** The newest ended runs of the kind, newest first: their state and first error's code. */
  recent: { state: string; code: string | null; finished_at: string }[];
  rate_limited: number;
}

interface OrderFacts {
  client_id: string;
  state: keyof typeof WAITING_ORDERS;
  count: number;
  oldest: Date;
}

/** The longest gap between two of a cron schedule's next firings (ms): how late its next run may be, on time. */
export function cronInterval(expression: string, from = new Date()): number {
  const schedule = cronParser.parseExpression(expression, { utc: true, currentDate: from });
  let previous = schedule.next().getTime();
  let longest = 0;
  for (let i = 0; i < 24; i++) {
    const next = schedule.next().getTime();
    longest = Math.max(longest, next - previous);
    previous = next;
  }
  return longest;
}

/**
 * Works out every live client's health from what the product already knows, and keeps it in `client_health`: the
 * store's state (a revoked token, a suspended store, the app uninstalled, a missing scope), a catalogue never written
 * to the store, each kind of run late against its schedule or failing, runs ended on Nuvemshop's 429s, orders waiting for a person, and divergences left open by the reconciliation. A reason seen in
 * the last check keeps its `since` (unless its own facts date it); a client keeps its `health_since` while its health
 * stays the same. Clients go in batches: one statement reads each kind of fact of a batch, one writes its rows.
 */
export class HealthCheck {
  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
  ) {}

  /** When the check runs (HEALTH_CRON). */
  get schedule(): string {
    return this.config.HEALTH_CRON;
  }

  /** The interval each kind of run is scheduled at (ms). */
  private intervals(now: Date): Record<RunKind, number> {
    return {
      catalogue: cronInterval(this.config.SYNC_CATALOGUE_CRON, now),
      stock: this.config.SYNC_STOCK_INTERVAL_SECONDS * 1000,
    };
  }

  /**
   * Works every client's health out again, as of `now`, a batch of clients at a time (memory stays bounded however
   * many there are); answers how many clients are in each health. Rows of clients no longer live go.
   */
  async refresh(now = new Date()): Promise<Record<Health, number>> {
    const connection = this.orm.em.getConnection();
    const counts: Record<Health, number> = { ok: 0, attention: 0, critical: 0 };
    const intervals = this.intervals(now);
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const clients = await connection.execute<ClientFacts[]>(
        `select id, coalesce(nullif(trim(name), ''), url) as name, sync_state,
           nuvemshop_missing_scopes as missing_scopes, created_at from clients
         where archived_at is null and id > ? order by id limit ?`,
        [after, BATCH],
      );
      if (!clients.length) break;
      await this.refreshBatch(clients, intervals, now, counts);
      if (clients.length < BATCH) break;
      after = clients[clients.length - 1].id;
    }
    await connection.execute(
      `delete from client_health h where not exists
         (select 1 from clients c where c.id = h.client_id and c.archived_at is null)`,
      [],
      'run',
    );
    return counts;
  }

  /** One batch of clients: their facts read in three statements, their rows written in one. */
  private async refreshBatch(
    clients: ClientFacts[],
    intervals: Record<RunKind, number>,
    now: Date,
    counts: Record<Health, number>,
  ): Promise<void> {
    const connection = this.orm.em.getConnection();
    const ids = clients.map((client) => client.id);
    const [runs, orders, previous, drift] = await Promise.all([
      connection.execute<RunFacts[]>(
        `select c.id as client_id, k.kind,
           (select max(r.finished_at) from (select finished_at from sync_runs r
              where r.client_id = c.id and r.kind = any(k.kinds) and r.state in ('succeeded', 'partial')
              order by r.created_at desc limit 1) r) as last_ok,
           (select coalesce(json_agg(json_build_object('state', r.state, 'code', r.errors -> 0 ->> 'code',
              'finished_at', r.finished_at) order by r.created_at desc), '[]')
            from (select state, errors, finished_at, created_at from sync_runs r
              where r.client_id = c.id and r.kind = any(k.kinds) and r.state in ('succeeded', 'partial', 'failed')
              order by r.created_at desc limit ?) r) as recent,
           (select count(*)::int from sync_runs r where r.client_id = c.id and r.kind = any(k.kinds)
              and r.created_at > ?::timestamptz - interval '24 hours'
              and r.errors @> '[{"code": "nuvemshop_rate_limited"}]') as rate_limited
         from clients c
         cross join (values ('catalogue', array['catalogue', 'full']), ('stock', array['stock'])) k(kind, kinds)
         where c.id = any(string_to_array(?, ',')::uuid[]) and c.sync_state not in ('not_connected', 'token_revoked', 'suspended',
           'disconnected')`,
        [this.config.HEALTH_FAILED_RUNS, now, ids.join(',')],
      ),
      connection.execute<OrderFacts[]>(
        `select client_id, state, count(*)::int as count, min(updated_at) as oldest from orders
         where client_id = any(string_to_array(?, ',')::uuid[]) and (state in ('held', 'rejected', 'uncertain')
           or (state = 'received' and updated_at < ?::timestamptz - make_interval(mins => ?)))
         group by client_id, state`,
        [ids.join(','), now, this.config.HEALTH_ORDER_STUCK_MINUTES],
      ),
      connection.execute<{ client_id: string; health: Health; health_since: Date; reasons: HealthReason[] }[]>(
        `select client_id, health, health_since, reasons from client_health where client_id = any(string_to_array(?, ',')::uuid[])`,
        [ids.join(',')],
      ),
      // The store and Hiper differ where the product cannot write it: the last reconciliation's open divergences.
      connection.execute<{ client_id: string; count: number; oldest: Date }[]>(
        `select client_id, count(*)::int as count, min(first_seen) as oldest from divergences
          where client_id = any(string_to_array(?, ',')::uuid[]) and state = 'open' group by client_id`,
        [ids.join(',')],
      ),
    ]);
    const driftOf = new Map(drift.map((row) => [row.client_id, row]));

    const runsOf = groupBy(runs, (run) => run.client_id);
    const ordersOf = groupBy(orders, (order) => order.client_id);
    const before = new Map(previous.map((row) => [row.client_id, row]));
    const rows = clients.map((client) => {
      const found = this.reasonsOf(client, runsOf.get(client.id) ?? [], ordersOf.get(client.id) ?? [], intervals, now);
      const open = driftOf.get(client.id);
      if (open)
        found.push({
          code: 'drift_open',
          health: 'attention',
          text: healthNotes.drift_open(open.count),
          dated: new Date(open.oldest),
        });
      const last = before.get(client.id);
      const seen = new Map((last?.reasons ?? []).map((reason) => [reasonKey(reason), reason.since]));
      const reasons: HealthReason[] = found
        .map(({ dated, ...reason }) => ({
          ...reason,
          since: dated?.toISOString() ?? seen.get(reasonKey(reason)) ?? now.toISOString(),
        }))
        .sort(
          (a, b) =>
            SEVERITY[b.health] - SEVERITY[a.health] ||
            REASON_ORDER.indexOf(a.code) - REASON_ORDER.indexOf(b.code) ||
            a.since.localeCompare(b.since),
        );
      const health: Health = reasons[0]?.health ?? 'ok';
      counts[health]++;
      return {
        id: randomUUID(),
        client_id: client.id,
        client_name: client.name,
        health,
        severity: SEVERITY[health],
        reasons,
        health_since: last && last.health === health ? new Date(last.health_since).toISOString() : now.toISOString(),
      };
    });

    await connection.execute(
      `with given as (
         select * from jsonb_to_recordset(?::jsonb)
           as g(id uuid, client_id uuid, client_name text, health text, severity int, reasons jsonb,
             health_since timestamptz)
       )
       insert into client_health (id, client_id, client_name, health, severity, reasons, health_since, checked_at,
         created_at, updated_at)
       select id, client_id, client_name, health, severity, reasons, health_since, ?, ?, ? from given
       on conflict (client_id) do update set client_name = excluded.client_name, health = excluded.health,
         severity = excluded.severity,
         reasons = excluded.reasons, health_since = excluded.health_since, checked_at = excluded.checked_at,
         updated_at = excluded.updated_at`,
      [JSON.stringify(rows), now, now, now],
      'run',
    );
  }

  /** A client's reasons, each dated by its facts where they date it (`dated`). */
  private reasonsOf(
    client: ClientFacts,
    runs: RunFacts[],
    orders: OrderFacts[],
    intervals: Record<RunKind, number>,
    now: Date,
  ): (Omit<HealthReason, 'since'> & { dated?: Date })[] {
    const reasons: (Omit<HealthReason, 'since'> & { dated?: Date })[] = [];
    const state = client.sync_state;
    if (state === 'token_revoked')
      reasons.push({ code: 'store_token_revoked', health: 'critical', text: healthNotes.store_token_revoked });
    else if (state === 'suspended')
      reasons.push({ code: 'store_suspended', health: 'critical', text: healthNotes.store_suspended });
    else if (state === 'disconnected')
      reasons.push({ code: 'store_uninstalled', health: 'attention', text: healthNotes.store_uninstalled });
    else if (state === 'not_connected')
      reasons.push({ code: 'not_connected', health: 'attention', text: healthNotes.not_connected });
    if (client.missing_scopes?.trim())
      reasons.push({
        code: 'scopes_missing',
        health: 'attention',
        text: healthNotes.scopes_missing(client.missing_scopes.split(',').join(', ')),
      });

    const { HEALTH_RUN_LATE_FACTOR: lateFactor, HEALTH_RUN_CRITICAL_FACTOR: criticalFactor } = this.config;
    for (const run of runs) {
      const every = intervals[run.kind];
      const from = run.last_ok ? new Date(run.last_ok) : new Date(client.created_at);
      const age = now.getTime() - from.getTime();
      const lateAfter = lateFactor * every;
      // Until a catalogue run has written the store, it is not in step with Hiper, however young the client.
      const unwritten = run.kind === 'catalogue' && !run.last_ok;
      if (age > lateAfter || unwritten) {
        const critical = age > Math.max(criticalFactor, lateFactor) * every;
        reasons.push({
          code: run.last_ok ? 'run_late' : 'run_never',
          health: critical ? 'critical' : 'attention',
          kind: run.kind,
          text: run.last_ok ? healthNotes.run_late(run.kind, age, every) : healthNotes.run_never(run.kind, age, every),
          dated: unwritten ? from : new Date(from.getTime() + lateAfter),
        });
      }
      const failing = run.recent.findIndex((ended) => ended.state !== 'failed');
      const failed = failing === -1 ? run.recent.length : failing;
      if (failed > 0) {
        const code = run.recent[0].code;
        const why = code && Object.hasOwn(syncErrorNotes, code) ? syncErrorNotes[code as SyncErrorNoteCode] : '';
        reasons.push({
          code: 'run_failed',
          health: failed >= this.config.HEALTH_FAILED_RUNS ? 'critical' : 'attention',
          kind: run.kind,
          text: healthNotes.run_failed(run.kind, failed, why || syncErrorNotes.internal),
          dated: new Date(run.recent[failed - 1].finished_at),
        });
      }
      if (run.rate_limited >= this.config.HEALTH_RATE_LIMITED_RUNS)
        reasons.push({
          code: 'rate_limited',
          health: 'attention',
          kind: run.kind,
          text: healthNotes.rate_limited(run.rate_limited),
        });
    }

    const criticalWait = this.config.HEALTH_ORDER_CRITICAL_HOURS * 3_600_000;
    for (const order of orders) {
      const code = WAITING_ORDERS[order.state];
      const oldest = new Date(order.oldest);
      const waited = now.getTime() - oldest.getTime();
      reasons.push({
        code,
        health: waited > criticalWait ? 'critical' : 'attention',
        text: healthNotes[code](order.count, waited),
        dated: oldest,
      });
    }
    return reasons;
  }
}

/** A reason's identity across checks: its code, and its kind of run. */
const reasonKey = (reason: { code: string; kind?: string }) => `${reason.code}:${reason.kind ?? ''}`;

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
