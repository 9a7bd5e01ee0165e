import type { MikroORM } from '@mikro-orm/postgresql';
import type { NuvemshopStoreClient } from '../platforms/nuvemshop.client';
import type { Tally } from './run-tally';
import type { RunCache, SyncedClient } from './page-writer';
import { StockBatcher } from './stock-batcher';
import { LevelPlanner, type RunLocation } from './stock-levels';
import { SyncProduct, type WrittenProduct } from './sync.entities';

type Em = ReturnType<MikroORM['em']['fork']>;

/** How many products (a check of every one) or changed SKUs one unit of work takes. */
const CHUNK = 100;

/** Where the last part of a run stands: checking every product (after an id), or the changed SKUs (after a SKU). */
export type RestPosition = { part: 'sweep'; after?: string } | { part: 'changed'; after?: string };

/**
 * The last part of a run of a client with locations: the levels the catalogue's own read did not write. First, where
 * a location's account changed (or the location is new), every product's level there is checked; then each SKU whose
 * figure changed in a location's own account since its level was last written. Only what differs is sent, in the
 * same batches of 50 variants; a figure is marked written once its level is.
 */
export class LevelSweep {
  private em: Em;
  private readonly planner: LevelPlanner;
  private readonly batcher: StockBatcher;

  constructor(
    private readonly root: Em,
    store: NuvemshopStoreClient,
    private readonly client: SyncedClient,
    tally: Tally,
    cache: RunCache,
    locations: readonly RunLocation[],
  ) {
    this.em = root.fork();
    this.planner = new LevelPlanner(root, client, locations, tally, (cache.missing ??= new Set()), null);
    this.batcher = new StockBatcher(store, null, tally, () => this.em, {
      id: client.id,
      ordersReleaseOn: String(client.ordersReleaseOn),
      defaultLocation: this.planner.defaultLocation,
      located: true,
    });
  }

  /** Goes on from `position` until `deadline`: the position to go on from, or null once nothing is left. */
  async run(position: RestPosition | undefined, deadline: number): Promise<RestPosition | null> {
    const writable = this.planner.writable;
    let at: RestPosition | null = position ?? { part: 'sweep' };
    if (at.part === 'sweep' && !writable.some((l) => l.sweep)) at = { part: 'changed' };
    while (at && Date.now() <= deadline)
      at = at.part === 'sweep' ? await this.sweep(at.after) : await this.changed(at.after);
    // Only once their levels are sent are the figures marked written: a step cut short does them again.
    await this.batcher.flush(true);
    await this.planner.settled(this.batcher.refused);
    return at;
  }

  /** Checks the levels of the next products after `after`; at the end, the swept locations need no more checking. */
  private async sweep(after: string | undefined): Promise<RestPosition> {
    const ids = (await this.root.execute(
      `select id from sync_products where client_id = ? and nuvemshop_product_id is not null and written is not null
          ${after ? 'and id > ?' : ''} order by id limit ${CHUNK}`,
      [this.client.id, ...(after ? [after] : [])],
    )) as { id: string }[];
    if (!ids.length) {
      await this.batcher.flush(true);
      const swept = this.planner.writable.filter((l) => l.sweep).map((l) => l.id);
      if (swept.length)
        await this.root.execute(
          `update sync_locations set sweep = false where location_id in (${swept.map(() => '?').join(', ')})`,
          swept,
        );
      return { part: 'changed' };
    }
    await this.write(
      ids.map((r) => r.id),
      () => true,
    );
    return { part: 'sweep', after: ids.at(-1)!.id };
  }

  /**
   * Writes the levels of the next SKUs after `after` whose figure changed at a location fed by its own account (marked
   * written there once sent, all but a variant the store refused, which waits for the next run); null when none is
   * left.
   */
  private async changed(after: string | undefined): Promise<RestPosition | null> {
    const own = this.planner.writable.filter((l) => l.feed === 'own').map((l) => l.id);
    if (!own.length) return null;
    const rows = (await this.root.execute(
      `select distinct sku from location_stock
        where location_id in (${own.map(() => '?').join(', ')}) and changed ${after ? 'and sku > ?' : ''}
        order by sku limit ${CHUNK}`,
      [...own, ...(after ? [after] : [])],
    )) as { sku: string }[];
    if (!rows.length) return null;
    const skus = new Set(rows.map((r) => r.sku));
    const products = (await this.root.execute(
      `select distinct s.id from sync_products s
         join product_links p on p.client_id = s.client_id and p.nuvemshop_product_id = s.nuvemshop_product_id
        where s.client_id = ? and s.written is not null and p.sku in (select jsonb_array_elements_text(?::jsonb))`,
      [this.client.id, JSON.stringify([...skus])],
    )) as { id: string }[];
    await this.write(
      products.map((p) => p.id),
      (sku) => skus.has(sku),
    );
    // SKUs of no product of the catalogue are marked written too: nothing of theirs is to be written.
    for (const sku of skus) this.planner.planned.add(sku);
    return { part: 'changed', after: rows.at(-1)!.sku };
  }

  /** Sends the levels that differ of these products' variants whose SKU `wanted` takes, in one unit of work. */
  private async write(ids: string[], wanted: (sku: string) => boolean): Promise<void> {
    if (!ids.length) return;
    this.em = this.root.fork();
    const rows = await this.em.find(SyncProduct, { id: { $in: ids } });
    const variants = rows.flatMap((row) => (row.written?.variants ?? []).filter((v) => wanted(v.sku)));
    await this.planner.load(variants, true);
    for (const row of rows) {
      const written = row.written as WrittenProduct;
      let added = false;
      for (const variant of written.variants) {
        if (!wanted(variant.sku)) continue;
        const differ = this.planner.levels(variant).filter((l) => l.value !== l.previous);
        if (!differ.length) continue;
        this.batcher.add({ row, written, variant, levels: differ, hiperProductId: row.hiperId });
        added = true;
      }
      if (added) this.batcher.count(row.hiperId, row, true);
    }
    await this.batcher.flush(false);
  }
}
