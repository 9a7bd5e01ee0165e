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
  figuresOf,
  inPortuguese,
  newVariant,
  sameJson,
  writtenOf,
  holdingOf,
  type StoreHolding,
} from './product-mapping';
import type { Tally } from './run-tally';
import { STORE_WIDE } from '../orders/reservations';
import { StockBatcher } from './stock-batcher';
import { LevelPlanner, type RunLocation } from './stock-levels';
import { ImageBook } from './image-book';
import { SyncProduct, type WrittenProduct } from './sync.entities';

type Em = ReturnType<MikroORM['em']['fork']>;

/**
 * What one run learns of its store once and reuses in every later step in this process: which SKUs the store holds
 * (to adopt rather than duplicate) and its categories. Another process taking the run over reads them afresh.
 */
export interface RunCache {
  /** SKU → the store's products with a variant of that SKU, as adopting one needs them. */
  skus?: Map<string, StoreHolding[]>;
  categories?: Map<string, number>;
  /** The SKUs said missing at a location in this run (`{location}\n{sku}`): once per run and location. */
  missing?: Set<string>;
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
  private readonly images: ImageBook;
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
  /** Each variant's levels: its figures at each location, less the units sold in the store that Hiper still counts. */
  readonly planner: LevelPlanner;
  /** The client's one location when it has no location rows (null with them: each location is written). */
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
    locations: readonly RunLocation[] = [],
  ) {
    // A client with location rows ignores its one location id: each of its locations is written.
    this.location = locations.length ? null : storeConnectionOf(client).locationId;
    this.em = root.fork();
    this.images = new ImageBook(
      () => this.em,
      store,
      () => this.clientRef(),
    );
    this.planner = new LevelPlanner(root, client, locations, tally, (cache.missing ??= new Set()), this.location);
    this.stock = new StockBatcher(store, this.location, tally, () => this.em, {
      id: client.id,
      ordersReleaseOn: String(client.ordersReleaseOn),
      defaultLocation: this.planner.defaultLocation,
      located: this.planner.located,
    });
  }

  /** The locations as the store names them, to read a store product's levels (none without location rows). */
  private get placed() {
    return this.planner.located ? this.planner.locations : undefined;
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
    this.images.clear();
    this.productLinks.clear();
    this.linksOf = [];
    if (!ids.length) return;
    for (const row of await this.em.find(SyncProduct, { client: this.client.id, hiperId: { $in: ids } }))
      this.rows.set(row.hiperId, row);
    const variantIds = tops.flatMap((p) => (p.variacao?.length ? p.variacao.map((v) => v.id) : [p.id]));
    this.linksOf = variantIds;
    if (this.kind !== 'stock') await this.loadLinks();
    const figures = tops.flatMap((p) =>
      [...figuresOf(p)].map(([hiperId, f]) => ({ hiperId, sku: f.sku, stock: f.stock })),
    );
    await this.planner.load(figures);
    await this.planner.keepClientFigures(figures);
    if (this.kind !== 'stock') {
      await this.images.load(this.client.id, ids);
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

  /**
   * What the store should show, its stock less the units sold in the store that Hiper still counts; never below 0. A
   * client with locations has each location's level planned apart (the planner takes each location's holdings).
   */
  private desiredOf(p: HiperProduct) {
    const desired = desiredOf(p);
    if (this.planner.located) return desired;
    for (const variant of desired.variants) {
      const sold = this.planner.heldOf(STORE_WIDE, variant.hiperId)?.units ?? 0;
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
        if (found) return await this.adopt(p, row, desired, holdingOf(found, this.location, this.placed));
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
        const holding = holdingOf(product, this.location, this.placed);
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
      variants: desired.variants.map((v) => createdVariant(v, this.location, this.planner.located || !!this.location)),
      ...(desired.images.length ? { images: desired.images.map((src, i) => ({ src, position: i + 1 })) } : {}),
      ...(categories ? { categories } : {}),
    });
    const created = hasIds(answer) ? answer : await this.readCreated(desired);
    this.cache.skus?.set(desired.variants[0].sku, [holdingOf(created, this.location, this.placed)]);
    const images = [...created.images].sort((a, b) => a.position - b.position);
    desired.images.forEach((source, i) => {
      if (images[i]) this.images.record(p.id, source, created.id, images[i].id);
    });
    await this.linked(row, created, desired, true);
    this.tally.created++;
    if (this.planner.located) {
      // Every location's level goes in the next stock-price batches, 0 included: created with 0, never unlimited.
      const figures = figuresOf(p);
      for (const variant of row.written!.variants) {
        variant.stock = 0;
        variant.levels = {};
        const levels = this.planner.levels(variant, figures.get(variant.hiperId));
        if (levels.length) this.stock.add({ row, written: row.written!, variant, levels, hiperProductId: p.id });
      }
    } else if (this.location) {
      // The location's stock goes in the next stock-price batch; until then the new variants hold 0, never unlimited.
      for (const variant of row.written!.variants) {
        const [level] = this.planner.levels({ ...variant, stock: 0 }, { stock: variant.stock, active: true });
        this.stock.add({
          row,
          written: row.written!,
          variant,
          price: variant.price,
          levels: [{ ...level, value: variant.stock }],
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
    this.images.adopt(p.id, desired.images, found.id, found.images);
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
            // Under locations a new variant starts at 0 everywhere; its levels follow with the product's others.
            const located = this.planner.located;
            const variant = located ? { ...v, stock: 0 } : v;
            const created = await this.store.createVariant(productId, newVariant(variant, dimensionsOn, this.location));
            written.variants.push({
              ...variant,
              variantId: created.id,
              dimensions: dimensionsOn ? v.dimensions : undefined,
              ...(located ? { levels: {} } : {}),
            });
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
        if (storeConnectionOf(this.client).updateImage)
          changed = (await this.images.write(p.id, Number(row.nuvemshopProductId), desired.images)) || changed;
      }
      const figures = figuresOf(p);
      for (const v of desired.variants) {
        const old = written.variants.find((w) => w.hiperId === v.hiperId);
        if (!old) continue;
        const figure = figures.get(v.hiperId);
        const levels = this.planner.levels(old, figure);
        if (!this.planner.located) {
          if (old.price !== v.price || old.stock !== v.stock)
            this.stock.add({ row, written, variant: old, price: v.price, levels, hiperProductId: p.id });
          continue;
        }
        if (figure && !figure.active) old.off = true;
        else delete old.off;
        const differ = levels.filter((l) => l.value !== l.previous);
        const price = old.price !== v.price ? v.price : undefined;
        if (price !== undefined || differ.length)
          this.stock.add({ row, written, variant: old, price, levels: differ, hiperProductId: p.id });
      }
      this.stock.count(p.id, row, changed);
      if (changed) await this.links(row, desired, desired.published ? 'linked' : 'unpublished', null);
    } catch (error) {
      const message = this.fail(p, desired.variants[0].sku, error);
      await this.save(row);
      await this.links(row, desired, 'failed', message);
    }
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
