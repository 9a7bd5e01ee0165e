import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import { storeConnectionOf } from '../resources/client.resource';
import type { ProductLinkState } from '../resources/product-link.resource';
import { MAX_RUN_ERRORS, type SyncKind, type SyncRunError } from '../resources/sync-run.resource';
import { HiperClient, HiperKeyRefused, isGradeChild, type HiperProduct } from './hiper.client';
import {
  NuvemshopClient,
  StoreSuspended,
  TokenRevoked,
  type NewVariant,
  type NuvemshopProduct,
  type NuvemshopStoreClient,
  type StockPriceProduct,
  type VariantChanges,
} from './nuvemshop.client';
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

/** How long one job writes before it hands the rest of its page to a continuation (well below its expiry). */
const STEP_SECONDS = 20;
/** A lease outlives a job's expiry, so a crashed job's client is free again when pg-boss retries it. */
const LEASE_SECONDS = 70;

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

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

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
  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
    private readonly nuvemshop: NuvemshopClient = NuvemshopClient.fromConfig(config),
  ) {}

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
      [holder, LEASE_SECONDS, clientId, holder],
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

  /** Runs one step of `runId` from Hiper's position `from` (the stored cursor when undefined), skipping `skip` products. */
  async step(runId: string, position: { from?: number; skip?: number }): Promise<StepOutcome> {
    const em = this.orm.em.fork();
    const run = await em.findOne<Row>('SyncRun', { id: runId }, { populate: ['client'] as never });
    if (!run || !['queued', 'running'].includes(run.state)) return { done: true };
    const client = run.client as Row;
    if (!isConnected(client)) {
      await this.finish(em, run, 'failed', [
        { hiper_id: '', sku: null, message: 'Client is not connected to both platforms' },
      ]);
      return { done: true };
    }
    if (run.state === 'queued') {
      run.state = 'running';
      run.startedAt = new Date();
      client.syncState = 'running';
      await em.flush();
    }
    const cursors = await em.findOneOrFail(SyncClient, { client: client.id });
    const kind = run.kind as SyncKind;
    const from =
      position.from ?? (kind === 'full' ? 0 : Number(kind === 'stock' ? cursors.stockCursor : cursors.catalogueCursor));
    const connection = storeConnectionOf(client);
    const hiper = HiperClient.fromConfig(this.config, connection.hiperKey!);
    const store = this.nuvemshop.store(connection.storeId, connection.storeToken!);
    const tally: Tally = { created: 0, updated: 0, unchanged: 0, failed: 0, errors: [] };
    try {
      const page = await hiper.page(from);
      if (page.cursor === null) {
        await this.finish(em, run, undefined, []);
        return { done: true };
      }
      const deadline = Date.now() + STEP_SECONDS * 1000;
      const work = new PageWork(em, store, client, kind, tally);
      const products = page.products;
      let index = position.skip ?? 0;
      for (; index < products.length; index++) {
        if (Date.now() > deadline) break;
        const product = products[index];
        if (isGradeChild(product)) continue;
        await work.product(product);
        if (work.pending.length >= 50) await work.flushStock();
      }
      await work.flushStock();
      await this.record(em, run, tally, store.requests);
      if (index < products.length) return { next: { from, skip: index } };
      // The page is written: only now does its cursor move (forward only; a full run never moves one back).
      const column = kind === 'stock' ? 'stock_cursor' : 'catalogue_cursor';
      await em
        .getConnection()
        .execute(`update sync_clients set ${column} = greatest(${column}, ?) where client_id = ?`, [
          page.cursor,
          client.id,
        ]);
      return { next: { from: page.cursor, skip: 0 } };
    } catch (error) {
      await this.record(em, run, tally, store.requests);
      if (error instanceof TokenRevoked || error instanceof StoreSuspended || error instanceof HiperKeyRefused) {
        const state =
          error instanceof TokenRevoked ? 'token_revoked' : error instanceof StoreSuspended ? 'suspended' : 'failed';
        await this.finish(em, run, 'failed', [{ hiper_id: '', sku: null, message: error.message }], state);
        return { done: true };
      }
      throw error;
    }
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
  }
}

/** The writes of one page: each product's differences, with price and stock gathered into shared batches. */
class PageWork {
  pending: PendingStock[] = [];
  /** Products waiting for their stock-price batch before they can be counted. */
  private waiting = new Map<string, { row: SyncProduct; changed: boolean }>();
  private categories?: Map<string, number>;
  private skuIndex?: Map<string, NuvemshopProduct[]>;
  private readonly location: string | null;

  constructor(
    private readonly em: Em,
    private readonly store: NuvemshopStoreClient,
    private readonly client: Row,
    private readonly kind: SyncKind,
    private readonly tally: Tally,
  ) {
    this.location = storeConnectionOf(client).locationId;
  }

  private stockFields(stock: number) {
    return this.location ? { inventory_levels: [{ location_id: this.location, stock }] } : { stock };
  }

  private fail(p: HiperProduct, sku: string | null, error: unknown) {
    if (
      !(error instanceof PlatformError) ||
      error.retryable ||
      error instanceof TokenRevoked ||
      error instanceof StoreSuspended
    )
      throw error;
    this.tally.failed++;
    this.tally.errors.push({ hiper_id: p.id, sku, message: error.message });
    return error.message;
  }

  async product(p: HiperProduct): Promise<void> {
    const desired = desiredOf(p);
    let row = await this.em.findOne(SyncProduct, { client: this.client.id, hiperId: p.id });
    const linked = !!row?.nuvemshopProductId && !!row.written;
    if (this.kind === 'stock') {
      if (!linked) return void this.tally.unchanged++;
      return this.update(p, row!, desired, true);
    }
    if (linked) return this.update(p, row!, desired, false);
    if (!desired.published && !row) return void this.tally.unchanged++;
    row ??= this.em.create(SyncProduct, {
      client: this.client.id as never,
      hiperId: p.id,
      sku: desired.variants[0].sku,
    });
    const sku = desired.variants[0].sku;
    try {
      const matches = (await this.index()).get(sku) ?? [];
      if (matches.length > 1) throw new Refusal(`SKU ${sku} matches ${matches.length} products in the store`);
      if (matches.length === 1) return await this.adopt(p, row, desired, matches[0]);
      await this.create(p, row, desired);
    } catch (error) {
      const message = this.fail(p, sku, error);
      await this.em.flush();
      await this.links(row, desired, 'failed', message);
    }
  }

  /** Every product of the store by SKU, read once per step when something may need creating. */
  private async index(): Promise<Map<string, NuvemshopProduct[]>> {
    if (this.skuIndex) return this.skuIndex;
    const index = new Map<string, NuvemshopProduct[]>();
    for await (const page of this.store.products()) {
      for (const product of page) {
        for (const sku of new Set(product.variants.map((v) => v.sku).filter((s): s is string => !!s))) {
          index.set(sku, [...(index.get(sku) ?? []), product]);
        }
      }
    }
    return (this.skuIndex = index);
  }

  private async categoryId(name: string): Promise<number> {
    if (!this.categories) {
      this.categories = new Map();
      for (const c of await this.store.listCategories()) {
        for (const text of Object.values(c.name)) this.categories.set(text.trim().toLowerCase(), c.id);
      }
    }
    const key = name.trim().toLowerCase();
    let id = this.categories.get(key);
    if (id === undefined) {
      id = (await this.store.createCategory({ name })).id;
      this.categories.set(key, id);
    }
    return id;
  }

  private async create(p: HiperProduct, row: SyncProduct, desired: Desired) {
    // The mark is saved before the call: a creation whose answer is lost is found by its SKU next time.
    row.creatingSince = new Date();
    await this.em.flush();
    const categories = desired.category ? [await this.categoryId(desired.category)] : undefined;
    const created = await this.store.createProduct({
      name: desired.name,
      description: desired.description,
      brand: desired.brand,
      published: desired.published,
      ...(desired.attributes.length ? { attributes: desired.attributes } : {}),
      variants: desired.variants.map((v) => this.newVariant(v, true)),
      ...(desired.images.length ? { images: desired.images.map((src, i) => ({ src, position: i + 1 })) } : {}),
      ...(categories ? { categories } : {}),
    });
    this.skuIndex?.set(desired.variants[0].sku, [created]);
    const images = [...created.images].sort((a, b) => a.position - b.position);
    desired.images.forEach((source, i) => {
      if (images[i])
        this.em.create(SyncImage, {
          client: this.client.id as never,
          hiperId: p.id,
          source,
          nuvemshopProductId: String(created.id),
          nuvemshopImageId: String(images[i].id),
        });
    });
    await this.linked(row, created, desired, true);
    this.tally.created++;
  }

  private newVariant(v: Desired['variants'][number], withDimensions: boolean): NewVariant {
    return {
      sku: v.sku,
      barcode: v.barcode,
      price: v.price,
      ...this.stockFields(v.stock),
      ...(v.values.length ? { values: v.values } : {}),
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
    await this.em.flush();
    await this.links(row, desired, desired.published ? 'linked' : 'unpublished', null);
  }

  /** One ProductLink per variant, as the product now stands. */
  private async links(row: SyncProduct, desired: Desired, state: ProductLinkState, error: string | null) {
    const existing = await this.em.find<Row>('ProductLink', {
      client: this.client.id,
      hiperId: { $in: desired.variants.map((v) => v.hiperId) },
    });
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
      const link = existing.find((l) => l.hiperId === v.hiperId);
      if (link) Object.assign(link, values);
      else this.em.create<Row>('ProductLink', { client: this.client.id, hiperId: v.hiperId, ...values });
    }
    await this.em.flush();
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
        if (Object.keys(changes).length) {
          await this.store.updateProduct(productId, changes);
          Object.assign(written, changes);
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
          if (!sameJson(old.values, v.values) && v.values.length) patch.values = v.values;
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
      if (waiting) this.waiting.set(p.id, { row, changed: true });
      else if (changed) this.tally.updated++;
      else this.tally.unchanged++;
      if (changed) await this.links(row, desired, desired.published ? 'linked' : 'unpublished', null);
    } catch (error) {
      const message = this.fail(p, desired.variants[0].sku, error);
      await this.save(row);
      await this.links(row, desired, 'failed', message);
    }
  }

  /** Uploads images not uploaded before and removes those Hiper no longer lists; an unchanged image costs nothing. */
  private async images(p: HiperProduct, row: SyncProduct, desired: Desired): Promise<boolean> {
    const productId = Number(row.nuvemshopProductId);
    const known = await this.em.find(SyncImage, { client: this.client.id, hiperId: p.id });
    let changed = false;
    for (const source of desired.images) {
      if (known.some((k) => k.source === source)) continue;
      const image = await this.store.addImage(productId, { src: source });
      this.em.create(SyncImage, {
        client: this.client.id as never,
        hiperId: p.id,
        source,
        nuvemshopProductId: String(productId),
        nuvemshopImageId: String(image.id),
      });
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
    return changed;
  }

  /** Saves what was last written at once, after each call that changed the store. */
  private async save(row: SyncProduct) {
    await this.em.flush();
    await this.em.nativeUpdate(SyncProduct, { id: row.id }, { written: row.written });
  }

  /** Sends the gathered prices and stock in batches of 50 variants, and counts the products they belong to. */
  async flushStock(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    if (pending.length) {
      const byProduct = new Map<number, StockPriceProduct>();
      for (const x of pending) {
        const id = Number(x.row.nuvemshopProductId);
        const entry = byProduct.get(id) ?? { id, variants: [] };
        entry.variants.push({ id: x.variant.variantId, price: x.price, ...this.stockFields(x.stock) });
        byProduct.set(id, entry);
      }
      const results = await this.store.updateStockPrice([...byProduct.values()]);
      const rows = new Set<SyncProduct>();
      for (const x of pending) {
        const result = results.find((r) => r.variantId === x.variant.variantId);
        if (result?.success) {
          x.variant.price = x.price;
          x.variant.stock = x.stock;
        } else {
          const waiting = this.waiting.get(x.hiperProductId);
          if (waiting) this.waiting.delete(x.hiperProductId);
          this.tally.failed++;
          this.tally.errors.push({
            hiper_id: x.hiperProductId,
            sku: x.variant.sku,
            message: result?.error ?? 'Nuvemshop did not report this variant',
          });
        }
        rows.add(x.row);
      }
      for (const row of rows) await this.save(row);
    }
    for (const { changed } of this.waiting.values()) {
      if (changed) this.tally.updated++;
      else this.tally.unchanged++;
    }
    this.waiting.clear();
  }
}

/** A product this run will not write, for a reason of its own (several matches for its SKU). */
class Refusal extends PlatformError {
  constructor(message: string) {
    super(message, false);
  }
}
