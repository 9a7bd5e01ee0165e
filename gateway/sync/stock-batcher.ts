import type { MikroORM } from '@mikro-orm/postgresql';
import { recordMovements, type Movement } from '../locations/stock-movements';
import { releasedBy, STORE_WIDE } from '../orders/reservations';
import { type NuvemshopStoreClient, STOCK_PRICE_BATCH } from '../platforms/nuvemshop.client';
import { type NuvemshopProduct, type StockPriceProduct, type StockPriceResult } from '../platforms/nuvemshop.shapes';
import { heldStock, stockFields } from './product-mapping';
import type { Tally } from './run-tally';
import { applyLevels, type LevelWrite } from './stock-levels';
import { SyncProduct, type WrittenProduct, type WrittenVariant } from './sync.entities';

type Em = ReturnType<MikroORM['em']['fork']>;

/** A pending price and stock write, sent with others in `PATCH /products/stock-price` batches of 50. */
export interface PendingStock {
  row: SyncProduct;
  written: WrittenProduct;
  variant: WrittenVariant;
  /** The price to send; left out when it is not to change (a location's stock alone). */
  price?: number;
  /**
   * The stock to send: a client without location rows its one figure (always sent with the price, as the store last
   * had it or not); a client with locations each level that differs, in the variant's one element.
   */
  levels: LevelWrite[];
  hiperProductId: string;
}

/** What a batcher needs of its client beyond the store: who it is and where its stock goes. */
export interface BatcherClient {
  id: string;
  ordersReleaseOn: string;
  /** Its default location (where an order without one holds units); null without location rows. */
  defaultLocation: string | null;
  /** Whether it has location rows: levels go as `inventory_levels`, only those that differ. */
  located: boolean;
}

/**
 * Gathers a run step's price and stock writes across pages and sends them through `PATCH /products/stock-price` in
 * full batches; a product whose variants wait for a batch is counted (updated, unchanged or failed) once they are sent.
 * A variant's levels at several locations go in its one element, so a batch of 50 variants is one call whatever the
 * number of locations. Each stock value written is kept as a movement, with what was saved of the batch, at once.
 */
export class StockBatcher {
  private pending: PendingStock[] = [];
  /** Products waiting for their stock-price batch before they can be counted. */
  private waiting = new Map<string, { changed: boolean }>();
  /** SKUs whose write the store refused in this batcher's life: their locations' figures stay to be written. */
  readonly refused = new Set<string>();

  /** `unit` gives the current page's unit of work, which saves what a batch wrote. */
  constructor(
    private readonly store: NuvemshopStoreClient,
    private readonly location: string | null,
    private readonly tally: Tally,
    private readonly unit: () => Em,
    private readonly client: BatcherClient,
  ) {}

  add(entry: PendingStock): void {
    this.pending.push(entry);
  }

  /** Counts a product whose writes are done, or has it counted once its batch is sent if it is waiting for one. */
  count(hiperProductId: string, row: SyncProduct, changed: boolean): void {
    if (this.pending.some((x) => x.row === row)) this.waiting.set(hiperProductId, { changed: true });
    else if (changed) this.tally.updated++;
    else this.tally.unchanged++;
  }

  /**
   * Sends the gathered prices and stock in full batches of 50 variants (a product's variants may be split between
   * two), and with `all` the short rest too; a product is counted once all its variants are sent.
   */
  async flush(all: boolean): Promise<void> {
    while (this.pending.length >= STOCK_PRICE_BATCH || (all && this.pending.length > 0)) {
      await this.send(this.pending.splice(0, STOCK_PRICE_BATCH));
    }
  }

  /** One variant's element: its price when it changes, and its stock as the client's stock is laid out. */
  private element(x: PendingStock): StockPriceProduct['variants'][number] {
    const price = x.price === undefined ? {} : { price: x.price };
    if (!this.client.located)
      return { id: x.variant.variantId, ...price, ...stockFields(this.location, x.levels[0].value) };
    return {
      id: x.variant.variantId,
      ...price,
      ...(x.levels.length
        ? { inventory_levels: x.levels.map((l) => ({ location_id: l.storeLocationId!, stock: l.value })) }
        : {}),
    };
  }

  private async send(batch: PendingStock[]): Promise<void> {
    const byProduct = new Map<number, StockPriceProduct>();
    for (const x of batch) {
      const id = Number(x.row.nuvemshopProductId);
      const entry = byProduct.get(id) ?? { id, variants: [] };
      entry.variants.push(this.element(x));
      byProduct.set(id, entry);
    }
    const results = new Map((await this.store.updateStockPrice([...byProduct.values()])).map((r) => [r.variantId, r]));
    await this.readBack(batch, results);
    const rows = new Set<SyncProduct>();
    const movements: (Movement & { hiperId: string })[] = [];
    for (const x of batch) {
      const result = results.get(x.variant.variantId);
      if (result?.success) {
        for (const level of x.levels) {
          if (level.value !== level.previous) movements.push(this.movementOf(x.variant, level));
        }
        if (x.price !== undefined) x.variant.price = x.price;
        applyLevels(x.variant, x.levels);
      } else {
        // A product with a variant refused is counted failed, not updated.
        this.waiting.delete(x.hiperProductId);
        this.refused.add(x.variant.sku);
        this.tally.failed++;
        this.tally.errors.push({
          hiper_id: x.hiperProductId,
          sku: x.variant.sku,
          message: result?.error ?? 'Nuvemshop did not report this variant',
          code: 'nuvemshop_variant_refused',
          ...(result?.error ? { detail: result.error } : {}),
        });
      }
      rows.add(x.row);
    }
    await this.saveWritten([...rows], await this.releasing(movements));
    for (const x of batch) {
      const waiting = this.waiting.get(x.hiperProductId);
      if (!waiting || this.pending.some((y) => y.hiperProductId === x.hiperProductId)) continue;
      this.waiting.delete(x.hiperProductId);
      if (waiting.changed) this.tally.updated++;
      else this.tally.unchanged++;
    }
  }

  /**
   * Why a value was written: units an order now holds there (`reserved`, by that order), units given back
   * (`released`, the order named once found), else Hiper's stock.
   */
  private movementOf(variant: WrittenVariant, level: LevelWrite): Movement & { hiperId: string } {
    const reason = level.held > level.heldBefore ? 'reserved' : level.held < level.heldBefore ? 'released' : 'hiper';
    return {
      clientId: this.client.id,
      locationId: level.locationId,
      sku: variant.sku,
      value: level.value,
      previous: level.previous,
      reason,
      orderId: reason === 'reserved' ? level.heldBy : null,
      hiperId: variant.hiperId,
    };
  }

  /** Names the order that gave back the units of each `released` movement, in one query. */
  private async releasing(movements: (Movement & { hiperId: string })[]): Promise<Movement[]> {
    const released = movements.filter((m) => m.reason === 'released');
    if (released.length) {
      const location = (m: Movement) => m.locationId ?? this.client.defaultLocation ?? STORE_WIDE;
      const orders = await releasedBy(
        this.unit(),
        this.client.id,
        released.map((m) => ({ location: location(m), hiperId: m.hiperId })),
        this.client.ordersReleaseOn,
        this.client.defaultLocation,
      );
      for (const m of released) m.orderId = orders.get(`${location(m)}\n${m.hiperId}`) ?? null;
    }
    return movements.map(({ hiperId: _hiperId, ...m }) => m);
  }

  /**
   * Settles the variants a stock-price answer did not report (an answer of another shape) by reading their products
   * back once: what the store holds is what was written, so nothing is sent again on every run.
   */
  private async readBack(batch: PendingStock[], results: Map<number, StockPriceResult>): Promise<void> {
    const products = new Map<number, NuvemshopProduct | null>();
    for (const x of batch) {
      if (results.has(x.variant.variantId)) continue;
      const id = Number(x.row.nuvemshopProductId);
      if (!products.has(id)) products.set(id, await this.store.getProduct(id));
      const held = products.get(id)?.variants.find((v) => v.id === x.variant.variantId);
      if (!held) continue;
      const holds = (level: LevelWrite) =>
        level.storeLocationId || this.client.located
          ? held.inventory_levels?.find((l) => l.location_id === level.storeLocationId)?.stock
          : heldStock(held, this.location);
      const applied =
        (x.price === undefined || Number(held.price) === x.price) && x.levels.every((l) => holds(l) === l.value);
      results.set(x.variant.variantId, {
        productId: id,
        variantId: x.variant.variantId,
        success: applied,
        ...(applied ? {} : { error: 'Nuvemshop did not apply the price and stock sent (read back)' }),
      });
      if (!applied) {
        // The store's own values become what was written: the next run sends only what still differs.
        x.variant.price = Number(held.price);
        applyLevels(
          x.variant,
          x.levels.map((l) => ({ ...l, value: holds(l) ?? 0, held: l.heldBefore })),
        );
      }
    }
  }

  /**
   * Saves what was last written for several products and the movements of those writes, in one transaction: the
   * current page's rows with its unit of work, and rows of an earlier page's unit of work (a batch filled across
   * pages) in one statement.
   */
  private async saveWritten(rows: SyncProduct[], movements: Movement[]): Promise<void> {
    if (!rows.length) return;
    const em = this.unit();
    await em.begin();
    try {
      await em.flush();
      const unit = em.getUnitOfWork();
      const earlier = rows.filter((row) => unit.getById(SyncProduct.name, row.id) !== row);
      if (earlier.length)
        await em.execute(
          `update sync_products s set written = v.written
             from jsonb_to_recordset(?::jsonb) as v(id uuid, written jsonb) where s.id = v.id`,
          [JSON.stringify(earlier.map((row) => ({ id: row.id, written: row.written })))],
        );
      await recordMovements(em, movements);
      await em.commit();
    } catch (error) {
      await em.rollback();
      throw error;
    }
  }
}
