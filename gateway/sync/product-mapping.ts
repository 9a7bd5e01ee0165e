import { createHash } from 'node:crypto';
import { isGradeChild, type HiperProduct } from '../platforms/hiper.client';
import type { NewVariant, NuvemshopProduct } from '../platforms/nuvemshop.shapes';
import type { WrittenProduct, WrittenVariant } from './sync.entities';

/**
 * How a Hiper product is shown in the store: one Nuvemshop product, with a variant per grade child (or one variant of
 * its own code when it has no grade), its price, its stock in whole units, its dimensions and its images.
 */
export interface Desired {
  name: string;
  description: string;
  brand: string | null;
  published: boolean;
  category: string | null;
  attributes: string[];
  variants: DesiredVariant[];
  images: string[];
}

export type DesiredVariant = WrittenVariant & { dimensions: NonNullable<WrittenVariant['dimensions']> };

export const wholeUnits = (quantity: number | null | undefined) => Math.max(0, Math.floor(Number(quantity) || 0));

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

/**
 * Each variant's stock in an account's own words, by its Hiper id: whole units, and whether it is on sale there (an
 * inactive variation is 0 everywhere). What reservations are taken from and every location's level is read beside.
 */
export function figuresOf(p: HiperProduct): Map<string, { sku: string; stock: number; active: boolean }> {
  if (!p.variacao?.length)
    return new Map([[p.id, { sku: String(p.codigo), stock: wholeUnits(p.quantidadeEmEstoque), active: true }]]);
  return new Map(
    p.variacao.map((v) => [
      v.id,
      {
        sku: String(v.codigo),
        stock: v.variacaoAtiva ? wholeUnits(v.quantidadeEmEstoque) : 0,
        active: v.variacaoAtiva,
      },
    ]),
  );
}

/**
 * A stock location's own account's figures by SKU: a product (or variation) on sale there, in whole units; 0 for one
 * inactive or removed there. Grade children listed at the top level are their grade's variations, read with it.
 */
export function accountStockOf(products: readonly HiperProduct[]): Map<string, number> {
  const stock = new Map<string, number>();
  for (const p of products) {
    if (isGradeChild(p)) continue;
    const onSale = p.ativo !== false && !p.removido;
    if (!p.variacao?.length) stock.set(String(p.codigo), onSale ? wholeUnits(p.quantidadeEmEstoque) : 0);
    else
      for (const v of p.variacao)
        stock.set(String(v.codigo), onSale && v.variacaoAtiva ? wholeUnits(v.quantidadeEmEstoque) : 0);
  }
  return stock;
}

/** A text as a language object, as every example of Nuvemshop's attributes and values shows (stores here are in pt). */
export const inPortuguese = (text: string) => ({ pt: text });

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

export const sameJson = (a: unknown, b: unknown) =>
  JSON.stringify(canonical(a ?? null)) === JSON.stringify(canonical(b ?? null));

/** A variant's stock as the store takes it: on the client's location when it has one, else the plain `stock`. */
export const stockFields = (location: string | null, stock: number) =>
  location ? { inventory_levels: [{ location_id: location, stock }] } : { stock };

/** A variant as `POST /products/{id}/variants` takes it (dimensions only when the client has them written). */
export function newVariant(v: DesiredVariant, withDimensions: boolean, location: string | null): NewVariant {
  return {
    sku: v.sku,
    barcode: v.barcode,
    price: v.price,
    ...stockFields(location, v.stock),
    ...(v.values.length ? { values: v.values.map(inPortuguese) } : {}),
    ...(withDimensions ? v.dimensions : {}),
  };
}

/**
 * A variant of `POST /products`, which is not among the calls that take `inventory_levels` (they may be ignored,
 * leaving stock unmanaged, i.e. unlimited): always `stock`, and 0 when a location's stock is written afterwards (the
 * client's one location, or each of its locations), as `stock` alone lands on the store's first location.
 */
export function createdVariant(v: DesiredVariant, location: string | null, later = location !== null): NewVariant {
  return { ...newVariant(v, true, location), inventory_levels: undefined, stock: later ? 0 : v.stock };
}

/** The stock a store's variant holds: on the client's location when it has one, else its plain `stock`. */
export const heldStock = (variant: NuvemshopProduct['variants'][number], location: string | null) =>
  location ? variant.inventory_levels?.find((l) => l.location_id === location)?.stock : variant.stock;

/** A client's location as the store names it: our row's id, and the store's own id for it. */
export interface PlacedLocation {
  id: string;
  nuvemshopLocationId: string;
}

/** What a store's variant holds at each of the client's locations, by our location row's id (only those it lists). */
export function heldLevels(
  variant: NuvemshopProduct['variants'][number],
  locations: readonly PlacedLocation[],
): Record<string, number> {
  const levels: Record<string, number> = {};
  for (const location of locations) {
    const stock = variant.inventory_levels?.find((l) => l.location_id === location.nuvemshopLocationId)?.stock;
    if (typeof stock === 'number') levels[location.id] = stock;
  }
  return levels;
}

const mainText = (text: Record<string, string> | string | null | undefined) =>
  typeof text === 'string' ? text : (text?.pt ?? Object.values(text ?? {})[0] ?? '');

/**
 * A description's fingerprint: a store's catalogue is held by its fingerprints, not its texts, while a run lasts. It
 * is kept as what was written when it differs, so it is plain text PostgreSQL's jsonb takes (hex, no NUL).
 */
const fingerprint = (text: string) => `sha1:${createHash('sha1').update(text).digest('hex')}`;

/**
 * What adopting a product the store already sells needs of it, read once with the store's whole catalogue and kept
 * while the run lasts: texts in Portuguese (or the first language given), the description by its fingerprint, the
 * variants as they stand on the client's location, the images' ids in order.
 */
export interface StoreHolding {
  id: number;
  name: string;
  description: string;
  brand: string | null;
  published: boolean;
  attributes: string[];
  variants: {
    id: number;
    sku: string;
    barcode: string | null;
    price: number;
    stock: number;
    values: string[];
    /** At each of the client's locations, when it has location rows. */
    levels?: Record<string, number>;
  }[];
  images: number[];
}

export function holdingOf(
  product: NuvemshopProduct,
  location: string | null,
  locations?: readonly PlacedLocation[],
): StoreHolding {
  return {
    id: product.id,
    name: mainText(product.name),
    description: fingerprint(mainText(product.description)),
    brand: product.brand,
    published: product.published,
    attributes: (product.attributes ?? []).map((a) => mainText(a)),
    variants: product.variants.map((v) => ({
      id: v.id,
      sku: v.sku ?? '',
      barcode: v.barcode,
      price: Number(v.price),
      stock: heldStock(v, location) ?? 0,
      values: (v.values ?? []).map((x) => mainText(x)),
      ...(locations?.length ? { levels: heldLevels(v, locations) } : {}),
    })),
    images: [...product.images].sort((a, b) => a.position - b.position).map((image) => image.id),
  };
}

/**
 * What a product found in the store holds, as if we had written it: variants are matched to Hiper's by SKU (one
 * Hiper does not know is kept under the store's id). A description whose fingerprint is the desired one's counts as
 * written; another is written again.
 */
export function writtenOf(found: StoreHolding, desired: Desired): WrittenProduct {
  return {
    name: found.name,
    description: found.description === fingerprint(desired.description) ? desired.description : found.description,
    brand: found.brand,
    published: found.published,
    attributes: [...found.attributes],
    variants: found.variants.map((v) => ({
      hiperId: desired.variants.find((d) => d.sku === v.sku)?.hiperId ?? `nuvemshop:${v.id}`,
      variantId: v.id,
      sku: v.sku,
      barcode: v.barcode,
      price: v.price,
      stock: v.stock,
      values: [...v.values],
      ...(v.levels ? { levels: { ...v.levels } } : {}),
    })),
  };
}
