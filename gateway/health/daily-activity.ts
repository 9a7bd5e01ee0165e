import type { MikroORM } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { clientResource } from '../clients/client.resource';
import { ApiError } from '../errors';
import { ORDER_STATES, type OrderState } from '../orders/order.resource';
import { SYNC_RUN_STATES, type SyncRunState } from '../sync/sync-run.resource';
import { Id } from '../validation';

/** The business's days: a run at 23:30 in São Paulo belongs to that day, not to the next one UTC says. */
export const ACTIVITY_TIME_ZONE = 'America/Sao_Paulo';
export const MAX_ACTIVITY_DAYS = 90;

/** Which activity: one client's or everyone's, over how many days up to today (in the business's time zone). */
export const ActivityQuery = z.object({
  client_id: Id.optional(),
  days: z.coerce.number().int().min(1).max(MAX_ACTIVITY_DAYS).default(30),
});
export type ActivityQuery = z.output<typeof ActivityQuery>;

const counts = <T extends string>(names: readonly T[], id: string, what: string) =>
  z
    .object(Object.fromEntries(names.map((name) => [name, z.number().int()])) as Record<T, z.ZodNumber>)
    .meta({ id, description: what });

export const ActivityDay = z
  .object({
    day: z.string().meta({ description: 'The day, YYYY-MM-DD, in America/Sao_Paulo' }),
    runs: counts(SYNC_RUN_STATES, 'RunsByState', 'The runs queued that day, by their state now'),
    products_written: z.number().int().meta({ description: 'Products created or changed in the store by those runs' }),
    orders: counts(ORDER_STATES, 'OrdersByState', 'The orders received that day, by their state now'),
    rate_limited: z
      .number()
      .int()
      .meta({ description: 'Errors of those runs on Nuvemshop answering 429 (its rate limit) past every retry' }),
  })
  .meta({ id: 'ActivityDay' });
export type ActivityDay = z.output<typeof ActivityDay>;

export const DailyActivityAnswer = z
  .object({
    time_zone: z.string(),
    days: z.array(ActivityDay),
  })
  .meta({ id: 'DailyActivity' });
export type DailyActivityAnswer = z.output<typeof DailyActivityAnswer>;

/** `YYYY-MM-DD` of a moment in the business's time zone. */
const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: ACTIVITY_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The `count` days ending with `now`'s day, oldest first. */
export function activityDays(now: Date, count: number): string[] {
  const today = Date.parse(`${dayFormat.format(now)}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) =>
    new Date(today - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

const zeros = <T extends string>(names: readonly T[]) =>
  Object.fromEntries(names.map((name) => [name, 0])) as Record<T, number>;

/**
 * What happened per day, for the dashboard's and a client's charts: runs by state, the products they wrote, the 429s
 * they ended on, orders by state; every day present, zero when nothing happened. One statement per table, grouped by
 * day in the business's time zone, over the `created_at` indexes the lists already have.
 */
export class DailyActivity {
  constructor(private readonly orm: MikroORM) {}

  async read(query: ActivityQuery, now = new Date()): Promise<DailyActivityAnswer> {
    const connection = this.orm.em.getConnection();
    if (query.client_id) {
      const found = await connection.execute(`select 1 from clients where id = ?`, [query.client_id]);
      if (!found.length) throw new ApiError(404, clientResource.messages.notFound);
    }
    const days = activityDays(now, query.days);
    const ofClient = query.client_id ? ' and client_id = ?' : '';
    const client = query.client_id ? [query.client_id] : [];
    const from = [days[0], ACTIVITY_TIME_ZONE];
    const [runs, orders] = await Promise.all([
      connection.execute<{ day: string; state: SyncRunState; runs: number; written: number; rate_limited: number }[]>(
        `select to_char((created_at at time zone '${ACTIVITY_TIME_ZONE}')::date, 'YYYY-MM-DD') as day, state,
           count(*)::int as runs, coalesce(sum(created + updated), 0)::int as written,
           coalesce(sum((select count(*) from jsonb_array_elements(errors) e
             where e ->> 'code' = 'nuvemshop_rate_limited')), 0)::int as rate_limited
         from sync_runs where created_at >= (?::date)::timestamp at time zone ?${ofClient}
         group by 1, 2`,
        [...from, ...client],
      ),
      // An order's row is made when it is received (a shipment's row later, keeping its order's received_at): the
      // created_at bound, which the index serves, never leaves out an order received in the window.
      connection.execute<{ day: string; state: OrderState; orders: number }[]>(
        `select to_char((received_at at time zone '${ACTIVITY_TIME_ZONE}')::date, 'YYYY-MM-DD') as day, state,
           count(*)::int as orders
         from orders where created_at >= (?::date)::timestamp at time zone ?
           and received_at >= (?::date)::timestamp at time zone ?${ofClient}
         group by 1, 2`,
        [...from, ...from, ...client],
      ),
    ]);
    const byDay = new Map<string, ActivityDay>(
      days.map((day) => [
        day,
        { day, runs: zeros(SYNC_RUN_STATES), products_written: 0, orders: zeros(ORDER_STATES), rate_limited: 0 },
      ]),
    );
    for (const row of runs) {
      const day = byDay.get(row.day);
      if (!day) continue; // a run queued after today's end in São Paulo (a clock ahead): not one of the days
      day.runs[row.state] += row.runs;
      day.products_written += row.written;
      day.rate_limited += row.rate_limited;
    }
    for (const row of orders) {
      const day = byDay.get(row.day);
      if (day) day.orders[row.state] += row.orders;
    }
    return { time_zone: ACTIVITY_TIME_ZONE, days: [...byDay.values()] };
  }
}
