import type { MikroORM } from '@mikro-orm/postgresql';
import {
  clientResource,
  storeConnectionOf,
  type ClientEntity,
  type StoreConnectionFields,
} from '../clients/client.resource';
import { entityFor } from '../kit/entity';
import { linkName, productLinkResource, type ProductLinkEntity, type ProductLinkState } from './product-link.resource';
import type { SyncKind } from './sync-run.resource';
import { isGradeChild, type HiperProduct } from '../platforms/hiper.client';
import { type NuvemshopStoreClient } from '../platforms/nuvemshop.client';
import { NuvemshopUnavailable, PermissionMissing, StoreSuspended, TokenRevoked } from '../platforms/nuvemshop.errors';
import { type NuvemshopProduct, type VariantChanges } from '../platforms/nuvemshop.shapes';
import { PlatformError } from '../platforms/platform-call';
import {
  createdVariant,
  type Desired,
  desiredOf,
  inPortuguese,
  newVariant,
  sameJson,
  writtenOf,
  holdingOf,
  type StoreHolding,
} from './product-mapping';
import type { Tally } from './run-tally';
import { reservedUnits } from '../orders/reservations';
import { StockBatcher } from './stock-batcher';
import { SyncImage, SyncProduct, type WrittenProduct } from './sync.entities';

type Em = ReturnType<MikroORM['em']['fork']>;

/**
 * What one run learns of its store once and reuses in every later step in this process: which SKUs the store holds
 * (to adopt rather than duplicate) and its categories. Another process taking the run over reads them afresh.
 */
export interface RunCache {
  /** SKU → the store's products with a variant of that SKU, as adopting one needs them. */
  skus?: Map<string, StoreHolding[]>;
  categories?: Map<string, number>;
}

/** What a run reads of its client: its id, its connection and when its orders release their units. */
export type SyncedClient = StoreConnectionFields & Pick<ClientEntity, 'id' | 'ordersReleaseOn'>;

/** Whether an answer carries the product's id and each variant's: what a creation must learn. */
const hasIds = (product: NuvemshopProduct | null | undefined): product is NuvemshopProduct =>
  !!product &&
  Number.isSafeInteger(product.id) &&
  Array.isArray(product.variants) &&
  product.variants.length > 0 &&
  product.variants.every((v) => Number.isSafeInteger(v?.id)) &&
  Array.isArray(product.images);

/** Whether a product is in the store and we know what we wrote there: it is updated, never created again. */
const isLinked = (row: SyncProduct | null | undefined): row is SyncProduct & { written: WrittenProduct } =>
  !!row?.nuvemshopProductId && !!row.written;

/** The writes of one page: each product's differences, with price and stock gathered into shared batches. */
export class PageWriter {
  /** The step's price and stock writes, gathered across its pages. */
  readonly stock: StockBatcher;
  /** The page's products' mappings and uploaded images, read in one query each. */
  private rows = new Map<string, SyncProduct>();
  private uploaded = new Map<string, SyncImage[]>();
  /** The page's variants' ProductLinks, by Hiper id. */
  private productLinks = new Map<string, ProductLinkEntity>();
  /** The page's variants whose links are not read yet (a stock run reads them only to write one). */
  private linksOf: string[] = [];
  /**
   * The page's products marked "creating" in one commit before any of their `POST /products`, whose call has not
   * been sent yet: their mappings and links are saved together at the page's end. A crash in between leaves marks,
   * and a marked product is looked up by its SKU before anything is created again.
   */
  private unsent = new Set<SyncProduct>();
  /** Units of the page's variants sold in the store and still counted in Hiper's stock, by Hiper id. */
  private reserved = new Map<string, number>();
  private readonly location: string | null;
  /** A unit of work per page: each flush compares only the page's rows, however long the run. */
  private em: Em;

  constructor(
    private readonly root: Em,
    private readonly store: NuvemshopStoreClient,
    private readonly client: SyncedClient,
    private readonly kind: SyncKind,
    private readonly tally: Tally,
    private readonly cache: RunCache,
  ) {
    this.location = storeConnectionOf(client).locationId;
    this.em = root.fork();
    this.stock = new StockBatcher(store, this.location, tally, () => this.em);
  }

  /** The client as a reference of the page's unit of work, for the rows that name it. */
  private clientRef(): ClientEntity {
    return this.em.getReference(entityFor(clientResource), this.client.id);
  }

  /**
   * Reads the mappings, links (and, but for stock runs, uploaded images) of a page's products at once. A stock run
   * writes a page's links only when a product fails: it reads them then.
   */
  async load(products: HiperProduct[]): Promise<void> {
    const tops = products.filter((p) => !isGradeChild(p));
    const ids = tops.map((p) => p.id);
    await this.close();
    this.em = this.root.fork();
    this.rows.clear();
    this.uploaded.clear();
    this.productLinks.clear();
    this.linksOf = [];
    if (!ids.length) return;
    for (const row of await this.em.find(SyncProduct, { client: this.client.id, hiperId: { $in: ids } }))
      this.rows.set(row.hiperId, row);
    const variantIds = tops.flatMap((p) => (p.variacao?.length ? p.variacao.map((v) => v.id) : [p.id]));
    this.linksOf = variantIds;
    if (this.kind !== 'stock') await this.loadLinks();
    this.reserved = await reservedUnits(this.em, this.client.id, variantIds, String(this.client.ordersReleaseOn));
    if (this.kind !== 'stock') {
      for (const image of await this.em.find(SyncImage, { client: this.client.id, hiperId: { $in: ids } }))
        this.uploaded.set(image.hiperId, [...(this.uploaded.get(image.hiperId) ?? []), image]);
      await this.markCreations(tops);
    }
  }

  /** The page's links, read once, when the page first needs them. */
  private async loadLinks(): Promise<void> {
    if (!this.linksOf.length) return;
    for (const link of await this.em.find(entityFor(productLinkResource), {
      client: this.client.id,
      hiperId: { $in: this.linksOf },
    }))
      this.productLinks.set(link.hiperId, link);
    this.linksOf = [];
  }

  /** Marks, in one commit, every product of the page the store does not hold yet: each will be created once. */
  private async markCreations(tops: HiperProduct[]): Promise<void> {
    const now = new Date();
    for (const p of tops) {
      const row = this.rows.get(p.id);
      // Linked already, or a creation whose answer was lost (looked up afresh when its turn comes).
      if (isLinked(row) || row?.creatingSince) continue;
      const desired = desiredOf(p);
      if (!desired.published && !row) continue;
      const sku = desired.variants[0].sku;
      if ((await this.index()).get(sku)?.length) continue;
      const marked = row ?? this.em.create(SyncProduct, { client: this.clientRef(), hiperId: p.id, sku });
      marked.creatingSince = now;
      this.rows.set(p.id, marked);
      this.unsent.add(marked);
    }
    if (this.unsent.size) await this.em.flush();
  }

  /**
   * Saves the page's unit of work. Marks whose creation was never sent (the step ran out of time first) are taken
   * back, so that the next step creates those products without looking them up.
   */
  async close(): Promise<void> {
    for (const row of this.unsent) row.creatingSince = null;
    this.unsent.clear();
    await this.em.flush();
  }

  private fail(p: HiperProduct, sku: string | null, error: unknown) {
    if (
      !(error instanceof PlatformError) ||
      error.retryable ||
      error instanceof TokenRevoked ||
      error instanceof StoreSuspended ||
      error instanceof PermissionMissing
    )
      throw error;
    this.tally.failed++;
    this.tally.errors.push({
      hiper_id: p.id,
      sku,
      message: error.message,
      code: error.code,
      ...(error.detail ? { detail: error.detail } : {}),
    });
    return error.message;
  }

  /** What the store should show, its stock less the units sold in the store that Hiper still counts; never below 0. */
  private desiredOf(p: HiperProduct) {
    const desired = desiredOf(p);
    for (const variant of desired.variants) {
      const sold = this.reserved.get(variant.hiperId) ?? 0;
      if (sold > 0) variant.stock = Math.max(0, variant.stock - sold);
    }
    return desired;
  }

  async product(p: HiperProduct): Promise<void> {
    const desired = this.desiredOf(p);
    let row = this.rows.get(p.id) ?? null;
    if (this.kind === 'stock') {
      if (!isLinked(row)) return void this.tally.unchanged++;
      return this.update(p, row, desired, true);
    }
    if (isLinked(row)) return this.update(p, row, desired, false);
    if (!desired.published && !row) return void this.tally.unchanged++;
    const sku = desired.variants[0].sku;
    if (!row) {
      row = this.em.create(SyncProduct, { client: this.clientRef(), hiperId: p.id, sku });
      this.rows.set(p.id, row);
    }
    // Marked with the page's others: only its own creation is sent, so a refusal means nothing was created.
    const fresh = this.unsent.has(row);
    try {
      if (fresh) return await this.create(p, row, desired);
      if (row.creatingSince) {
        // A creation was sent and its answer lost (a crash, a timeout): the store is asked afresh, never the cache.
        const found = await this.store.findProductBySku(sku);
        if (found) return await this.adopt(p, row, desired, holdingOf(found, this.location));
        return await this.create(p, row, desired);
      }
      const matches = (await this.index()).get(sku) ?? [];
      if (matches.length > 1) throw new Refusal(`SKU ${sku} matches ${matches.length} products in the store`);
      // Adopted as the catalogue's reading found it: no second request per product.
      if (matches.length === 1) return await this.adopt(p, row, desired, matches[0]);
      await this.create(p, row, desired);
    } catch (error) {
      const message = this.fail(p, sku, error);
      // Its creation refused: nothing is left to look up.
      if (fresh && !row.nuvemshopProductId) row.creatingSince = null;
      await this.links(row, desired, 'failed', message);
    }
  }

  /**
   * The store's products by SKU, read once per run (in this process) when something may need creating: a store
   * that already sells the ERP's products has them adopted, not duplicated.
   */
  private async index(): Promise<Map<string, StoreHolding[]>> {
    if (this.cache.skus) return this.cache.skus;
    const index = new Map<string, StoreHolding[]>();
    for await (const page of this.store.products()) {
      for (const product of page) {
        const holding = holdingOf(product, this.location);
        for (const sku of new Set(holding.variants.map((v) => v.sku).filter((s) => !!s))) {
          index.set(sku, [...(index.get(sku) ?? []), holding]);
        }
      }
    }
    return (this.cache.skus = index);
  }

  private async categoryId(name: string): Promise<number> {
    if (!this.cache.categories) {
      const categories = new Map<string, number>();
      for (const c of await this.store.listCategories()) {
        for (const text of Object.values(c.name)) categories.set(text.trim().toLowerCase(), c.id);
      }
      this.cache.categories = categories;
    }
    const key = name.trim().toLowerCase();
    let id = this.cache.categories.get(key);
    if (id === undefined) {
      id = (await this.store.createCategory({ name })).id;
      this.cache.categories.set(key, id);
    }
    return id;
  }

  private async create(p: HiperProduct, row: SyncProduct, desired: Desired) {
    // The mark is saved before the call (with the page's others, or alone here): a creation whose answer is lost is
    // found by its SKU next time.
    if (!this.unsent.delete(row)) {
      row.creatingSince = new Date();
      await this.em.flush();
    }
    const categories = desired.category ? [await this.categoryId(desired.category)] : undefined;
    const answer = await this.store.createProduct({
      name: desired.name,
      description: desired.description,
      brand: desired.brand,
      published: desired.published,
      ...(desired.attributes.length ? { attributes: desired.attributes.map(inPortuguese) } : {}),
      variants: desired.variants.map((v) => createdVariant(v, this.location)),
      ...(desired.images.length ? { images: desired.images.map((src, i) => ({ src, position: i + 1 })) } : {}),
      ...(categories ? { categories } : {}),
    });
    const created = hasIds(answer) ? answer : await this.readCreated(desired);
    this.cache.skus?.set(desired.variants[0].sku, [holdingOf(created, this.location)]);
    const images = [...created.images].sort((a, b) => a.position - b.position);
    desired.images.forEach((source, i) => {
      if (images[i]) this.imageRow(p.id, source, created.id, images[i].id);
    });
    await this.linked(row, created, desired, true);
    this.tally.created++;
    if (this.location) {
      // The location's stock goes in the next stock-price batch; until then the new variants hold 0, never unlimited.
      for (const variant of row.written!.variants) {
        this.stock.add({
          row,
          written: row.written!,
          variant,
          price: variant.price,
          stock: variant.stock,
          hiperProductId: p.id,
        });
        variant.stock = 0;
      }
    }
  }

  /**
   * The product a creation made, read back by its SKU when the answer lacked the ids: never created twice. Not found
   * yet, the step is retried, and the saved mark has it looked up again rather than created.
   */
  private async readCreated(desired: Desired): Promise<NuvemshopProduct> {
    const found = await this.store.findProductBySku(desired.variants[0].sku);
    if (found && hasIds(found)) return found;
    throw new NuvemshopUnavailable(
      'nuvemshop_not_understood',
      'Nuvemshop answered a creation without the product’s ids',
    );
  }

  /** The product exists in the store with this SKU: take it as ours, and write what differs from it. */
  private async adopt(p: HiperProduct, row: SyncProduct, desired: Desired, found: StoreHolding) {
    const written = writtenOf(found, desired);
    row.nuvemshopProductId = String(found.id);
    row.creatingSince = null;
    row.written = written;
    // The product's images stand for Hiper's in order (ours when the product is one whose creation's answer was
    // lost): only images beyond those it has are uploaded, never a second copy.
    const known = this.uploaded.get(p.id) ?? [];
    desired.images.forEach((source, i) => {
      if (found.images[i] && !known.some((k) => k.source === source))
        known.push(this.imageRow(p.id, source, found.id, found.images[i]));
    });
    this.uploaded.set(p.id, known);
    await this.em.flush();
    await this.update(p, row, desired, false, true);
  }

  /** Saves what the store now holds for a product, and its links. */
  private async linked(row: SyncProduct, product: NuvemshopProduct, desired: Desired, _created: boolean) {
    row.nuvemshopProductId = String(product.id);
    row.creatingSince = null;
    row.written = {
      name: desired.name,
      description: desired.description,
      brand: desired.brand,
      published: desired.published,
      attributes: desired.attributes,
      variants: desired.variants.map((v) => ({
        ...v,
        variantId: product.variants.find((x) => x.sku === v.sku)?.id ?? 0,
      })),
    };
    // Saved with the page's other creations, when the page closes.
    await this.links(row, desired, desired.published ? 'linked' : 'unpublished', null, false);
  }

  /** One ProductLink per variant, as the product now stands. */
  private async links(row: SyncProduct, desired: Desired, state: ProductLinkState, error: string | null, save = true) {
    await this.loadLinks();
    const now = new Date();
    for (const v of desired.variants) {
      const variant = row.written?.variants.find((w) => w.hiperId === v.hiperId);
      const values = {
        sku: v.sku,
        name: linkName(desired.name, v.values),
        nuvemshopProductId: Number(row.nuvemshopProductId ?? 0),
        nuvemshopVariantId: variant?.variantId ?? 0,
        state,
        lastSyncedAt: now,
        lastError: error,
      };
      const link = this.productLinks.get(v.hiperId);
      if (link) Object.assign(link, values);
      else
        this.productLinks.set(
          v.hiperId,
          this.em.create(entityFor(productLinkResource), { client: this.clientRef(), hiperId: v.hiperId, ...values }),
        );
    }
    if (save) await this.em.flush();
  }

  /** Writes what differs between what the store was last given and what Hiper says now. */
  private async update(p: HiperProduct, row: SyncProduct, desired: Desired, stockOnly: boolean, adopted = false) {
    const written = row.written!;
    const productId = Number(row.nuvemshopProductId);
    let changed = adopted;
    try {
      if (!stockOnly) {
        const changes: Record<string, unknown> = {};
        for (const key of ['name', 'description', 'brand', 'published'] as const)
          if (!sameJson(written[key], desired[key])) changes[key] = desired[key];
        // A grade's axes change before its variants' values, which must match them in number.
        const axesChanged = desired.attributes.length > 0 && !sameJson(written.attributes ?? [], desired.attributes);
        if (Object.keys(changes).length || axesChanged) {
          await this.store.updateProduct(productId, {
            ...changes,
            ...(axesChanged ? { attributes: desired.attributes.map(inPortuguese) } : {}),
          });
          Object.assign(written, changes);
          if (axesChanged) written.attributes = desired.attributes;
          changed = true;
          await this.save(row);
        }
        const dimensionsOn = storeConnectionOf(this.client).updateDimensions;
        const patches: VariantChanges[] = [];
        for (const v of desired.variants) {
          const old = written.variants.find((w) => w.hiperId === v.hiperId || w.sku === v.sku);
          if (!old) {
            const created = await this.store.createVariant(productId, newVariant(v, dimensionsOn, this.location));
            written.variants.push({ ...v, variantId: created.id, dimensions: dimensionsOn ? v.dimensions : undefined });
            changed = true;
            await this.save(row);
            continue;
          }
          old.hiperId = v.hiperId;
          const patch: VariantChanges = { id: old.variantId };
          if (old.sku !== v.sku) patch.sku = v.sku;
          if (old.barcode !== v.barcode) patch.barcode = v.barcode;
          if (!sameJson(old.values, v.values) && v.values.length) patch.values = v.values.map(inPortuguese);
          if (dimensionsOn && !sameJson(old.dimensions ?? {}, v.dimensions)) Object.assign(patch, v.dimensions);
          if (Object.keys(patch).length > 1) patches.push(patch);
        }
        if (patches.length) {
          await this.store.updateVariants(productId, patches);
          for (const patch of patches) {
            const old = written.variants.find((w) => w.variantId === patch.id)!;
            const v = desired.variants.find((d) => d.hiperId === old.hiperId)!;
            Object.assign(old, { sku: v.sku, barcode: v.barcode, values: v.values });
            if (dimensionsOn) old.dimensions = v.dimensions;
          }
          changed = true;
          await this.save(row);
        }
        const vanished = written.variants.filter((w) => !desired.variants.some((v) => v.hiperId === w.hiperId));
        for (const gone of vanished) {
          if (written.variants.length <= 1) break;
          await this.store.deleteVariant(productId, gone.variantId);
          written.variants = written.variants.filter((w) => w !== gone);
          changed = true;
          await this.save(row);
        }
        if (storeConnectionOf(this.client).updateImage) changed = (await this.images(p, row, desired)) || changed;
      }
      for (const v of desired.variants) {
        const old = written.variants.find((w) => w.hiperId === v.hiperId);
        if (old && (old.price !== v.price || old.stock !== v.stock))
          this.stock.add({ row, written, variant: old, price: v.price, stock: v.stock, hiperProductId: p.id });
      }
      this.stock.count(p.id, row, changed);
      if (changed) await this.links(row, desired, desired.published ? 'linked' : 'unpublished', null);
    } catch (error) {
      const message = this.fail(p, desired.variants[0].sku, error);
      await this.save(row);
      await this.links(row, desired, 'failed', message);
    }
  }

  /** Records that Hiper's image `source` is the store's image `imageId` of `productId`: never uploaded again. */
  private imageRow(hiperId: string, source: string, productId: number | string, imageId: number): SyncImage {
    return this.em.create(SyncImage, {
      client: this.clientRef(),
      hiperId,
      source,
      nuvemshopProductId: String(productId),
      nuvemshopImageId: String(imageId),
    });
  }

  /** Uploads images not uploaded before and removes those Hiper no longer lists; an unchanged image costs nothing. */
  private async images(p: HiperProduct, row: SyncProduct, desired: Desired): Promise<boolean> {
    const productId = Number(row.nuvemshopProductId);
    const known = this.uploaded.get(p.id) ?? [];
    const kept: SyncImage[] = [];
    let changed = false;
    for (const source of desired.images) {
      const already = known.find((k) => k.source === source);
      if (already) {
        kept.push(already);
        continue;
      }
      const image = await this.store.addImage(productId, { src: source });
      kept.push(this.imageRow(p.id, source, productId, image.id));
      await this.em.flush();
      changed = true;
    }
    for (const old of known) {
      if (desired.images.includes(old.source)) continue;
      await this.store.deleteImage(productId, Number(old.nuvemshopImageId));
      this.em.remove(old);
      await this.em.flush();
      changed = true;
    }
    this.uploaded.set(p.id, kept);
    return changed;
  }

  /** Saves what was last written at once, after each call that changed the store. */
  private async save(_row: SyncProduct) {
    // The unit of work compares `written` by value: a change inside it is saved with the flush.
    await this.em.flush();
  }
}

/** A product this run will not write, for a reason of its own (several matches for its SKU). */
class Refusal extends PlatformError {
  constructor(message: string) {
    super(message, false, undefined, undefined, 'sku_ambiguous');
  }
}
