import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import { storeConnectionOf } from '../resources/client.resource';
import type { ProductLinkState } from '../resources/product-link.resource';
import { MAX_RUN_ERRORS, type SyncKind, type SyncRunError } from '../resources/sync-run.resource';
import {
  HiperClient,
  HiperCursorStuck,
  HiperKeyRefused,
  isGradeChild,
  type HiperProduct,
  type HiperTokenStore,
} from './hiper.client';
import {
  NuvemshopClient,
  NuvemshopUnavailable,
  PermissionMissing,
  StoreSuspended,
  TokenRevoked,
  type NewVariant,
  type NuvemshopProduct,
  type NuvemshopStoreClient,
  STOCK_PRICE_BATCH,
  type StockPriceProduct,
  type StockPriceResult,
  type VariantChanges,
} from './nuvemshop.client';
import { hiperTokenStore } from './hiper-tokens';
import { PlatformError } from './platform-call';
import { SyncClient, SyncImage, SyncProduct, type WrittenProduct, type WrittenVariant } from './sync.entities';

type Em = ReturnType<MikroORM['em']['fork']>;
type Row = Record<string, any>;

/** The client states that stop every call to its store until staff or the store act. */
export const STOPPED_STATES = ['token_revoked', 'suspended', 'disconnected'];

/** A client is synced when it has both credentials and a store, and no state stops it. */
export const isConnected = (client: Row) => {
  const c = storeConnectionOf(client);
  return !!c.hiperKey && !!c.storeToken && c.storeId > 0 && !STOPPED_STATES.includes(c.state);
};

/** What one job of a run does next: nothing (the run is over), or the continuation to queue. */
export type StepOutcome = { done: true } | { next: { from: number; skip: number }; delaySeconds?: number };

/** Runs whose store catalogue this process has read, kept for the run's later steps (at most this many). */
const CACHED_RUNS = 64;

/**
 * What one run learns of its store once and reuses in every later step in this process: which SKUs the store holds
 * (to adopt rather than duplicate) and its categories. Another process taking the run over reads them afresh.
 */
interface RunCache {
  /** SKU → the ids of the store's products with a variant of that SKU. */
  skus?: Map<string, number[]>;
  categories?: Map<string, number>;
}

/** A product as the store should show it, from the mapping table of SYNC-CONTRACT.md. */
interface Desired {
  name: string;
  description: string;
  brand: string | null;
  published: boolean;
  category: string | null;
  attributes: string[];
  variants: (WrittenVariant & { dimensions: NonNullable<WrittenVariant['dimensions']> })[];
  images: string[];
}

const wholeUnits = (quantity: number | null | undefined) => Math.max(0, Math.floor(Number(quantity) || 0));

function dimensionsOf(p: HiperProduct) {
  const out: { weight?: number; height?: number; width?: number; depth?: number } = {};
  const put = (key: keyof typeof out, value: number | null | undefined) => {
    if (value && value > 0) out[key] = value;
  };
  put('weight', p.peso);
  put('height', p.altura);
  put('width', p.largura);
  put('depth', p.comprimento);
  return out;
}

export function desiredOf(p: HiperProduct): Desired {
  const published = p.ativo && !p.removido;
  const dimensions = dimensionsOf(p);
  const base = {
    name: (p.nome ?? '').trim() || String(p.codigo),
    description: p.descricao ?? '',
    brand: p.marca ? p.marca : null,
    published,
    category: p.categoria ? p.categoria : null,
    images: [p.imagem, ...(p.imagensAdicionais ?? []).map((i) => i.imagem)].filter((s): s is string => !!s),
  };
  const grade = p.variacao?.length ? p.variacao : null;
  if (!grade) {
    return {
      ...base,
      attributes: [],
      variants: [
        {
          hiperId: p.id,
          variantId: 0,
          sku: String(p.codigo),
          barcode: p.codigoDeBarras ?? null,
          price: Number(p.preco),
          stock: wholeUnits(p.quantidadeEmEstoque),
          values: [],
          dimensions,
        },
      ],
    };
  }
  const attributes = [grade[0].tipoVariacaoA, grade[0].tipoVariacaoB].filter((a): a is string => !!a);
  return {
    ...base,
    attributes,
    variants: grade.map((v) => ({
      hiperId: v.id,
      variantId: 0,
      sku: String(v.codigo),
      barcode: v.codigoDeBarras ?? null,
      price: Number(p.preco),
      stock: v.variacaoAtiva ? wholeUnits(v.quantidadeEmEstoque) : 0,
      values: [v.nomeVariacaoA, v.nomeVariacaoB].slice(0, attributes.length).map((n) => n ?? ''),
      dimensions,
    })),
  };
}

/** A text as a language object, as every example of Nuvemshop's attributes and values shows (stores here are in pt). */
const inPortuguese = (text: string) => ({ pt: text });

/** A value with its objects' keys in order: what PostgreSQL's jsonb gives back need not keep the order written. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([k, v]) => [k, canonical(v)]),
        )
      : value;

const sameJson = (a: unknown, b: unknown) =>
  JSON.stringify(canonical(a ?? null)) === JSON.stringify(canonical(b ?? null));

/** Per-job tallies, added to the run's counts as products are written. */
interface Tally {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  errors: SyncRunError[];
}

/** A pending price and stock write, sent with others in `PATCH /products/stock-price` batches of 50. */
interface PendingStock {
  row: SyncProduct;
  written: WrittenProduct;
  variant: WrittenVariant;
  price: number;
  stock: number;
  hiperProductId: string;
}

/**
 * One bounded step of a run: reads one Hiper page from the run's position, writes what differs to the store, moves
 * the cursor only once the page is written, and says what comes next. Everything it learns (ids, what was written,
 * uploaded images) is saved as it goes, so a step cut short by a crash is repeated without writing anything twice.
 */
export class SyncRunner {
  private readonly caches = new Map<string, RunCache>();

  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
    private readonly nuvemshop: NuvemshopClient = NuvemshopClient.fromConfig(config),
  ) {}

  /** A step's job expires after this (its process died), and is retried by another. */
  get stepExpirySeconds(): number {
    return this.config.SYNC_STEP_SECONDS * 3;
  }

  /** A lease outlives a step's expiry, so a crashed step's client is free again when pg-boss retries it. */
  get leaseSeconds(): number {
    return this.stepExpirySeconds + 10;
  }

  private cacheOf(runId: string): RunCache {
    let cache = this.caches.get(runId);
    if (!cache) {
      if (this.caches.size >= CACHED_RUNS) this.caches.delete(this.caches.keys().next().value!);
      this.caches.set(runId, (cache = {}));
    }
    return cache;
  }

  /** The client a run is of, or null when the run is gone. */
  async clientOf(runId: string): Promise<string | null> {
    const [row] = await this.orm.em
      .getConnection()
      .execute<{ client_id: string }[]>(`select client_id from sync_runs where id = ?`, [runId]);
    return row?.client_id ?? null;
  }

  /** Takes the client for `holder` (a job id) unless another live job holds it. */
  async lease(clientId: string, holder: string): Promise<boolean> {
    const connection = this.orm.em.getConnection();
    await connection.execute(`insert into sync_clients (client_id) values (?) on conflict do nothing`, [clientId]);
    const taken = await connection.execute<{ affectedRows: number }>(
      `update sync_clients set lease_owner = ?, lease_until = now() + make_interval(secs => ?)
        where client_id = ? and (lease_owner is null or lease_owner = ? or lease_until < now())`,
      [holder, this.leaseSeconds, clientId, holder],
      'run',
    );
    return taken.affectedRows === 1;
  }

  async release(clientId: string, holder: string): Promise<void> {
    await this.orm.em
      .getConnection()
      .execute(
        `update sync_clients set lease_owner = null, lease_until = null where client_id = ? and lease_owner = ?`,
        [clientId, holder],
      );
  }

  /**
   * Runs one step of `runId`: reads Hiper's pages from `from` (the stored cursor when undefined; `skip` products of
   * the first already written) for up to SYNC_STEP_SECONDS, writes what differs, and moves the cursor past the pages
   * it wrote completely. Price and stock batches fill across pages, so only a step's last batch may be short.
   */
  async step(runId: string, position: { from?: number; skip?: number }): Promise<StepOutcome> {
    const em = this.orm.em.fork();
    const run = await em.findOne<Row>('SyncRun', { id: runId }, { populate: ['client'] as never });
    if (!run || !['queued', 'running'].includes(run.state)) return this.over(runId);
    const client = run.client as Row;
    if (!isConnected(client)) {
      await this.finish(em, run, 'failed', [
        { hiper_id: '', sku: null, message: 'Client is not connected to both platforms' },
      ]);
      return this.over(runId);
    }
    if (run.state === 'queued') {
      run.state = 'running';
      run.startedAt = new Date();
      client.syncState = 'running';
      await em.flush();
    }
    const cursors = await em.findOneOrFail(SyncClient, { client: client.id });
    const kind = run.kind as SyncKind;
    let from =
      position.from ?? (kind === 'full' ? 0 : Number(kind === 'stock' ? cursors.stockCursor : cursors.catalogueCursor));
    let skip = position.skip ?? 0;
    const connection = storeConnectionOf(client);
    const hiper = HiperClient.fromConfig(
      this.config,
      connection.hiperKey!,
      this.hiperTokens(client.id, connection.hiperKey!),
    );
    const store = this.nuvemshop.store(connection.storeId, connection.storeToken!);
    const tally: Tally = { created: 0, updated: 0, unchanged: 0, failed: 0, errors: [] };
    const work = new PageWork(em, store, client, kind, tally, this.cacheOf(runId));
    const deadline = Date.now() + this.config.SYNC_STEP_SECONDS * 1000;
    /** The cursor after the last page read completely in this step: stored once its batches are sent. */
    let written: number | null = null;
    let over = false;
    try {
      for (;;) {
        const page = await hiper.page(from);
        if (page.cursor === null) {
          over = true;
          break;
        }
        if (page.cursor <= from) throw new HiperCursorStuck(from, page.cursor);
        await work.load(page.products);
        let index = skip;
        for (; index < page.products.length && Date.now() <= deadline; index++) {
          const product = page.products[index];
          if (isGradeChild(product)) continue;
          await work.product(product);
          await work.flushStock(false);
        }
        if (index < page.products.length) {
          skip = index;
          break;
        }
        written = from = page.cursor;
        skip = 0;
        if (Date.now() > deadline) break;
      }
      await work.flushStock(true);
      await work.close();
      await this.record(em, run, tally, store.requests);
      if (written !== null) {
        // Forward only: a full run never moves a cursor back.
        const column = kind === 'stock' ? 'stock_cursor' : 'catalogue_cursor';
        await em
          .getConnection()
          .execute(`update sync_clients set ${column} = greatest(${column}, ?) where client_id = ?`, [
            written,
            client.id,
          ]);
      }
      if (over) {
        await this.finish(em, run, undefined, []);
        return this.over(runId);
      }
      return { next: { from, skip } };
    } catch (error) {
      // What was created before the failure is saved (a failing database leaves marks, looked up next time).
      await work.close().catch(() => undefined);
      await this.record(em, run, tally, store.requests);
      if (
        error instanceof TokenRevoked ||
        error instanceof StoreSuspended ||
        error instanceof HiperKeyRefused ||
        error instanceof HiperCursorStuck ||
        error instanceof PermissionMissing
      ) {
        const state =
          error instanceof TokenRevoked ? 'token_revoked' : error instanceof StoreSuspended ? 'suspended' : 'failed';
        await this.finish(em, run, 'failed', [{ hiper_id: '', sku: null, message: error.message }], state);
        return this.over(runId);
      }
      throw error;
    }
  }

  /**
   * Where a client's Hiper token is kept for every run in every process: encrypted, with the hash of the key it was
   * minted from, so a key changed by staff is never paired with its predecessor's token.
   */
  private hiperTokens(clientId: string, key: string): HiperTokenStore {
    return hiperTokenStore(this.orm, clientId, key);
  }

  private over(runId: string): StepOutcome {
    this.caches.delete(runId);
    return { done: true };
  }

  /** Adds a step's tallies to the run, so a running run's counts grow as batches are written. */
  private async record(em: Em, run: Row, tally: Tally, requests: number) {
    const errors = [...(run.errors as SyncRunError[]), ...tally.errors].slice(0, MAX_RUN_ERRORS);
    await em.getConnection().execute(
      `update sync_runs set created = created + ?, updated = updated + ?, unchanged = unchanged + ?, failed = failed + ?,
          requests = requests + ?, errors = ?::jsonb, updated_at = now() where id = ?`,
      [tally.created, tally.updated, tally.unchanged, tally.failed, requests, JSON.stringify(errors), run.id],
    );
    run.errors = errors;
    tally.created = tally.updated = tally.unchanged = tally.failed = 0;
    tally.errors = [];
  }

  /**
   * Ends a run: `failed` (with why), or `succeeded` / `partial` from its counts; the client goes back to `idle` (or the
   * state given), and `last_synced_at` is set.
   */
  async finish(em: Em, run: Row, state: 'failed' | undefined, errors: SyncRunError[], clientState?: string) {
    await em.refresh(run);
    const final = state ?? (run.failed > 0 ? 'partial' : 'succeeded');
    run.state = final;
    run.finishedAt = new Date();
    run.errors = [...errors, ...(run.errors as SyncRunError[])].slice(0, MAX_RUN_ERRORS);
    const client = run.client as Row;
    await em.refresh(client);
    client.syncState = clientState ?? (final === 'failed' ? 'failed' : 'idle');
    client.lastSyncedAt = new Date();
    await em.flush();
  }

  /** Ends a run that the job gave up on after its last retry (Hiper or Nuvemshop unreachable). */
  async abandon(runId: string, message: string): Promise<void> {
    const em = this.orm.em.fork();
    const run = await em.findOne<Row>('SyncRun', { id: runId }, { populate: ['client'] as never });
    if (run && ['queued', 'running'].includes(run.state))
      await this.finish(em, run, 'failed', [{ hiper_id: '', sku: null, message }]);
    this.caches.delete(runId);
  }
}

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
class PageWork {
  pending: PendingStock[] = [];
  /** Products waiting for their stock-price batch before they can be counted. */
  private waiting = new Map<string, { changed: boolean }>();
  /** The page's products' mappings and uploaded images, read in one query each. */
  private rows = new Map<string, SyncProduct>();
  private uploaded = new Map<string, SyncImage[]>();
  /** The page's variants' ProductLinks, by Hiper id. */
  private productLinks = new Map<string, Row>();
  /**
   * The page's products marked "creating" in one commit before any of their `POST /products`, whose call has not
   * been sent yet: their mappings and links are saved together at the page's end. A crash in between leaves marks,
   * and a marked product is looked up by its SKU before anything is created again.
   */
  private unsent = new Set<SyncProduct>();
  private readonly location: string | null;
  /** A unit of work per page: each flush compares only the page's rows, however long the run. */
  private em: Em;

  constructor(
    private readonly root: Em,
    private readonly store: NuvemshopStoreClient,
    private readonly client: Row,
    private readonly kind: SyncKind,
    private readonly tally: Tally,
    private readonly cache: RunCache,
  ) {
    this.location = storeConnectionOf(client).locationId;
    this.em = root.fork();
  }

  /** Reads the mappings, links (and, but for stock runs, uploaded images) of a page's products at once. */
  async load(products: HiperProduct[]): Promise<void> {
    const tops = products.filter((p) => !isGradeChild(p));
    const ids = tops.map((p) => p.id);
    await this.close();
    this.em = this.root.fork();
    this.rows.clear();
    this.uploaded.clear();
    this.productLinks.clear();
    if (!ids.length) return;
    for (const row of await this.em.find(SyncProduct, { client: this.client.id, hiperId: { $in: ids } }))
      this.rows.set(row.hiperId, row);
    const variantIds = tops.flatMap((p) => (p.variacao?.length ? p.variacao.map((v) => v.id) : [p.id]));
    for (const link of await this.em.find<Row>('ProductLink', { client: this.client.id, hiperId: { $in: variantIds } }))
      this.productLinks.set(link.hiperId, link);
    if (this.kind !== 'stock') {
      for (const image of await this.em.find(SyncImage, { client: this.client.id, hiperId: { $in: ids } }))
        this.uploaded.set(image.hiperId, [...(this.uploaded.get(image.hiperId) ?? []), image]);
      await this.markCreations(tops);
    }
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
      const marked = row ?? this.em.create(SyncProduct, { client: this.client.id as never, hiperId: p.id, sku });
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

  private stockFields(stock: number) {
    return this.location ? { inventory_levels: [{ location_id: this.location, stock }] } : { stock };
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
    this.tally.errors.push({ hiper_id: p.id, sku, message: error.message });
    return error.message;
  }

  async product(p: HiperProduct): Promise<void> {
    const desired = desiredOf(p);
    let row = this.rows.get(p.id) ?? null;
    if (this.kind === 'stock') {
      if (!isLinked(row)) return void this.tally.unchanged++;
      return this.update(p, row, desired, true);
    }
    if (isLinked(row)) return this.update(p, row, desired, false);
    if (!desired.published && !row) return void this.tally.unchanged++;
    const sku = desired.variants[0].sku;
    if (!row) {
      row = this.em.create(SyncProduct, { client: this.client.id as never, hiperId: p.id, sku });
      this.rows.set(p.id, row);
    }
    // Marked with the page's others: only its own creation is sent, so a refusal means nothing was created.
    const fresh = this.unsent.has(row);
    try {
      if (fresh) return await this.create(p, row, desired);
      if (row.creatingSince) {
        // A creation was sent and its answer lost (a crash, a timeout): the store is asked afresh, never the cache.
        const found = await this.store.findProductBySku(sku);
        if (found) return await this.adopt(p, row, desired, found);
        return await this.create(p, row, desired);
      }
      const matches = (await this.index()).get(sku) ?? [];
      if (matches.length > 1) throw new Refusal(`SKU ${sku} matches ${matches.length} products in the store`);
      if (matches.length === 1) {
        const found = await this.store.findProductBySku(sku);
        if (found) return await this.adopt(p, row, desired, found);
      }
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
  private async index(): Promise<Map<string, number[]>> {
    if (this.cache.skus) return this.cache.skus;
    const index = new Map<string, number[]>();
    for await (const page of this.store.products()) {
      for (const product of page) {
        for (const sku of new Set(product.variants.map((v) => v.sku).filter((s): s is string => !!s))) {
          index.set(sku, [...(index.get(sku) ?? []), product.id]);
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
      variants: desired.variants.map((v) => this.createdVariant(v)),
      ...(desired.images.length ? { images: desired.images.map((src, i) => ({ src, position: i + 1 })) } : {}),
      ...(categories ? { categories } : {}),
    });
    const created = hasIds(answer) ? answer : await this.readCreated(desired);
    this.cache.skus?.set(desired.variants[0].sku, [created.id]);
    const images = [...created.images].sort((a, b) => a.position - b.position);
    desired.images.forEach((source, i) => {
      if (images[i]) this.imageRow(p.id, source, created.id, images[i].id);
    });
    await this.linked(row, created, desired, true);
    this.tally.created++;
    if (this.location) {
      // The location's stock goes in the next stock-price batch; until then the new variants hold 0, never unlimited.
      for (const variant of row.written!.variants) {
        this.pending.push({
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
    throw new NuvemshopUnavailable('Nuvemshop answered a creation without the product’s ids');
  }

  /**
   * A variant of `POST /products`, which is not among the calls that take `inventory_levels` (they may be ignored,
   * leaving stock unmanaged, i.e. unlimited): always `stock`, and 0 when a location's stock is written afterwards, as
   * `stock` alone lands on the store's first location.
   */
  private createdVariant(v: Desired['variants'][number]): NewVariant {
    return { ...this.newVariant(v, true), inventory_levels: undefined, stock: this.location ? 0 : v.stock };
  }

  private newVariant(v: Desired['variants'][number], withDimensions: boolean): NewVariant {
    return {
      sku: v.sku,
      barcode: v.barcode,
      price: v.price,
      ...this.stockFields(v.stock),
      ...(v.values.length ? { values: v.values.map(inPortuguese) } : {}),
      ...(withDimensions ? v.dimensions : {}),
    };
  }

  /** The product exists in the store with this SKU: take it as ours, and write what differs from it. */
  private async adopt(p: HiperProduct, row: SyncProduct, desired: Desired, found: NuvemshopProduct) {
    const main = (text: Record<string, string> | string | undefined) =>
      typeof text === 'string' ? text : (text?.pt ?? Object.values(text ?? {})[0] ?? '');
    const written: WrittenProduct = {
      name: main(found.name),
      description: main(found.description),
      brand: found.brand,
      published: found.published,
      attributes: (found.attributes ?? []).map((a) => main(a)),
      variants: found.variants.map((v) => ({
        hiperId: desired.variants.find((d) => d.sku === v.sku)?.hiperId ?? `nuvemshop:${v.id}`,
        variantId: v.id,
        sku: v.sku ?? '',
        barcode: v.barcode,
        price: Number(v.price),
        stock: this.location
          ? (v.inventory_levels?.find((l) => l.location_id === this.location)?.stock ?? 0)
          : (v.stock ?? 0),
        values: (v.values ?? []).map((x) => main(x)),
      })),
    };
    row.nuvemshopProductId = String(found.id);
    row.creatingSince = null;
    row.written = written;
    // The product's images stand for Hiper's in order (ours when the product is one whose creation's answer was
    // lost): only images beyond those it has are uploaded, never a second copy.
    const images = [...found.images].sort((a, b) => a.position - b.position);
    const known = this.uploaded.get(p.id) ?? [];
    desired.images.forEach((source, i) => {
      if (images[i] && !known.some((k) => k.source === source))
        known.push(this.imageRow(p.id, source, found.id, images[i].id));
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
    const now = new Date();
    for (const v of desired.variants) {
      const variant = row.written?.variants.find((w) => w.hiperId === v.hiperId);
      const values = {
        sku: v.sku,
        name: desired.name.slice(0, 255),
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
          this.em.create<Row>('ProductLink', { client: this.client.id, hiperId: v.hiperId, ...values }),
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
            const created = await this.store.createVariant(productId, this.newVariant(v, dimensionsOn));
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
          this.pending.push({ row, written, variant: old, price: v.price, stock: v.stock, hiperProductId: p.id });
      }
      const waiting = this.pending.some((x) => x.row === row);
      if (waiting) this.waiting.set(p.id, { changed: true });
      else if (changed) this.tally.updated++;
      else this.tally.unchanged++;
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
      client: this.client.id as never,
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

  /**
   * Sends the gathered prices and stock in full batches of 50 variants (a product's variants may be split between
   * two), and with `all` the short rest too; a product is counted once all its variants are sent.
   */
  async flushStock(all: boolean): Promise<void> {
    while (this.pending.length >= STOCK_PRICE_BATCH || (all && this.pending.length > 0)) {
      await this.sendStock(this.pending.splice(0, STOCK_PRICE_BATCH));
    }
  }

  private async sendStock(batch: PendingStock[]): Promise<void> {
    const byProduct = new Map<number, StockPriceProduct>();
    for (const x of batch) {
      const id = Number(x.row.nuvemshopProductId);
      const entry = byProduct.get(id) ?? { id, variants: [] };
      entry.variants.push({ id: x.variant.variantId, price: x.price, ...this.stockFields(x.stock) });
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
      const stock = this.location
        ? held.inventory_levels?.find((l) => l.location_id === this.location)?.stock
        : held.stock;
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
   * Saves what was last written for several products in one statement: their rows may belong to an earlier page's
   * unit of work.
   */
  private async saveWritten(rows: SyncProduct[]): Promise<void> {
    if (!rows.length) return;
    await this.em.flush();
    await this.em.getConnection().execute(
      `update sync_products s set written = v.written
         from jsonb_to_recordset(?::jsonb) as v(id uuid, written jsonb) where s.id = v.id`,
      [JSON.stringify(rows.map((row) => ({ id: row.id, written: row.written })))],
    );
  }
}

/** A product this run will not write, for a reason of its own (several matches for its SKU). */
class Refusal extends PlatformError {
  constructor(message: string) {
    super(message, false);
  }
}
