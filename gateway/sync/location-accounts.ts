import { createHash } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import { locationsOf } from '../locations/location-keys';
import { HiperClient, HiperCursorStuck } from '../platforms/hiper.client';
import { hiperTokenStore } from '../platforms/hiper-token-store';
import { PlatformError, staffTextOf } from '../platforms/platform-call';
import { locationNotes } from '../../schema/staff-notes';
import { accountStockOf } from './product-mapping';
import type { RunLocation } from './stock-levels';

type Em = ReturnType<MikroORM['em']['fork']>;

/** Which account a location's figures come from, as `sync_locations.stock_account` keeps it. */
const accountOf = (feed: RunLocation['feed'], key: string | null) =>
  feed === 'own' ? createHash('sha256').update(key!).digest('hex') : feed;

/**
 * A client's live locations as a run writes them, in the store's priority order: which account feeds each, and
 * whether its figures are this run's (read from that account, and not failed) so that its levels may be written.
 */
export async function runLocations(em: Em, clientId: string, clientKey: string | null): Promise<RunLocation[]> {
  const located = await locationsOf(em, clientId, clientKey);
  if (!located.length) return [];
  const rows = (await em.execute(
    `select l.id, l.stock_state, s.location_id as synced, s.stock_cursor, s.stock_account, s.sweep
       from locations l left join sync_locations s on s.location_id = l.id
      where l.id in (${located.map(() => '?').join(', ')})`,
    located.map((l) => l.id),
  )) as {
    id: string;
    stock_state: string;
    synced: string | null;
    stock_cursor: string | null;
    stock_account: string | null;
    sweep: boolean | null;
  }[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return located.map((l) => {
    const feed = l.hiperKey === null ? 'none' : l.clientsKey ? 'client' : 'own';
    const account = accountOf(feed, l.hiperKey);
    const row = byId.get(l.id);
    const ready = !!row?.synced && row.stock_account === account;
    return {
      ...l,
      feed,
      account,
      writable: ready && !(feed === 'own' && row.stock_state === 'failed'),
      sweep: !ready || !!row.sweep,
      stockCursor: ready ? Number(row.stock_cursor ?? 0) : 0,
    };
  });
}

/** Where a run's reading of its locations' own accounts stands: the location being read, from a cursor. */
export interface LocationsPosition {
  location: string;
  from: number;
}

/**
 * The first part of a run of a client with locations: each location's figures made this run's. A location whose
 * account changed (a key given, changed or taken away) starts again from nothing, every product to be checked; each
 * fed by its own key has that account's changes read, page by page, into its figures, its cursor moved with each
 * page. One account failing marks its location failed, with why in Portuguese, and the others go on.
 */
export class LocationAccounts {
  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
    private readonly em: Em,
  ) {}

  /**
   * Reads from `position` (the first location otherwise) until `deadline`: the position to go on from, or null when
   * every location is read. `full` reads each account from 0 (its cursor never moves back). The accounts are read side
   * by side, each on a connection of its own: a run's first write waits for the slowest account, not for their sum.
   * Cut short, the run goes on from the first location (by id) not read to its end; one after it read again is
   * harmless (its figures are the same, its cursor never moves back).
   */
  async read(
    locations: readonly RunLocation[],
    position: LocationsPosition | undefined,
    full: boolean,
    deadline: number,
  ): Promise<LocationsPosition | null> {
    const order = [...locations]
      .sort((a, b) => a.id.localeCompare(b.id))
      .filter((location) => !position || location.id >= position.location);
    for (const location of order) await this.prepare(location);
    const reads = order
      .filter((location) => location.feed === 'own')
      .map(async (location) => {
        const from = position?.location === location.id ? position.from : full ? 0 : location.stockCursor;
        const reached = await this.readAccount(this.orm.em.fork(), location, from, deadline);
        return reached === null ? null : { location: location.id, from: reached };
      });
    // Every read ended before the step goes on or fails: none writes after it.
    const settled = await Promise.allSettled(reads);
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const reached = settled.map((r) => (r.status === 'fulfilled' ? r.value : null)).filter((at) => at !== null);
    return reached[0] ?? null;
  }

  /** Makes the location's kept cursor and figures its current account's: another account's are dropped. */
  private async prepare(location: RunLocation): Promise<void> {
    await this.em.execute(
      `with dropped as (
         delete from location_stock where location_id = ?
            and exists (select 1 from sync_locations where location_id = ? and stock_account is distinct from ?))
       insert into sync_locations (location_id, stock_account, stock_cursor, sweep) values (?, ?, 0, true)
       on conflict (location_id) do update set stock_account = excluded.stock_account, stock_cursor = 0, sweep = true
         where sync_locations.stock_account is distinct from excluded.stock_account`,
      [location.id, location.id, location.account, location.id, location.account],
    );
  }

  /**
   * Reads one location's own account from `from`, each page's figures and cursor saved in one statement while the next
   * page is asked for: null once Hiper has nothing more, else the cursor to go on from (the deadline came). Its failure
   * marks the location.
   */
  private async readAccount(em: Em, location: RunLocation, from: number, deadline: number): Promise<number | null> {
    const key = location.hiperKey!;
    const hiper = HiperClient.fromConfig(this.config, key, hiperTokenStore(this.orm, { locationId: location.id }, key));
    let cursor = from;
    /** The next page, asked for while the one before is saved (its failure is met where it is awaited). */
    const ask = (at: number) => {
      const page = hiper.page(at);
      page.catch(() => undefined);
      return page;
    };
    let next = ask(cursor);
    try {
      for (;;) {
        const page = await next;
        if (page.cursor === null) break;
        if (page.cursor <= cursor) throw new HiperCursorStuck(cursor, page.cursor);
        if (Date.now() <= deadline) next = ask(page.cursor);
        const figures = [...accountStockOf(page.products)].map(([sku, stock]) => ({ sku: sku.slice(0, 64), stock }));
        await em.execute(
          `with figures as (
             insert into location_stock (location_id, sku, stock, changed)
             select ?, f.sku, f.stock, true from jsonb_to_recordset(?::jsonb) as f(sku text, stock int)
             on conflict (location_id, sku) do update set stock = excluded.stock,
               changed = location_stock.changed or location_stock.stock <> excluded.stock
             returning 1)
           update sync_locations set stock_cursor = greatest(stock_cursor, ?) where location_id = ?`,
          [location.id, JSON.stringify(figures), page.cursor, location.id],
        );
        cursor = page.cursor;
        if (Date.now() > deadline) return cursor;
      }
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      await markLocation(em, location.id, 'failed', staffTextOf(error));
      return null;
    }
    await markLocation(em, location.id, 'idle', null);
    return null;
  }
}

/** A location's last stock run, as the Estoques screen shows it. */
export async function markLocation(em: Em, id: string, state: 'idle' | 'failed', error: string | null) {
  await em.execute(
    `update locations set stock_state = ?, stock_error = ?, updated_at = now()
      where id = ? and (stock_state <> ? or stock_error is distinct from ?)`,
    [state, error, id, state, error],
  );
}

/**
 * A run's end for its locations: each written this run says so (`idle`; one without a key, that it was written 0),
 * or, when the client's own account failed, the location it feeds says why.
 */
export async function markLocationsAfterRun(
  em: Em,
  locations: readonly RunLocation[],
  clientFailure: unknown,
): Promise<void> {
  for (const location of locations) {
    if (location.feed === 'none') await markLocation(em, location.id, 'idle', locationNotes.no_key);
    else if (location.feed === 'client')
      await (clientFailure === undefined
        ? markLocation(em, location.id, 'idle', null)
        : markLocation(em, location.id, 'failed', staffTextOf(clientFailure)));
  }
}
