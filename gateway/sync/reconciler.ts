import type { MikroORM } from '@mikro-orm/postgresql';
import { entityFor } from '../kit/entity';
import { isGradeChild, type HiperClient, type HiperProduct } from '../platforms/hiper.client';
import { MAX_PER_PAGE, type NuvemshopStoreClient } from '../platforms/nuvemshop.client';
import { PageWriter, type RunCache, type SyncedClient } from './page-writer';
import { desiredOf, holdingOf } from './product-mapping';
import { emptyTally, type Tally } from './run-tally';
import type { RunLocation } from './stock-levels';
import { SyncProduct } from './sync.entities';
import { clientResource, storeConnectionOf } from '../clients/client.resource';
import {
  divergenceResource,
  type DivergenceEntity,
  type DivergenceKind,
  type DivergenceState,
} from './divergence.resource';

type Em = ReturnType<MikroORM['em']['fork']>;

/** The product attributes a reconciliation reads of the store: ~1 request per 200 products. */
export const RECONCILE_FIELDS = ['name', 'published', 'variants'] as const;

/** One difference found, before it is saved. */
interface Found {
  sku: string;
  location: string | null;
  kind: DivergenceKind;
  store: string | null;
  hiper: string | null;
  /** The Hiper product whose stock write repairs it (stock and price only). */
  repairs?: string;
  /** What Hiper says before the write (shown if the write fails): its own figure, not the store's after holds. */
  before?: string | null;
}

/** What a reconciliation did: products read in the store, and how many of its differences are open or repaired. */
export interface Reconciled {
  read: number;
  repaired: number;
  open: number;
  resolved: number;
}

const money = (n: number) => n.toFixed(2);
/** A side's value as its column keeps it (a product's name may be longer). */
const clip = (text: string | null) => (text === null ? null : text.length > 255 ? `${text.slice(0, 254)}…` : text);
/** Whether a product is published, as staff read it beside the other side's. */
const publishedText = (published: boolean) => (published ? 'publicado' : 'não publicado');
const keyOf = (d: { sku: string; location: string | null; kind: string }) => `${d.sku}\n${d.location ?? ''}\n${d.kind}`;

/**
 * Compares a client's store with Hiper, per SKU (and per location when it has locations): stock, price, promotional
 * price, published, a product on one side only. A stock or price the store holds differently from what the product
 * last wrote is taken as the store's, so the stock writer (`PageWriter`, as a stock run) writes Hiper's value back:
 * `repaired` once written. The rest is kept `open`; a difference not found again becomes `resolved`.
 */
export async function reconcile(
  root: Em,
  store: NuvemshopStoreClient,
  hiper: HiperClient,
  client: SyncedClient,
  tally: Tally,
  cache: RunCache,
  locations: readonly RunLocation[],
): Promise<Reconciled> {
  const products = await hiperCatalogue(hiper);
  const bySku = new Map<
    string,
    { product: HiperProduct; published: boolean; price: number; stock: number; name: string }
  >();
  for (const product of products.values()) {
    const desired = desiredOf(product);
    for (const v of desired.variants)
      if (v.sku)
        bySku.set(v.sku, {
          product,
          published: desired.published,
          price: v.price,
          stock: v.stock,
          name: desired.name,
        });
  }
  const em = root.fork();
  const rows = new Map<string, SyncProduct>();
  for (const row of await em.find(SyncProduct, { client: client.id, nuvemshopProductId: { $ne: null } }))
    rows.set(String(row.nuvemshopProductId), row);
  const location = locations.length ? null : storeConnectionOf(client).locationId;
  const placed = locations.length ? locations : undefined;
  const nuvemshopIdOf = new Map(locations.map((l) => [l.id, l.nuvemshopLocationId]));
  const found: Found[] = [];
  const seen = new Set<string>();
  let read = 0;
  for await (const page of store.products(MAX_PER_PAGE, RECONCILE_FIELDS)) {
    for (const product of page) {
      read++;
      const holding = holdingOf({ ...product, images: product.images ?? [] }, location, placed);
      const row = rows.get(String(product.id));
      for (const [i, v] of holding.variants.entries()) {
        const sku = v.sku;
        const hiperSide = sku ? bySku.get(sku) : undefined;
        if (!hiperSide) {
          found.push({
            sku: sku || `#${v.id}`,
            location: null,
            kind: 'only_in_store',
            store: holding.name,
            hiper: null,
          });
          continue;
        }
        seen.add(sku);
        if (holding.published !== hiperSide.published)
          found.push({
            sku,
            location: null,
            kind: 'published',
            store: publishedText(holding.published),
            hiper: publishedText(hiperSide.published),
          });
        const promotional = Number(product.variants[i].promotional_price ?? 0);
        if (promotional > 0)
          found.push({ sku, location: null, kind: 'promotional_price', store: money(promotional), hiper: null });
        const written = row?.written?.variants.find((w) => w.variantId === v.id || w.sku === sku);
        if (!row || !written) continue;
        const hiperId = hiperSide.product.id;
        if (v.price !== written.price || v.price !== hiperSide.price) {
          found.push({
            sku,
            location: null,
            kind: 'price',
            store: money(v.price),
            hiper: null,
            repairs: hiperId,
            before: money(hiperSide.price),
          });
          written.price = v.price;
        }
        if (!placed) {
          if (v.stock !== written.stock) {
            found.push({
              sku,
              location: null,
              kind: 'stock',
              store: String(v.stock),
              hiper: null,
              repairs: hiperId,
              before: String(hiperSide.stock),
            });
            written.stock = v.stock;
          }
          continue;
        }
        for (const [at, stock] of Object.entries(v.levels ?? {})) {
          if (written.levels?.[at] === undefined || written.levels[at] === stock) continue;
          found.push({
            sku,
            location: nuvemshopIdOf.get(at) ?? at,
            kind: 'stock',
            store: String(stock),
            hiper: null,
            repairs: hiperId,
          });
          written.levels[at] = stock;
        }
      }
    }
  }
  for (const [sku, side] of bySku)
    if (side.published && !seen.has(sku))
      found.push({ sku, location: null, kind: 'only_in_hiper', store: null, hiper: side.name });

  // What the store holds is what was last written: the stock writer writes Hiper's value over it.
  await em.flush();
  const repairs = [...new Set(found.flatMap((f) => (f.repairs ? [f.repairs] : [])))].map((id) => products.get(id)!);
  const failed = await repair(root, store, client, tally, cache, locations, repairs);
  const after = new Map<string, SyncProduct>();
  if (repairs.length)
    for (const row of await root
      .fork()
      .find(SyncProduct, { client: client.id, hiperId: { $in: repairs.map((p) => p.id) } }))
      after.set(row.hiperId, row);
  for (const f of found) {
    if (!f.repairs) continue;
    // Not written: what Hiper says, as its catalogue read said it.
    if (failed.has(f.repairs)) {
      f.hiper = f.before ?? null;
      continue;
    }
    const variant = after.get(f.repairs)?.written?.variants.find((w) => w.sku === f.sku);
    if (!variant) continue;
    const at = f.location === null ? null : locations.find((l) => l.nuvemshopLocationId === f.location)?.id;
    f.hiper =
      f.kind === 'price' ? money(variant.price) : String(at ? (variant.levels?.[at] ?? variant.stock) : variant.stock);
  }
  // Nothing to repair after all: the store held what Hiper says (a write the product had not yet recorded).
  const real = found.filter((f) => !f.repairs || failed.has(f.repairs) || f.store !== f.hiper);
  return save(root, client.id, real, failed, read);
}

/** Every product of the client's own Hiper account, read from cursor 0 (grade children belong to their parent). */
async function hiperCatalogue(hiper: HiperClient): Promise<Map<string, HiperProduct>> {
  const { products } = await hiper.readAll(0);
  return new Map(products.filter((product) => !isGradeChild(product)).map((product) => [product.id, product]));
}

/** The differing products written as a stock run writes them: which Hiper products failed. */
async function repair(
  root: Em,
  store: NuvemshopStoreClient,
  client: SyncedClient,
  tally: Tally,
  cache: RunCache,
  locations: readonly RunLocation[],
  products: HiperProduct[],
): Promise<Set<string>> {
  if (!products.length) return new Set();
  const own = emptyTally();
  const writer = new PageWriter(root, store, client, 'stock', own, cache, locations);
  for (let i = 0; i < products.length; i += MAX_PER_PAGE) {
    const page = products.slice(i, i + MAX_PER_PAGE);
    await writer.load(page);
    for (const product of page) {
      await writer.product(product);
      await writer.stock.flush(false);
    }
  }
  await writer.stock.flush(true);
  await writer.close();
  await writer.planner.settled(writer.stock.refused);
  tally.updated += own.updated;
  tally.failed += own.failed;
  tally.errors.push(...own.errors);
  return new Set(own.errors.map((e) => e.hiper_id));
}

/**
 * Saves what was found: a difference seen before keeps its first sighting; `repaired` when written, `open` otherwise;
 * an open one not found again is `resolved`.
 */
async function save(
  root: Em,
  clientId: string,
  found: Found[],
  failed: Set<string>,
  read: number,
): Promise<Reconciled> {
  const em = root.fork();
  const entity = entityFor(divergenceResource);
  const now = new Date();
  const known = new Map<string, DivergenceEntity>();
  for (const row of await em.find(entity, { client: clientId, state: { $in: ['open', 'repaired'] } }))
    known.set(keyOf({ sku: row.sku, location: row.locationId ?? null, kind: row.kind }), row);
  const result: Reconciled = { read, repaired: 0, open: 0, resolved: 0 };
  const kept = new Set<string>();
  for (const f of found) {
    const key = keyOf(f);
    if (kept.has(key)) continue;
    kept.add(key);
    const state: DivergenceState = f.repairs && !failed.has(f.repairs) ? 'repaired' : 'open';
    result[state]++;
    const values = { storeValue: clip(f.store), hiperValue: clip(f.hiper), state, lastSeen: now };
    const row = known.get(key);
    if (row && row.state === 'open') Object.assign(row, values);
    else
      em.create(entity, {
        client: em.getReference(entityFor(clientResource), clientId),
        sku: f.sku.slice(0, 64),
        locationId: f.location,
        kind: f.kind,
        firstSeen: now,
        ...values,
      });
  }
  for (const [key, row] of known)
    if (!kept.has(key) && row.state === 'open') {
      row.state = 'resolved';
      result.resolved++;
    }
  await em.flush();
  return result;
}
