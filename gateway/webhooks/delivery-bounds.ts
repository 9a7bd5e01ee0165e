import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config';

/**
 * How long a signed body seen again counts as the same delivery, recorded once. Nuvemshop's duplicates ("sent
 * multiple times with the same content") come seconds apart, and its first retries immediately and at about 5
 * minutes; a longer window would only hide more of a later change's rows, which cost nothing to miss (an order's job
 * is queued on every delivery, repeats included). One captured body replayed all day then records 12 rows an hour.
 */
export const DELIVERY_WINDOW_SECONDS = 300;

/** Whether a signed body is new: not seen within the window (and marks it seen, in the transaction `em` is in). */
export async function firstInWindow(em: EntityManager, event: string, body: Buffer): Promise<boolean> {
  const hash = createHash('sha256').update(`${event}\n`).update(body).digest('hex');
  // Read first: a repeat then writes and locks nothing, so a flood of one body is not served one at a time.
  const [recent] = await em.execute(
    `select 1 from webhook_deliveries where body_hash = ? and seen_at >= now() - make_interval(secs => ?)`,
    [hash, DELIVERY_WINDOW_SECONDS],
  );
  if (recent) return false;
  const fresh = (await em.execute(
    `insert into webhook_deliveries (body_hash, seen_at) values (?, now())
     on conflict (body_hash) do update set seen_at = now()
       where webhook_deliveries.seen_at < now() - make_interval(secs => ?)
     returning body_hash`,
    [hash, DELIVERY_WINDOW_SECONDS],
  )) as unknown[];
  return fresh.length > 0;
}

/**
 * The day's bound on a store's signed rows: WEBHOOK_SIGNED_PER_STORE_DAY for a client's store, the few of
 * WEBHOOK_SIGNED_UNKNOWN_STORE_PER_DAY for one no client has (Nuvemshop has no reason to send many). The store's row
 * of `webhook_days` is locked until the transaction ends, so its deliveries are counted one at a time and exactly.
 */
export class StoreDayBudget {
  constructor(
    private readonly config: Pick<Config, 'WEBHOOK_SIGNED_PER_STORE_DAY' | 'WEBHOOK_SIGNED_UNKNOWN_STORE_PER_DAY'>,
  ) {}

  /** Locks the store's day and answers whether one more row may be recorded today (`known`: a client has the store). */
  async open(em: EntityManager, storeId: number, known: boolean): Promise<StoreDay> {
    // The id is the store's and the day's, so the day's first delivery makes the row and the others meet it.
    const [day] = (await em.execute(
      `insert into webhook_days (id, store_id, day, recorded, dropped, created_at, updated_at)
       values (md5(? || ' ' || (now() at time zone 'UTC')::date)::uuid, ?, (now() at time zone 'UTC')::date, 0, 0,
         now(), now())
       on conflict (id) do update set updated_at = webhook_days.updated_at
       returning id, recorded`,
      [storeId, storeId],
    )) as { id: string; recorded: number }[];
    const cap = known ? this.config.WEBHOOK_SIGNED_PER_STORE_DAY : this.config.WEBHOOK_SIGNED_UNKNOWN_STORE_PER_DAY;
    return new StoreDay(em, day.id, day.recorded < cap);
  }
}

/** A store's day, locked: `room` says whether a row may be recorded; each delivery is then counted one way or other. */
export class StoreDay {
  constructor(
    private readonly em: EntityManager,
    private readonly id: string,
    readonly room: boolean,
  ) {}

  recorded = () => this.count('recorded');
  dropped = () => this.count('dropped');

  private async count(column: 'recorded' | 'dropped'): Promise<void> {
    await this.em.execute(`update webhook_days set ${column} = ${column} + 1, updated_at = now() where id = ?`, [
      this.id,
    ]);
  }
}
