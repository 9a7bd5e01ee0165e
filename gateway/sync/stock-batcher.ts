import type { MikroORM } from '@mikro-orm/postgresql';
import { type NuvemshopStoreClient, STOCK_PRICE_BATCH } from '../platforms/nuvemshop.client';
import { type NuvemshopProduct, type StockPriceProduct, type StockPriceResult } from '../platforms/nuvemshop.shapes';
import { heldStock, stockFields } from './product-mapping';
import type { Tally } from './run-tally';
import { SyncProduct, type WrittenProduct, type WrittenVariant } from './sync.entities';

type Em = ReturnType<MikroORM['em']['fork']>;

/** A pending price and stock write, sent with others in `PATCH /products/stock-price` batches of 50. */
export interface PendingStock {
  row: SyncProduct;
  written: WrittenProduct;
  variant: WrittenVariant;
  price: number;
  stock: number;
  hiperProductId: string;
}

/**
 * Gathers a run step's price and stock writes across pages and sends them through `PATCH /products/stock-price` in
 * full batches; a product whose variants wait for a batch is counted (updated, unchanged or failed) once they are sent.
 */
export class StockBatcher {
  private pending: PendingStock[] = [];
  /** Products waiting for their stock-price batch before they can be counted. */
  private waiting = new Map<string, { changed: boolean }>();

  /** `unit` gives the current page's unit of work, which saves what a batch wrote. */
  constructor(
    private readonly store: NuvemshopStoreClient,
    private readonly location: string | null,
    private readonly tally: Tally,
    private readonly unit: () => Em,
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

  private async send(batch: PendingStock[]): Promise<void> {
    const byProduct = new Map<number, StockPriceProduct>();
    for (const x of batch) {
      const id = Number(x.row.nuvemshopProductId);
      const entry = byProduct.get(id) ?? { id, variants: [] };
      entry.variants.push({ id: x.variant.variantId, price: x.price, ...stockFields(this.location, x.stock) });
      byProduct.set(id, entry);
    }
    const results = new Map((await this.store.updateStockPrice([...byProduct.values()])).map((r) => [r.variantId, r]));
    await this.readBack(batch, results);
    const rows = new Set<SyncProduct>();
    for (const x of batch) {
      const result = results.get(x.variant.variantId);
      if (result?.success) {
        x.variant.price = x.price;
        x.variant.stock = x.stock;
      } else {
        // A product with a variant refused is counted failed, not updated.
        this.waiting.delete(x.hiperProductId);
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
    await this.saveWritten([...rows]);
    for (const x of batch) {
      const waiting = this.waiting.get(x.hiperProductId);
      if (!waiting || this.pending.some((y) => y.hiperProductId === x.hiperProductId)) continue;
      this.waiting.delete(x.hiperProductId);
      if (waiting.changed) this.tally.updated++;
      else this.tally.unchanged++;
    }
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
      const stock = heldStock(held, this.location);
      const applied = Number(held.price) === x.price && stock === x.stock;
      results.set(x.variant.variantId, {
        productId: id,
        variantId: x.variant.variantId,
        success: applied,
        ...(applied ? {} : { error: 'Nuvemshop did not apply the price and stock sent (read back)' }),
      });
      if (!applied) {
        // The store's own values become what was written: the next run sends only what still differs.
        x.variant.price = Number(held.price);
        x.variant.stock = stock ?? 0;
      }
    }
  }

  /**
   * Saves what was last written for several products: the current page's rows with its unit of work, in one flush,
   * and rows of an earlier page's unit of work (a batch filled across pages) in one statement.
   */
  private async saveWritten(rows: SyncProduct[]): Promise<void> {
    if (!rows.length) return;
    const em = this.unit();
    await em.flush();
    const unit = em.getUnitOfWork();
    const earlier = rows.filter((row) => unit.getById(SyncProduct.name, row.id) !== row);
    if (!earlier.length) return;
    await em.getConnection().execute(
      `update sync_products s set written = v.written
         from jsonb_to_recordset(?::jsonb) as v(id uuid, written jsonb) where s.id = v.id`,
      [JSON.stringify(earlier.map((row) => ({ id: row.id, written: row.written })))],
    );
  }
}
