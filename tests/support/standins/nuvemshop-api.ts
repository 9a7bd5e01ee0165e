import { createHash, createHmac, randomBytes } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listen } from './listen';
import { LocationRefusal, StoreLocations, type WebhookTarget } from './nuvemshop-locations';
import {
  fulfillmentOrdersFor,
  patchFulfillmentOrder,
  servedFulfillmentOrder,
  type FulfillmentOrder,
} from './nuvemshop-fulfillment';

/**
 * A stand-in for Nuvemshop's store API (`{base}/{store_id}/...`), serving exactly the calls the product makes and
 * refusing what the real one is known to refuse (tests/support/fixtures/nuvemshop-docs.ts has its documented answers).
 * Behaviour not yet confirmed against the real platform is an option.
 */

export type Languages = Record<string, string>;

export interface InventoryLevel {
  id: number;
  variant_id: number;
  location_id: string;
  stock: number | null;
}

export interface Variant {
  id: number;
  product_id: number;
  position: number;
  price: string | null;
  promotional_price: string | null;
  stock_management: boolean;
  stock: number | null;
  weight: string | null;
  width: string | null;
  height: string | null;
  depth: string | null;
  sku: string | null;
  barcode: string | null;
  mpn: string | null;
  age_group: string | null;
  gender: string | null;
  cost: string | null;
  values: Languages[];
  image_id: number | null;
  inventory_levels: InventoryLevel[];
  created_at: string;
  updated_at: string;
}

export interface Image {
  id: number;
  product_id: number;
  /** The CDN copy's address, never the one the image was sent with (see `sentSrc`). */
  src: string;
  position: number;
  alt: string[];
  created_at: string;
  updated_at: string;
}

export interface Category {
  id: number;
  name: Languages;
  description: Languages;
  handle: Languages;
  parent: number | null;
  subcategories: number[];
  seo_title: Languages;
  seo_description: Languages;
  created_at: string;
  updated_at: string;
}

export interface Product {
  id: number;
  name: Languages;
  description: Languages;
  handle: Languages;
  attributes: Languages[];
  published: boolean;
  free_shipping: boolean;
  requires_shipping: boolean;
  brand: string | null;
  seo_title: string | null;
  seo_description: string | null;
  video_url: string | null;
  tags: string;
  /** Category ids; the API answers them as category objects. */
  categories: number[];
  variants: Variant[];
  images: Image[];
  created_at: string;
  updated_at: string;
}

export interface Webhook {
  id: number;
  event: string;
  url: string;
  headers?: Record<string, string>;
  created_at: string;
  updated_at: string;
}

export interface Location {
  id: string;
  name: string;
  priority: number;
}

/** An order's line (`products[]`), as the documentation's order example shows it; prices are decimal texts. */
export interface OrderLine {
  id: number;
  product_id: number;
  variant_id: number;
  name: string;
  price: string;
  quantity: number;
  sku: string | null;
  barcode: string | null;
  variant_values: string[];
  weight: string;
  free_shipping: boolean;
  issues: { unclaimed_stock: number } | null;
}

/** An order as `GET /orders/{id}` answers it (the fields an ERP reads; others are left out). */
export interface StoreOrder {
  id: number;
  number: number;
  token: string;
  store_id: number;
  contact_email: string;
  contact_name: string;
  contact_phone: string | null;
  contact_identification: string | null;
  customer: { id: number; name: string; email: string; identification: string | null; phone: string | null } | null;
  shipping_address: {
    name: string;
    address: string;
    number: string;
    floor: string | null;
    locality: string;
    city: string;
    province: string;
    zipcode: string;
    country: string;
    phone: string | null;
  };
  billing_name: string | null;
  /** The 2025-03 Order API's buyer kind and, for a company, its names and state registration (IE). */
  billing_customer_type?: 'person' | 'company';
  billing_business_name?: string | null;
  billing_trade_name?: string | null;
  billing_state_registration?: string | null;
  billing_document_type?: string | null;
  billing_address: string | null;
  billing_number: string | null;
  billing_floor: string | null;
  billing_locality: string | null;
  billing_zipcode: string | null;
  billing_city: string | null;
  billing_province: string | null;
  billing_country: string | null;
  note: string | null;
  owner_note: string | null;
  subtotal: string;
  discount: string;
  discount_coupon: string;
  discount_gateway: string;
  total: string;
  currency: string;
  shipping_cost_customer: string;
  shipping_cost_owner: string;
  gateway: string;
  gateway_name: string;
  payment_details: { method: string | null; credit_card_company: string | null; installments: string | null };
  status: 'open' | 'closed' | 'cancelled';
  payment_status: 'authorized' | 'pending' | 'paid' | 'abandoned' | 'refunded' | 'voided';
  shipping_status: 'unpacked' | 'unfulfilled' | 'fulfilled' | 'unshipped' | 'shipped';
  shipping_tracking_number: string | null;
  shipping_tracking_url: string | null;
  cancel_reason: string | null;
  storefront: string;
  products: OrderLine[];
  created_at: string;
  updated_at: string;
  paid_at: string | null;
  shipped_at: string | null;
  cancelled_at: string | null;
}

/** What a test gives to seed an order: lines by variant, and anything else to override. */
export type OrderSeed = Partial<Omit<StoreOrder, 'products' | 'shipping_address'>> & {
  lines: { variant: Variant | number; quantity?: number; price?: string | number; sku?: string | null }[];
  shipping_address?: Partial<StoreOrder['shipping_address']>;
  /**
   * Split into one fulfillment order per location named, lines dealt out in turn; unless told, as Nuvemshop does: one
   * location when one can ship every line, else split by the locations' priority (nuvemshop-fulfillment.ts).
   */
  locations?: string[];
  /** Each fulfillment order's freight (`shipping.consumer_cost`; all on the first unless told), summed as the order's. */
  freights?: number[];
  /**
   * The Order API's shape it is served in: `2023` (default: freight in `shipping_cost_customer`) or `2025-03` (no
   * order-level shipping fields, freight only on the fulfillment orders' `shipping.consumer_cost`).
   */
  shape?: '2023' | '2025-03';
  /** The fulfillment orders' shipping type: `ship` (default), `pickup`, or `non-shippable` (a service, say). */
  shippingType?: 'ship' | 'pickup' | 'non-shippable';
};

/** Fields the 2025-03 Order API no longer has: freight lives on the fulfillment orders. */
const ORDER_LEVEL_SHIPPING = ['shipping_cost_customer', 'shipping_cost_owner'] as const;

export type { FulfillmentOrder } from './nuvemshop-fulfillment';

export interface Metafield {
  id: number;
  namespace: string;
  key: string;
  value: string;
  description: string | null;
  owner_resource: string;
  owner_id: number;
  created_at: string;
  updated_at: string;
}

/** What a store's order actions received, beyond the order's own fields: for tests to inspect. */
export interface OrderAction {
  orderId: number;
  action: 'fulfill' | 'cancel';
  body: Record<string, unknown>;
}

export interface BucketSettings {
  /** Requests the bucket holds: 40, or 400 on the Next and Evolution plans. */
  size: number;
  /** Requests it drains per second: 2, or 20 on those plans. */
  drainPerSecond: number;
}

/** One request the stand-in received, whatever it answered. */
export interface ReceivedRequest {
  store: number | null;
  method: string;
  /** The path after `/{store_id}`, e.g. `/products/123/variants`. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or the raw text when it was not JSON, or undefined when empty. */
  body: unknown;
  /** The contract call it matched, e.g. `PATCH /products/stock-price`; null for anything else. */
  route: string | null;
  status: number;
  at: number;
}

/** A failure to inject: the next `times` requests matching it get this instead of the real answer. */
export interface Fault {
  method?: string;
  /** Matched against the path after `/{store_id}`; a string must equal it. */
  path?: string | RegExp;
  store?: number;
  /** How many requests it applies to (1 unless told; Infinity for every one). */
  times?: number;
  /**
   * The status to answer, once the request has passed the User-Agent and token checks (a 429 also fills the bucket);
   * without it the request is served normally (after `delayMs`).
   */
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Waits this long before answering: longer than a client's timeout makes it give up. */
  delayMs?: number;
  /** Closes the connection without an answer. */
  drop?: boolean;
  /** Serves the request normally (its change applied) but answers this body instead, with the same status. */
  answerBody?: unknown;
}

/** Watches requests as they are served: see `NuvemshopApiStandIn.intercept`. */
export type Interceptor = (request: ReceivedRequest, phase: 'received' | 'served') => void | Promise<void>;

export interface NuvemshopApiOptions {
  /** The version segment the API is served under (`/v1` unless told). */
  basePath?: string;
  /** Each new store's bucket unless `addStore` says otherwise: 40 draining 2/s as documented. */
  bucket?: BucketSettings;
  /** What a page past the last answers: 200 `[]` (the default) or 404 `Last page is N` as some stores do. */
  pastLastPage?: 'empty' | 'not-found';
  /** Whether `Authorization: Bearer` is accepted besides `Authentication: bearer` (unverified; true). */
  acceptAuthorizationHeader?: boolean;
  /** `app-and-contact` (default) refuses a User-Agent without `(contact)`, such as fetch's own `node`. */
  userAgent?: 'present' | 'app-and-contact';
  /** `per_page` when a list call sends none (unverified: 30 per the old README). */
  defaultPerPage?: number;
  /** What `per_page` above 200 gets (unverified): a 422 (default) or silently 200. */
  perPageAbove200?: 'refuse' | 'clamp';
  /** Items a list query may reach (10,000 documented); past it the query is refused. */
  maxQueryItems?: number;
  /**
   * What that limit counts (unverified): how far a page reaches (`offset`, the default), or the query's matches
   * (`matches`: any page of a query matching more than the limit is refused, the first one included).
   */
  queryLimitCounts?: 'offset' | 'matches';
  /** Images a `POST /products` may carry inline (unverified; no limit unless told). */
  maxInlineImages?: number;
  /** A root category's `parent`: `null` in the docs, 0 as v1 is reported to answer (default 0). */
  rootCategoryParent?: null | 0;
  /** A second webhook for the same event and URL (unverified): accepted (default) or refused with 422. */
  duplicateWebhooks?: 'accept' | 'refuse';
  /** `published` and `visibility` in one body: refused with 422 (default, as reported since 2026-07-28) or accepted. */
  refuseBothPublishedAndVisibility?: boolean;
  /**
   * Whether `POST /products` applies its variants' `inventory_levels` (unverified: it is not among the calls the
   * multi-inventory guide lists, so by default they are ignored and a variant without `stock` is left unlimited).
   */
  createTakesInventoryLevels?: boolean;
  /**
   * What `PATCH /products/stock-price` answers (unverified): the per-variant report (default), the updated products,
   * or an empty object.
   */
  stockPriceAnswer?: 'per-variant' | 'products' | 'empty';
  /** Products a store may hold (100,000 documented). */
  maxProducts?: number;
  /** What one request costs in the bucket (unverified weights; 1 each unless told). */
  weigh?: (request: { method: string; route: string; body: unknown }) => number;
  /**
   * How `GET /orders` orders its results (unverified; by `created_at`, newest first unless told): never by
   * `updated_at`, as integrators report.
   */
  ordersOrder?: 'created-desc' | 'created-asc';
  /** The port on 127.0.0.1 (a free one unless told). */
  port?: number;
  /** Answers every request outside the API's path (pages of the demo's own); a 404 otherwise. */
  page?: http.RequestListener;
}

/** The scopes an app may be granted, of those the product's calls touch; a store's token has them all unless told. */
export const SCOPES = [
  'read_products',
  'write_products',
  'read_orders',
  'write_orders',
  'read_customers',
  'read_locations',
  'write_locations',
  'read_fulfillment_orders',
  'write_fulfillment_orders',
] as const;

/** The read scope an event's resource needs: "An app can only register events for scopes it was granted". */
const EVENT_SCOPES: Record<string, string> = {
  category: 'read_products',
  product: 'read_products',
  product_variant: 'read_products',
  order: 'read_orders',
  customer: 'read_customers',
  fulfillment_order: 'read_fulfillment_orders',
  location: 'read_locations',
};

const WEBHOOK_EVENTS = [
  'app/uninstalled',
  'app/suspended',
  'app/resumed',
  'category/created',
  'category/updated',
  'category/deleted',
  'customer/created',
  'customer/updated',
  'customer/deleted',
  ...[
    'created',
    'updated',
    'paid',
    'packed',
    'fulfilled',
    'cancelled',
    'custom_fields_updated',
    'edited',
    'pending',
    'voided',
    'unpacked',
  ].map((e) => `order/${e}`),
  'product/created',
  'product/updated',
  'product/deleted',
  'product_variant/custom_fields_updated',
  'domain/updated',
  'subscription/updated',
  'fulfillment/updated',
  'fulfillment_order/status_updated',
  'location/created',
  'location/updated',
  'location/deleted',
];

const MAX_VARIANTS = 1000;
const MAX_IMAGES = 250;
const MAX_ATTRIBUTES = 3;
const MAX_PER_PAGE = 200;
const STOCK_PRICE_BATCH = 50;
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const IMAGE_EXTENSIONS = /\.(gif|jpe?g|png|webp)$/i;

/** A page of a list and its paging headers, answered by a handler. */
class Listed {
  constructor(
    readonly body: unknown[],
    readonly headers: Record<string, string>,
  ) {}
}

/** An answer other than success, thrown by a handler. */
class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

const described = (status: number, message: string, description: string, extra: Record<string, unknown> = {}) =>
  new Answer(status, { code: status, message, description, ...extra });
const unprocessable = (description: string, extra?: Record<string, unknown>) =>
  described(422, 'Unprocessable Entity', description, extra);
const badRequest = (description: string) => described(400, 'Bad Request', description);
const notFound = (description: string) => described(404, 'Not Found', description);
/** A field map refusal, the other 422 shape: `{"name": ["can't be blank"]}`. */
const fieldErrors = (errors: Record<string, string[]>) => new Answer(422, errors);
/** The documented shape of a variant's validation errors. */
const validation = (errors: Record<string, string[]>) => unprocessable('Validation error', errors);
/** Nuvemshop's 403: the app lacks the call's scope (the body names none: unverified, and no kinder than that). */
const forbidden = () =>
  new Answer(403, { code: 403, message: 'Forbidden', description: 'You do not have access to this resource' });

const timestamp = () => new Date().toISOString().replace(/\.\d{3}Z$/, '+0000');

/** A stored date (`+0000`) as milliseconds; remembered, as sorting a big store asks for the same few seconds. */
const parsed = new Map<string, number>();
const when = (text: string) => {
  let at = parsed.get(text);
  if (at === undefined) parsed.set(text, (at = Date.parse(text.replace(/\+0000$/, 'Z'))));
  return at;
};

/** A list query's date filter (`created_at_min`...) as milliseconds, or undefined when not sent. */
const moment = (query: Record<string, string>, name: string) => {
  if (query[name] === undefined) return undefined;
  const at = Date.parse(query[name]);
  if (Number.isNaN(at)) throw unprocessable(`${name} must be a date in ISO 8601`);
  return at;
};

/** Whether a stored date falls between a filter's min and max, both included. */
const within = (text: string, min?: number, max?: number) =>
  (min === undefined || when(text) >= min) && (max === undefined || when(text) <= max);

const price = (p: Product) => Number(p.variants[0]?.price ?? 0);
const created = (a: Product, b: Product) => when(a.created_at) - when(b.created_at) || a.id - b.id;
const named = (a: Product, b: Product) => Object.values(a.name)[0]?.localeCompare(Object.values(b.name)[0] ?? '') ?? 0;
/**
 * `GET /products?sort_by=` as product.md lists it. No default is documented: without one, "user" (a hand-made order)
 * is served newest first, and ties in price or name newest first too, so nothing counts on ascending ids unasked.
 */
const PRODUCT_ORDERS: Record<string, (a: Product, b: Product) => number> = {
  user: (a, b) => created(b, a),
  'price-ascending': (a, b) => price(a) - price(b) || created(b, a),
  'price-descending': (a, b) => price(b) - price(a) || created(b, a),
  'alpha-ascending': (a, b) => named(a, b) || created(b, a),
  'alpha-descending': (a, b) => named(b, a) || created(b, a),
  'created-at-ascending': created,
  'created-at-descending': (a, b) => created(b, a),
  // The stand-in sells nothing: every product ties, newest first.
  'best-selling': (a, b) => created(b, a),
};
for (const [alias, of] of [
  ['cost-ascending', 'price-ascending'],
  ['cost-descending', 'price-descending'],
  ['name-ascending', 'alpha-ascending'],
  ['name-descending', 'alpha-descending'],
]) {
  PRODUCT_ORDERS[alias] = PRODUCT_ORDERS[of];
}

/** Ids past int32, as Nuvemshop's product ids already are. */
let nextId = 3_000_000_000;
const newId = () => ++nextId;

/** A ULID-like location id. */
const locationId = () => `01${randomBytes(12).toString('hex').toUpperCase().slice(0, 24)}`;

const slug = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A number written as a number or a decimal text, or undefined when it is neither. */
function decimal(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

/** One store: its token, its bucket, its catalogue, its webhooks. Seed and inspect it directly in tests. */
export class StandInStore {
  token: string;
  /** What the token was granted (`SCOPES` unless told): a call needing another answers 403. */
  scopes = new Set<string>(SCOPES);
  revoked = false;
  suspended = false;
  bucket: BucketSettings;
  languages = ['pt'];
  products: Product[] = [];
  categories: Category[] = [];
  webhooks: Webhook[] = [];
  locations: Location[] = [{ id: locationId(), name: 'Depósito', priority: 0 }];
  orders: StoreOrder[] = [];
  fulfillmentOrders = new Map<number, FulfillmentOrder[]>();
  /** Orders served in the 2025-03 Order API's shape. */
  newShape = new Set<number>();
  metafields: Metafield[] = [];
  orderActions: OrderAction[] = [];
  private nextOrderNumber = 100;
  /** What each image was sent with (its `src`, or `attachment:<filename>`), by image id. */
  sentSrc = new Map<number, string>();
  /** This store's `stock-price` answer shape, over the stand-in's `stockPriceAnswer`. */
  stockPriceAnswer?: NuvemshopApiOptions['stockPriceAnswer'];
  /** Variants that `stock-price` reports as failed, with the error it gives. */
  refuseInStockPrice = new Map<number, string>();
  /**
   * What `stock-price`'s limit of 50 counts (unverified): the elements sent (default, the stricter reading: one
   * element per location of a variant counts each) or the distinct variants. A variant's levels at several locations
   * are taken both ways, several in one element or one element per location.
   */
  stockPriceCounts: 'elements' | 'variants' = 'elements';
  info: Record<string, unknown>;
  /** The bucket's level and when it was last drained. */
  level = 0;
  levelAt = performance.now();
  /** The plan's limit of locations, their order and default, and the webhooks their changes send (./nuvemshop-locations). */
  readonly stockLocations: StoreLocations;

  constructor(
    readonly id: number,
    token: string,
    bucket: BucketSettings,
    private readonly options: Required<Pick<NuvemshopApiOptions, 'maxInlineImages' | 'maxProducts'>> &
      Pick<
        NuvemshopApiOptions,
        'rootCategoryParent' | 'refuseBothPublishedAndVisibility' | 'createTakesInventoryLevels'
      > & { webhookTarget?: () => WebhookTarget | undefined },
  ) {
    this.token = token;
    this.bucket = bucket;
    this.stockLocations = new StoreLocations(this, options.webhookTarget ?? (() => undefined), deliverWebhook);
    this.info = {
      id,
      name: { pt: `Loja ${id}` },
      description: { pt: '' },
      email: `loja${id}@example.com`,
      contact_email: `contato${id}@example.com`,
      country: 'BR',
      main_language: 'pt',
      languages: { pt: { currency: 'BRL', active: true } },
      main_currency: 'BRL',
      plan_name: 'basic',
      business_name: `Loja ${id} Ltda`,
      business_id: '12.345.678/0001-90',
      business_address: 'Rua das Flores, 100, Centro, Florianópolis - SC, 88010-000',
      address: 'Rua das Flores, 100',
      phone: '+55 48 3000-0000',
      original_domain: `loja${id}.lojavirtualnuvem.com.br`,
      url_with_protocol: `https://loja${id}.lojavirtualnuvem.com.br`,
      created_at: timestamp(),
    };
  }

  product(id: number): Product | undefined {
    return this.products.find((p) => p.id === id);
  }

  /** Whether the token may do what `scope` allows: a write scope implies its read scope. */
  grants(scope: string): boolean {
    return this.scopes.has(scope) || (scope.startsWith('read_') && this.scopes.has(scope.replace(/^read_/, 'write_')));
  }

  /** Every variant of the store, with its product. */
  get variants(): Variant[] {
    return this.products.flatMap((p) => p.variants);
  }

  variant(id: number): Variant | undefined {
    return this.variants.find((v) => v.id === id);
  }

  /**
   * Adds a product as `POST /products` would (same body, same checks), without a request; created `at` if told. Ids
   * grow as products are made: seed the older first.
   */
  seedProduct(body: Record<string, unknown>, at?: string): Product {
    const product = this.createProduct(body);
    if (at) product.created_at = product.updated_at = at;
    return product;
  }

  /** Adds a category as `POST /categories` would. */
  seedCategory(name: string, parent: number | null = null): Category {
    return this.createCategory({ name, parent });
  }

  /** Adds a location (multi-inventory); existing variants get a level there with no stock. */
  addLocation(name: string): Location {
    this.stockLocations.admit();
    const location = { id: locationId(), name, priority: Math.max(-1, ...this.locations.map((l) => l.priority)) + 1 };
    this.locations.push(location);
    for (const variant of this.variants) {
      variant.inventory_levels.push({
        id: newId(),
        variant_id: variant.id,
        location_id: location.id,
        stock: variant.stock_management ? 0 : null,
      });
    }
    return location;
  }

  /** The variants' levels at a location the store deleted. */
  dropLevelsAt(locationId: string): void {
    for (const variant of this.variants) {
      variant.inventory_levels = variant.inventory_levels.filter((level) => level.location_id !== locationId);
    }
  }

  // --- what the routes do ---

  text(value: unknown): Languages {
    if (typeof value === 'string') return Object.fromEntries(this.languages.map((l) => [l, value]));
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v ?? '')]));
    return Object.fromEntries(this.languages.map((l) => [l, '']));
  }

  private main(text: Languages): string {
    return text[this.languages[0]] ?? Object.values(text)[0] ?? '';
  }

  createProduct(body: Record<string, unknown>): Product {
    if (this.products.length >= this.options.maxProducts) {
      throw unprocessable(`Store has reached maximum limit of ${this.options.maxProducts} allowed products`);
    }
    const name = this.text(body.name);
    if (!this.main(name).trim()) throw fieldErrors({ name: ["can't be blank"] });
    const attributes = Array.isArray(body.attributes) ? body.attributes.map((a) => this.text(a)) : [];
    if (attributes.length > MAX_ATTRIBUTES) {
      throw unprocessable(`A product cannot have more than ${MAX_ATTRIBUTES} attributes`);
    }
    const now = timestamp();
    const product: Product = {
      id: newId(),
      name,
      description: this.text(body.description ?? ''),
      handle: Object.fromEntries(Object.entries(name).map(([l, v]) => [l, slug(v)])),
      attributes,
      published: true,
      free_shipping: false,
      requires_shipping: true,
      brand: null,
      seo_title: null,
      seo_description: null,
      video_url: null,
      tags: '',
      categories: [],
      variants: [],
      images: [],
      created_at: now,
      updated_at: now,
    };
    this.applyProductFields(product, body);
    const variants = Array.isArray(body.variants) && body.variants.length > 0 ? body.variants : [{}];
    if (variants.length > MAX_VARIANTS) {
      throw unprocessable(`Product is not allowed to have more than ${MAX_VARIANTS} variants`);
    }
    for (const input of variants) {
      const fields = isObject(input) ? { ...input } : {};
      if (!this.options.createTakesInventoryLevels) delete fields.inventory_levels;
      product.variants.push(this.newVariant(product, fields));
    }
    this.refuseRepeatedValues(product.variants);
    const images = Array.isArray(body.images) ? body.images : [];
    if (images.length > this.options.maxInlineImages) {
      throw unprocessable(`A product can be created with at most ${this.options.maxInlineImages} images`);
    }
    if (images.length > MAX_IMAGES) {
      throw unprocessable(`Product is not allowed to have more than ${MAX_IMAGES} images`);
    }
    const pending = images.map((input) => this.checkImage(product.id, isObject(input) ? input : {}));
    for (const image of pending) this.placeImage(product, image);
    this.products.push(product);
    return product;
  }

  private applyProductFields(product: Product, body: Record<string, unknown>) {
    if ('published' in body && 'visibility' in body && this.options.refuseBothPublishedAndVisibility) {
      throw unprocessable("Cannot send both 'published' and 'visibility'");
    }
    if (body.name !== undefined) {
      const name = this.text(body.name);
      if (!this.main(name).trim()) throw fieldErrors({ name: ["can't be blank"] });
      product.name = name;
    }
    if (body.description !== undefined) product.description = this.text(body.description);
    if (body.attributes !== undefined && product.variants.length > 0) {
      // On an existing product (unverified): the axes change, and each variant's values must be made to match them.
      if (!Array.isArray(body.attributes)) throw fieldErrors({ attributes: ['must be a list'] });
      if (body.attributes.length > MAX_ATTRIBUTES) {
        throw unprocessable(`A product cannot have more than ${MAX_ATTRIBUTES} attributes`);
      }
      product.attributes = body.attributes.map((a) => this.text(a));
    }
    if (body.brand !== undefined) product.brand = body.brand === null || body.brand === '' ? null : String(body.brand);
    if (typeof body.published === 'boolean') product.published = body.published;
    if (body.visibility !== undefined) product.published = body.visibility === 'visible';
    if (typeof body.free_shipping === 'boolean') product.free_shipping = body.free_shipping;
    if (typeof body.tags === 'string') product.tags = body.tags;
    if (body.seo_title !== undefined) {
      if (String(body.seo_title).length > 70) throw fieldErrors({ seo_title: ['is too long (maximum is 70)'] });
      product.seo_title = String(body.seo_title);
    }
    if (body.seo_description !== undefined) {
      if (String(body.seo_description).length > 320) {
        throw fieldErrors({ seo_description: ['is too long (maximum is 320)'] });
      }
      product.seo_description = String(body.seo_description);
    }
    if (body.video_url !== undefined && body.video_url !== null) {
      if (!String(body.video_url).startsWith('https://')) throw fieldErrors({ video_url: ['must be https'] });
      product.video_url = String(body.video_url);
    }
    if (body.categories !== undefined) {
      if (!Array.isArray(body.categories)) throw fieldErrors({ categories: ['must be a list of category ids'] });
      const ids = body.categories.map((c) => (isObject(c) ? Number(c.id) : Number(c)));
      const unknown = ids.filter((id) => !this.categories.some((c) => c.id === id));
      if (unknown.length > 0) throw fieldErrors({ categories: [`unknown category ids: ${unknown.join(', ')}`] });
      product.categories = ids;
    }
  }

  /** `PUT /products/{id}`: merges what it names; prices, stock and variants here are ignored, as the platform does. */
  updateProduct(product: Product, body: Record<string, unknown>): Product {
    const next = structuredClone(product);
    this.applyProductFields(next, body);
    next.updated_at = timestamp();
    return Object.assign(product, next);
  }

  private newVariant(product: Product, input: Record<string, unknown>): Variant {
    const now = timestamp();
    const variant: Variant = {
      id: newId(),
      product_id: product.id,
      position: product.variants.length + 1,
      price: null,
      promotional_price: null,
      stock_management: false,
      stock: null,
      weight: '0.000',
      width: '0.00',
      height: '0.00',
      depth: '0.00',
      sku: null,
      barcode: null,
      mpn: null,
      age_group: null,
      gender: null,
      cost: null,
      values: [],
      image_id: null,
      inventory_levels: [],
      created_at: now,
      updated_at: now,
    };
    variant.inventory_levels = this.locations.map((l) => ({
      id: newId(),
      variant_id: variant.id,
      location_id: l.id,
      stock: null,
    }));
    this.applyVariantFields(product, variant, input);
    if (!('values' in input) && product.attributes.length > 0) {
      throw unprocessable('The values has the wrong number of elements');
    }
    return variant;
  }

  /** Checks and applies a variant's fields; nothing changes when one is wrong. */
  applyVariantFields(product: Product, variant: Variant, input: Record<string, unknown>): void {
    const errors: Record<string, string[]> = {};
    const next = structuredClone(variant);
    for (const field of ['price', 'promotional_price', 'cost'] as const) {
      if (!(field in input)) continue;
      const value = input[field];
      if (value === null || value === '') {
        next[field] = null;
        continue;
      }
      const n = decimal(value);
      if (n === undefined) errors[field] = [`The ${field.replace('_', ' ')} must be a number.`];
      else if (n < 0) errors[field] = [`The ${field.replace('_', ' ')} must be at least 0.`];
      else next[field] = n.toFixed(2);
    }
    for (const [field, digits] of [
      ['weight', 3],
      ['width', 2],
      ['height', 2],
      ['depth', 2],
    ] as const) {
      if (!(field in input)) continue;
      const n = decimal(input[field]);
      if (n === undefined || n < 0) errors[field] = [`The ${field} must be a number of at least 0.`];
      else next[field] = n.toFixed(digits);
    }
    for (const field of ['sku', 'barcode', 'mpn'] as const) {
      if (field in input) next[field] = input[field] === null ? null : String(input[field]);
    }
    if ('age_group' in input && input.age_group !== null) {
      if (!['newborn', 'infant', 'toddler', 'kids', 'adult'].includes(String(input.age_group))) {
        throw unprocessable('The selected age group is invalid');
      }
      next.age_group = String(input.age_group);
    }
    if ('gender' in input && input.gender !== null) {
      if (!['female', 'male', 'unisex'].includes(String(input.gender))) {
        throw unprocessable('The selected gender is invalid');
      }
      next.gender = String(input.gender);
    }
    if ('values' in input) {
      const values = Array.isArray(input.values) ? input.values.map((v) => this.text(v)) : [];
      if (values.length !== product.attributes.length) {
        throw unprocessable('The values has the wrong number of elements');
      }
      next.values = values;
    }
    if ('image_id' in input) {
      if (input.image_id !== null && !product.images.some((i) => i.id === Number(input.image_id))) {
        errors.image_id = ['The selected image id is invalid.'];
      } else next.image_id = input.image_id === null ? null : Number(input.image_id);
    }
    const stockError = this.applyStock(next, input);
    if (stockError) errors[stockError[0]] = [stockError[1]];
    if (Object.keys(errors).length > 0) throw validation(errors);
    next.updated_at = timestamp();
    Object.assign(variant, next);
  }

  /** Stock in whole units, on the first location unless `inventory_levels` names them; `inventory_levels` wins. */
  private applyStock(variant: Variant, input: Record<string, unknown>): [string, string] | undefined {
    if (Array.isArray(input.inventory_levels)) {
      for (const level of input.inventory_levels) {
        if (!isObject(level)) return ['inventory_levels', 'Each inventory level needs a location_id and a stock.'];
        const target = variant.inventory_levels.find((l) => l.location_id === level.location_id);
        if (!target) return ['inventory_levels', `The location ${String(level.location_id)} does not exist.`];
        if (level.stock !== null && !Number.isInteger(level.stock)) return ['stock', 'The stock must be an integer.'];
        target.stock = level.stock as number | null;
      }
      variant.stock_management = variant.inventory_levels.some((l) => l.stock !== null);
    } else if ('stock' in input) {
      const stock = input.stock;
      if (stock === null || stock === '') {
        variant.stock_management = false;
        for (const level of variant.inventory_levels) level.stock = null;
      } else if (typeof stock !== 'number' || !Number.isInteger(stock)) {
        return ['stock', 'The stock must be an integer.'];
      } else {
        variant.stock_management = true;
        const [first, ...others] = variant.inventory_levels;
        first.stock = stock;
        for (const level of others) level.stock ??= 0;
      }
    } else return undefined;
    variant.stock = variant.stock_management
      ? variant.inventory_levels.reduce((sum, l) => sum + (l.stock ?? 0), 0)
      : null;
    return undefined;
  }

  private combination(variant: Pick<Variant, 'values'>): string {
    return JSON.stringify(variant.values.map((v) => this.main(v).trim().toLowerCase()));
  }

  /** 422 when two variants of a product have the same values. */
  private refuseRepeatedValues(variants: Variant[], description = 'Variants cannot be repeated') {
    const seen = new Map<string, number>();
    const repeated: number[] = [];
    for (const v of variants) {
      const key = this.combination(v);
      if (seen.has(key)) repeated.push(seen.get(key)!, v.id);
      else seen.set(key, v.id);
    }
    if (repeated.length > 0) throw unprocessable(description, { duplicate_variant_ids: [...new Set(repeated)] });
  }

  addVariant(product: Product, input: Record<string, unknown>): Variant {
    if (product.variants.length >= MAX_VARIANTS) {
      throw unprocessable(`Product is not allowed to have more than ${MAX_VARIANTS} variants`);
    }
    const variant = this.newVariant(product, input);
    this.refuseRepeatedValues([...product.variants, variant]);
    product.variants.push(variant);
    product.updated_at = timestamp();
    return variant;
  }

  /** `PATCH /products/{id}/variants`: updates the named variants, all or none; never adds or removes one. */
  patchVariants(product: Product, body: unknown): Variant[] {
    if (!Array.isArray(body) || body.length === 0) throw badRequest('Invalid input format');
    const ids = body.map((v) => (isObject(v) ? Number(v.id) : NaN));
    const strangers = ids.filter((id) => !product.variants.some((v) => v.id === id));
    if (strangers.length > 0) {
      throw unprocessable('Variants must exist and belong to the product', {
        invalid_variant_ids: strangers.map((id) => (Number.isNaN(id) ? null : id)),
      });
    }
    const repeatedIds = ids.filter((id, i) => ids.indexOf(id) !== i);
    if (repeatedIds.length > 0) {
      throw unprocessable('Variants cannot be repeated', { duplicate_variant_ids: [...new Set(repeatedIds)] });
    }
    const draft = product.variants.map((v) => structuredClone(v));
    for (const input of body as Record<string, unknown>[]) {
      const { id: _id, ...fields } = input;
      this.applyVariantFields(
        product,
        draft.find((v) => v.id === Number(input.id))!,
        fields,
      );
    }
    this.refuseRepeatedValues(draft);
    product.variants = draft;
    product.updated_at = timestamp();
    return product.variants;
  }

  /** `PUT /products/{id}/variants`: the body becomes the whole collection, matched by values; the rest is deleted. */
  replaceVariants(product: Product, body: unknown): Variant[] {
    if (!Array.isArray(body)) throw badRequest('Invalid input format');
    if (body.length === 0) throw badRequest('There must be at least one variant');
    if (body.length > MAX_VARIANTS) {
      throw unprocessable(`Product is not allowed to have more than ${MAX_VARIANTS} variants.`);
    }
    const next: Variant[] = [];
    for (const input of body) {
      if (!isObject(input)) throw badRequest('Invalid input format');
      if (product.attributes.length > 0 && (!Array.isArray(input.values) || input.values.length === 0)) {
        throw badRequest('Variant values should not be empty');
      }
      const values = Array.isArray(input.values) ? input.values.map((v) => this.text(v)) : [];
      const existing = product.variants.find((v) => this.combination(v) === this.combination({ values }));
      if (existing) {
        const copy = structuredClone(existing);
        this.applyVariantFields(product, copy, input);
        next.push(copy);
      } else {
        next.push(this.newVariant(product, input));
      }
    }
    this.refuseRepeatedValues(next, 'Variant values should not be repeated');
    next.forEach((v, i) => (v.position = i + 1));
    product.variants = next;
    product.updated_at = timestamp();
    return product.variants;
  }

  deleteVariant(product: Product, variantId: number) {
    const variant = product.variants.find((v) => v.id === variantId);
    if (!variant) throw notFound('Variant with such id does not exist');
    // Unverified: the platform keeps at least one variant per product.
    if (product.variants.length === 1) throw unprocessable('A product must have at least one variant');
    product.variants = product.variants.filter((v) => v !== variant);
    product.updated_at = timestamp();
  }

  /** `PATCH /products/stock-price`: price and stock of up to 50 variants across products, reported per variant. */
  stockPrice(body: unknown) {
    if (!Array.isArray(body) || body.some((p) => !isObject(p) || !Array.isArray(p.variants))) {
      throw badRequest('Invalid input format');
    }
    const entries = body as { id: unknown; variants: unknown[] }[];
    const count =
      this.stockPriceCounts === 'variants'
        ? new Set(entries.flatMap((p) => p.variants.map((v) => `${String(p.id)}:${String(isObject(v) && v.id)}`))).size
        : entries.reduce((sum, p) => sum + p.variants.length, 0);
    if (count > STOCK_PRICE_BATCH) throw unprocessable('Too many variants sent for update');
    for (const p of entries) {
      for (const v of p.variants) {
        if (!isObject(v)) throw badRequest('Invalid input format');
        const stock = v.stock;
        if (stock !== undefined && stock !== null && stock !== '' && !Number.isInteger(stock)) {
          throw validation({ stock: ['The stock must be an integer.'] });
        }
      }
    }
    return entries.map((entry) => {
      const product = this.product(Number(entry.id));
      return {
        id: entry.id,
        variants: (entry.variants as Record<string, unknown>[]).map((input) => {
          const variant = product?.variants.find((v) => v.id === Number(input.id));
          if (!product) return { id: input.id, success: false, error: 'Product not found' };
          if (!variant) return { id: input.id, success: false, error: 'Variant not found' };
          const refusal = this.refuseInStockPrice.get(variant.id);
          if (refusal) return { id: input.id, success: false, error: refusal };
          const fields: Record<string, unknown> = {};
          for (const key of ['price', 'promotional_price', 'stock', 'inventory_levels']) {
            if (key in input) fields[key] = input[key];
          }
          try {
            this.applyVariantFields(product, variant, fields);
            product.updated_at = timestamp();
            return { id: input.id, success: true };
          } catch (error) {
            const body = error instanceof Answer ? (error.body as Record<string, unknown>) : {};
            return { id: input.id, success: false, error: String(body.description ?? 'Invalid variant') };
          }
        }),
      };
    });
  }

  /** Checks an image body; answers what to place, without placing it. */
  private checkImage(productId: number, input: Record<string, unknown>) {
    const hasSrc = typeof input.src === 'string' && input.src !== '';
    const hasAttachment = typeof input.attachment === 'string' && input.attachment !== '';
    if (hasSrc === hasAttachment) throw fieldErrors({ src: ['either src or attachment (with filename) is required'] });
    let name: string;
    let sent: string;
    if (hasSrc) {
      let url: URL;
      try {
        url = new URL(String(input.src));
      } catch {
        throw fieldErrors({ src: ['is not a valid URL'] });
      }
      if (!['http:', 'https:'].includes(url.protocol)) throw fieldErrors({ src: ['is not a valid URL'] });
      name = url.pathname.split('/').pop() ?? '';
      sent = String(input.src);
    } else {
      if (typeof input.filename !== 'string' || !input.filename) {
        throw fieldErrors({ filename: ["can't be blank"] });
      }
      if (Buffer.from(String(input.attachment), 'base64').length >= MAX_IMAGE_BYTES) {
        throw unprocessable('The image must be smaller than 10 MB');
      }
      name = input.filename;
      sent = `attachment:${input.filename}`;
    }
    if (!IMAGE_EXTENSIONS.test(name)) throw unprocessable('The image must be a .gif, .jpg, .png or .webp file');
    const position = input.position === undefined ? undefined : Number(input.position);
    if (position !== undefined && (!Number.isInteger(position) || position < 1)) {
      throw fieldErrors({ position: ['must be a whole number of at least 1'] });
    }
    const hash = createHash('sha1').update(`${productId}:${sent}:${newId()}`).digest('hex').slice(0, 12);
    const base = slug(name.replace(IMAGE_EXTENSIONS, '')) || 'image';
    const store = String(this.id).padStart(6, '0');
    const src = `https://d26lpennugtm8s.cloudfront.net/stores/${store.slice(0, 3)}/${store.slice(3)}/products/${base}-${hash}-640-0.jpg`;
    return { src, sent, position };
  }

  private placeImage(product: Product, { src, sent, position }: { src: string; sent: string; position?: number }) {
    const now = timestamp();
    const image: Image = {
      id: newId(),
      product_id: product.id,
      src,
      position: 0,
      alt: [],
      created_at: now,
      updated_at: now,
    };
    const at = Math.min(position ?? product.images.length + 1, product.images.length + 1);
    product.images.splice(at - 1, 0, image);
    product.images.forEach((img, i) => (img.position = i + 1));
    this.sentSrc.set(image.id, sent);
    return image;
  }

  addImage(product: Product, input: Record<string, unknown>): Image {
    if (product.images.length >= MAX_IMAGES) {
      throw unprocessable(`Product is not allowed to have more than ${MAX_IMAGES} images`);
    }
    const image = this.placeImage(product, this.checkImage(product.id, input));
    product.updated_at = timestamp();
    return image;
  }

  updateImage(product: Product, imageId: number, input: Record<string, unknown>): Image {
    const image = product.images.find((i) => i.id === imageId);
    if (!image) throw notFound('Image with such id does not exist');
    if (input.src !== undefined) {
      const checked = this.checkImage(product.id, { src: input.src });
      image.src = checked.src;
      this.sentSrc.set(image.id, checked.sent);
    }
    if (input.position !== undefined) {
      const position = Number(input.position);
      if (!Number.isInteger(position) || position < 1) {
        throw fieldErrors({ position: ['must be a whole number of at least 1'] });
      }
      product.images = product.images.filter((i) => i !== image);
      product.images.splice(Math.min(position, product.images.length + 1) - 1, 0, image);
      product.images.forEach((img, i) => (img.position = i + 1));
    }
    image.updated_at = timestamp();
    return image;
  }

  deleteImage(product: Product, imageId: number) {
    const image = product.images.find((i) => i.id === imageId);
    if (!image) throw notFound('Image with such id does not exist');
    product.images = product.images.filter((i) => i !== image);
    product.images.forEach((img, i) => (img.position = i + 1));
    for (const variant of product.variants) if (variant.image_id === imageId) variant.image_id = null;
    this.sentSrc.delete(imageId);
  }

  createCategory(body: Record<string, unknown>): Category {
    const name = this.text(body.name);
    if (!this.main(name).trim()) throw fieldErrors({ name: ["can't be blank"] });
    let parent: number | null = null;
    if (body.parent !== undefined && body.parent !== null && body.parent !== 0) {
      parent = Number(body.parent);
      if (!this.categories.some((c) => c.id === parent)) throw fieldErrors({ parent: ['is not a valid category'] });
    }
    const now = timestamp();
    const category: Category = {
      id: newId(),
      name,
      description: this.text(body.description ?? ''),
      handle: body.handle
        ? this.text(body.handle)
        : Object.fromEntries(Object.entries(name).map(([l, v]) => [l, slug(v)])),
      parent,
      subcategories: [],
      seo_title: this.text(''),
      seo_description: this.text(''),
      created_at: now,
      updated_at: now,
    };
    this.categories.push(category);
    if (parent !== null) this.categories.find((c) => c.id === parent)!.subcategories.push(category.id);
    return category;
  }

  addWebhook(body: Record<string, unknown>, duplicates: 'accept' | 'refuse'): Webhook {
    const errors: Record<string, string[]> = {};
    const event = String(body.event ?? '');
    const needs = EVENT_SCOPES[event.split('/')[0]];
    if (needs && WEBHOOK_EVENTS.includes(event) && !this.grants(needs)) throw forbidden();
    if (!WEBHOOK_EVENTS.includes(event)) {
      errors.event = [`Invalid event specified. Events allowed: ${WEBHOOK_EVENTS.join(', ')}`];
    }
    const url = String(body.url ?? '');
    let host = '';
    try {
      const parsed = new URL(url);
      host = parsed.protocol === 'https:' ? parsed.hostname.toLowerCase() : '';
    } catch {
      // refused below
    }
    const refusedHost =
      !host ||
      host === 'localhost' ||
      host.endsWith('.localhost') ||
      /^(127\.|0\.0\.0\.0|\[?::1\]?$)/.test(host) ||
      /(^|\.)(tiendanube|nuvemshop)\./.test(host);
    if (refusedHost) errors.url = ['invalid url specified'];
    if (Object.keys(errors).length > 0) throw new Answer(422, errors);
    if (duplicates === 'refuse' && this.webhooks.some((w) => w.event === event && w.url === url)) {
      throw fieldErrors({ url: ['has already been taken'] });
    }
    const now = timestamp();
    const webhook: Webhook = { id: newId(), event, url, created_at: now, updated_at: now };
    if (isObject(body.headers)) webhook.headers = body.headers as Record<string, string>;
    this.webhooks.push(webhook);
    return webhook;
  }

  // --- orders ---

  order(id: number): StoreOrder | undefined {
    return this.orders.find((o) => o.id === id);
  }

  /**
   * Adds an order as a checkout would (documented shape; `paid` and a PIX payment unless told), with one fulfillment
   * order per location named. Its `created_at` and `updated_at` are now unless given.
   */
  seedOrder(seed: OrderSeed): StoreOrder {
    const now = timestamp();
    const { lines, locations, shipping_address, shape, shippingType, freights, ...fields } = seed;
    const products: OrderLine[] = lines.map((line) => {
      const variant = typeof line.variant === 'number' ? this.variant(line.variant) : line.variant;
      const variantId = typeof line.variant === 'number' ? line.variant : line.variant.id;
      const product = variant ? this.product(variant.product_id) : undefined;
      return {
        id: newId(),
        product_id: product?.id ?? newId(),
        variant_id: variantId,
        name: product ? this.main(product.name) : `Produto ${variantId}`,
        price: Number(line.price ?? variant?.price ?? 10).toFixed(2),
        quantity: line.quantity ?? 1,
        sku: line.sku === undefined ? (variant?.sku ?? null) : line.sku,
        barcode: variant?.barcode ?? null,
        variant_values: variant ? variant.values.map((v) => this.main(v)) : [],
        weight: variant?.weight ?? '0.000',
        free_shipping: false,
        issues: null,
      };
    });
    const subtotal = products.reduce((sum, l) => sum + Math.round(Number(l.price) * 100) * l.quantity, 0);
    const shipping = Math.round(
      Number(fields.shipping_cost_customer ?? (freights ? freights.reduce((a, b) => a + b, 0) : '15.00')) * 100,
    );
    const discount = Math.round(Number(fields.discount ?? '0') * 100);
    const order: StoreOrder = {
      id: newId(),
      number: this.nextOrderNumber++,
      token: randomBytes(20).toString('hex'),
      store_id: this.id,
      contact_email: 'maria@example.com',
      contact_name: 'Maria da Silva',
      contact_phone: '+5548999990000',
      contact_identification: '52998224725',
      customer: {
        id: newId(),
        name: 'Maria da Silva',
        email: 'maria@example.com',
        identification: '52998224725',
        phone: '+5548999990000',
      },
      shipping_address: {
        name: 'Maria da Silva',
        address: 'Rua das Palmeiras',
        number: '120',
        floor: 'Apto 3',
        locality: 'Centro',
        city: 'Florianópolis',
        province: 'Santa Catarina',
        zipcode: '88010-000',
        country: 'BR',
        phone: '+5548999990000',
        ...shipping_address,
      },
      billing_name: 'Maria da Silva',
      billing_address: 'Rua das Palmeiras',
      billing_number: '120',
      billing_floor: 'Apto 3',
      billing_locality: 'Centro',
      billing_zipcode: '88010-000',
      billing_city: 'Florianópolis',
      billing_province: 'Santa Catarina',
      billing_country: 'BR',
      note: null,
      owner_note: null,
      subtotal: (subtotal / 100).toFixed(2),
      discount: (discount / 100).toFixed(2),
      discount_coupon: '0.00',
      discount_gateway: '0.00',
      total: ((subtotal - discount + shipping) / 100).toFixed(2),
      currency: 'BRL',
      shipping_cost_customer: (shipping / 100).toFixed(2),
      shipping_cost_owner: '0.00',
      gateway: 'mercadopago',
      gateway_name: 'Mercado Pago',
      payment_details: { method: 'pix', credit_card_company: null, installments: '1' },
      status: 'open',
      payment_status: 'paid',
      shipping_status: 'unpacked',
      shipping_tracking_number: null,
      shipping_tracking_url: null,
      cancel_reason: null,
      storefront: 'store',
      products,
      created_at: now,
      updated_at: now,
      paid_at: fields.payment_status && fields.payment_status !== 'paid' ? null : now,
      shipped_at: null,
      cancelled_at: null,
      ...fields,
    };
    this.orders.push(order);
    if (shape === '2025-03') this.newShape.add(order.id);
    const named = locations?.map((name) => this.locations.find((l) => l.name === name) ?? this.addLocation(name));
    this.fulfillmentOrders.set(
      order.id,
      fulfillmentOrdersFor(
        products,
        {
          locations: this.locations,
          stockAt: (variantId, locationId) => {
            const variant = this.variant(variantId);
            if (!variant) return undefined;
            const level = variant.inventory_levels.find((l) => l.location_id === locationId);
            return level ? level.stock : 0;
          },
          named,
          freight: shipping / 100,
          freights,
          shippingType,
          recipient: {
            name: order.shipping_address.name,
            phone: order.shipping_address.phone,
            identifier: order.contact_identification,
          },
        },
        now,
      ),
    );
    return order;
  }

  /** An order as the API serves it: in the 2025-03 shape for an order seeded so. */
  served(order: StoreOrder): Record<string, unknown> {
    const copy = structuredClone(order) as unknown as Record<string, unknown>;
    // `customer`: "Only given if the 'read_customers' scope is set for the app".
    if (!this.grants('read_customers')) delete copy.customer;
    if (this.newShape.has(order.id)) {
      for (const field of ORDER_LEVEL_SHIPPING) delete copy[field];
      copy.billing_customer_type ??= 'person';
      copy.billing_business_name ??= null;
      copy.billing_trade_name ??= null;
      copy.billing_state_registration ??= null;
      copy.billing_document_type ??= copy.billing_customer_type === 'company' ? 'cnpj' : 'cpf';
    } else {
      for (const field of [
        'billing_customer_type',
        'billing_business_name',
        'billing_trade_name',
        'billing_state_registration',
        'billing_document_type',
      ])
        delete copy[field];
    }
    return copy;
  }

  /** Changes an order as the store would (paid, cancelled, a CPF fixed...): its `updated_at` moves to now. */
  changeOrder(id: number, patch: Partial<StoreOrder>): StoreOrder {
    const order = this.order(id);
    if (!order) throw new Error(`The stand-in store has no order ${id}`);
    Object.assign(order, patch, { updated_at: timestamp() });
    if (patch.payment_status === 'paid' && !order.paid_at) order.paid_at = order.updated_at;
    return order;
  }

  fulfil(order: StoreOrder, body: Record<string, unknown>): StoreOrder {
    if (order.status === 'cancelled') throw unprocessable('A cancelled order cannot be fulfilled');
    if (order.shipping_status === 'fulfilled' || order.shipping_status === 'shipped') {
      throw unprocessable('Order is already fulfilled');
    }
    if (body.notify_customer !== undefined && typeof body.notify_customer !== 'boolean') {
      throw fieldErrors({ notify_customer: ['must be true or false'] });
    }
    this.orderActions.push({ orderId: order.id, action: 'fulfill', body });
    const now = timestamp();
    Object.assign(order, {
      shipping_status: 'fulfilled',
      shipping_tracking_number: body.shipping_tracking_number ?? null,
      shipping_tracking_url: body.shipping_tracking_url ?? null,
      shipped_at: now,
      updated_at: now,
    });
    // The legacy call applies to the first fulfillment order only.
    const [first] = this.fulfillmentOrders.get(order.id) ?? [];
    if (first) {
      first.status = 'DISPATCHED';
      first.fulfilled_at = now;
      first.tracking_info = {
        code: (body.shipping_tracking_number as string) ?? null,
        url: (body.shipping_tracking_url as string) ?? null,
      };
    }
    return order;
  }

  cancel(order: StoreOrder, body: Record<string, unknown>): StoreOrder {
    if (order.status === 'cancelled') throw unprocessable('Order is already cancelled');
    if (body.reason !== undefined && !['customer', 'inventory', 'fraud', 'other'].includes(String(body.reason))) {
      throw fieldErrors({ reason: ['is not included in the list'] });
    }
    for (const flag of ['email', 'restock']) {
      if (body[flag] !== undefined && typeof body[flag] !== 'boolean') {
        throw fieldErrors({ [flag]: ['must be true or false'] });
      }
    }
    this.orderActions.push({ orderId: order.id, action: 'cancel', body });
    const now = timestamp();
    Object.assign(order, {
      status: 'cancelled',
      cancel_reason: (body.reason as string) ?? 'other',
      cancelled_at: now,
      updated_at: now,
    });
    for (const fo of this.fulfillmentOrders.get(order.id) ?? []) fo.status = 'CANCELLED';
    return order;
  }

  patchFulfillmentOrder(order: StoreOrder, foId: string, body: Record<string, unknown>): FulfillmentOrder {
    const fo = (this.fulfillmentOrders.get(order.id) ?? []).find((f) => f.id === foId);
    if (!fo) throw notFound('Fulfillment order not found');
    const now = timestamp();
    patchFulfillmentOrder(fo, body, {
      orderCancelled: order.status === 'cancelled',
      locations: this.locations,
      now,
      refuse: (status, description) =>
        status === 422 ? unprocessable(description) : status === 404 ? notFound(description) : badRequest(description),
    });
    const all = this.fulfillmentOrders.get(order.id) ?? [];
    if (all.every((f) => ['DISPATCHED', 'DELIVERED', 'CANCELLED'].includes(f.status))) {
      order.shipping_status = 'fulfilled';
      order.shipped_at ??= now;
    }
    order.updated_at = now;
    return fo;
  }

  /**
   * `POST /metafields`: a new metafield every time, even of a key the record already has (the documentation shows no
   * uniqueness; the worst case for a writer that repeats itself).
   */
  addMetafield(body: Record<string, unknown>): Metafield {
    const errors: Record<string, string[]> = {};
    for (const field of ['namespace', 'key', 'value', 'owner_resource']) {
      if (typeof body[field] !== 'string' || !body[field]) errors[field] = ["can't be blank"];
    }
    if (typeof body.namespace === 'string' && body.namespace.length > 0 && !/^[\w-]{3,}$/.test(body.namespace)) {
      errors.namespace = ['is invalid'];
    }
    if (
      body.owner_resource !== undefined &&
      !['Order', 'Product', 'Product_Variant', 'Category', 'Customer'].includes(String(body.owner_resource))
    ) {
      errors.owner_resource = ['is not included in the list'];
    }
    const ownerId = Number(body.owner_id);
    if (!Number.isSafeInteger(ownerId) || ownerId <= 0) errors.owner_id = ["can't be blank"];
    if (Object.keys(errors).length > 0) throw fieldErrors(errors);
    if (body.owner_resource === 'Order' && !this.order(ownerId)) throw notFound('Order with such id does not exist');
    const now = timestamp();
    const metafield: Metafield = {
      id: newId(),
      namespace: String(body.namespace),
      key: String(body.key),
      value: String(body.value),
      description: typeof body.description === 'string' ? body.description : null,
      owner_resource: String(body.owner_resource),
      owner_id: ownerId,
      created_at: now,
      updated_at: now,
    };
    this.metafields.push(metafield);
    return metafield;
  }

  /** `PUT /metafields/{id}`: a metafield's value (and description) replaced; its key and owner stay. */
  updateMetafield(id: number, body: Record<string, unknown>): Metafield {
    const metafield = this.metafields.find((m) => m.id === id);
    if (!metafield) throw notFound('Metafield not found');
    if (body.value !== undefined && (typeof body.value !== 'string' || !body.value)) {
      throw fieldErrors({ value: ["can't be blank"] });
    }
    for (const fixed of ['namespace', 'key', 'owner_resource', 'owner_id']) {
      if (body[fixed] !== undefined && String(body[fixed]) !== String(metafield[fixed as keyof Metafield])) {
        throw fieldErrors({ [fixed]: ['cannot be changed'] });
      }
    }
    if (typeof body.value === 'string') metafield.value = body.value;
    if (typeof body.description === 'string') metafield.description = body.description;
    metafield.updated_at = timestamp();
    return metafield;
  }

  // --- what the API answers ---

  categoryJson(category: Category) {
    return { ...category, parent: category.parent ?? this.options.rootCategoryParent ?? null };
  }

  productJson(product: Product) {
    return {
      ...structuredClone(product),
      categories: product.categories
        .map((id) => this.categories.find((c) => c.id === id))
        .filter((c): c is Category => !!c)
        .map((c) => this.categoryJson(c)),
    };
  }
}

export interface NuvemshopApiStandIn {
  /** The API base, for NUVEMSHOP_API_URL, e.g. `http://127.0.0.1:1234/v1`. */
  url: string;
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  /** The requests one store received. */
  requestsOf(storeId: number): ReceivedRequest[];
  /** Adds a store with its token (a random one unless told) and bucket. */
  addStore(storeId: number, settings?: { token?: string; bucket?: BucketSettings }): StandInStore;
  /** One store's state, to seed and inspect; throws for a store never added. */
  store(storeId: number): StandInStore;
  /** The token stops working: every call answers 401. */
  revoke(storeId: number): void;
  /** Every call answers 402 until `resume` (an unpaid subscription). */
  suspend(storeId: number): void;
  resume(storeId: number): void;
  /** The app is uninstalled: the token dies and the app's webhooks are deleted. */
  uninstall(storeId: number): void;
  /** A new install: a new token (answered), the old one dead. */
  reinstall(storeId: number): string;
  /** The token endpoint (`POST /apps/authorize/token`), for NUVEMSHOP_TOKEN_URL. */
  tokenUrl: string;
  /**
   * An install of the app on the store: the authorization code `/callback` is given, exchanged once at `tokenUrl` for a
   * new token (the old one dead) and the store's scopes, as granted (`scope`, comma-separated).
   */
  installCode(storeId: number): string;
  /** Answers the next matching requests with a failure, a delay or a dropped connection. */
  inject(fault: Fault): void;
  /**
   * The next write to `product` (the product, its variants or its images), or with `stockPrice` the next
   * `PATCH /products/stock-price` (one naming `product` when given), answers 409 once and changes nothing: a write
   * that conflicted with another ("can occur with too many PUT requests"; the body is unverified).
   */
  conflictOnce(storeId: number, target: { product: number; stockPrice?: boolean } | { stockPrice: true }): void;
  /**
   * Calls `hook` with every request as it arrives (`received`, nothing done yet) and once the store has applied it
   * (`served`, its answer not yet sent); the request waits for a hook's promise. Null removes it.
   */
  intercept(hook: Interceptor | null): void;
  /**
   * Where the stores send the webhooks their changes cause (`StandInStore.stockLocations`): each registered address's
   * path at `target.url` (a test's PUBLIC_URL is not where its gateway listens), signed with `target.secret`; none
   * without it.
   */
  sendWebhooksTo(target: WebhookTarget | null): void;
  clearFaults(): void;
  close(): Promise<void>;
}

/** The `X-Linkedstore-HMAC-SHA256` Nuvemshop sends with a webhook: hex HMAC-SHA256 of the raw body, app secret key. */
export const webhookSignature = (rawBody: string, appSecret: string) =>
  createHmac('sha256', appSecret).update(rawBody).digest('hex');

/** Posts a webhook as Nuvemshop does (JSON body, signature header) to `url`; answers the status. */
export async function deliverWebhook(
  url: string,
  payload: Record<string, unknown>,
  appSecret: string,
): Promise<number> {
  const raw = JSON.stringify(payload);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Linkedstore-HMAC-SHA256': webhookSignature(raw, appSecret) },
    body: raw,
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  return response.status;
}

type Handler = (store: StandInStore, params: string[], body: unknown, query: Record<string, string>) => unknown;
interface Route {
  method: string;
  pattern: RegExp;
  name: string;
  handler: Handler;
  status?: number;
  /** The scope the call needs, as the resource's page says (read_* to read, write_* to write); none for the store. */
  scope?: string;
}

const isJson = (headers: IncomingHttpHeaders) =>
  /^application\/json\s*(;|$)/i.test(String(headers['content-type'] ?? '').trim());

/** Whether a write is the one a `conflictOnce` waits for: a write to its product, or its stock-price batch. */
function conflictsWith(
  conflict: { product?: number; stockPrice: boolean },
  route: string,
  path: string,
  body: unknown,
): boolean {
  if (route.startsWith('GET ')) return false;
  if (route === 'PATCH /products/stock-price') {
    return (
      conflict.stockPrice &&
      (conflict.product === undefined ||
        (Array.isArray(body) && body.some((p) => isObject(p) && Number(p.id) === conflict.product)))
    );
  }
  const product = /^\/products\/(\d+)(?:\/|$)/.exec(path)?.[1];
  return !conflict.stockPrice && product !== undefined && Number(product) === conflict.product;
}

/** Starts the stand-in on 127.0.0.1 at a random port. */
export async function startNuvemshopApi(options: NuvemshopApiOptions = {}): Promise<NuvemshopApiStandIn> {
  const basePath = (options.basePath ?? '/v1').replace(/\/+$/, '');
  const defaultBucket = options.bucket ?? { size: 40, drainPerSecond: 2 };
  const stores = new Map<number, StandInStore>();
  const requests: ReceivedRequest[] = [];
  let faults: (Fault & { left: number })[] = [];
  let conflicts: { store: number; product?: number; stockPrice: boolean }[] = [];
  let interceptor: Interceptor | null = null;
  let webhookTarget: WebhookTarget | undefined;

  const productOf = (store: StandInStore, id: string) => {
    const product = store.product(Number(id));
    if (!product) throw notFound('Product with such id does not exist');
    return product;
  };
  const orderOf = (store: StandInStore, id: string) => {
    const order = store.order(Number(id));
    if (!order) throw notFound('Order with such id does not exist');
    return order;
  };
  const object = (body: unknown) => {
    if (!isObject(body)) throw badRequest('Invalid input format');
    return body;
  };
  let origin = '';
  /** A page of a list, with Nuvemshop's paging rules and headers. */
  const page = <T>(items: T[], query: Record<string, string>, path: string, json: (item: T) => unknown = (i) => i) => {
    let perPage = query.per_page === undefined ? (options.defaultPerPage ?? 30) : Number(query.per_page);
    const number = query.page === undefined ? 1 : Number(query.page);
    if (!Number.isInteger(perPage) || perPage < 1 || !Number.isInteger(number) || number < 1) {
      throw unprocessable('page and per_page must be whole numbers of at least 1');
    }
    if (perPage > MAX_PER_PAGE) {
      if (options.perPageAbove200 === 'clamp') perPage = MAX_PER_PAGE;
      else throw unprocessable(`per_page must be at most ${MAX_PER_PAGE}`);
    }
    const maxItems = options.maxQueryItems ?? 10_000;
    if (items.length > maxItems && (options.queryLimitCounts === 'matches' || number * perPage > maxItems)) {
      throw unprocessable(`A query can return at most ${maxItems} results; narrow it with filters`);
    }
    const last = Math.max(1, Math.ceil(items.length / perPage));
    if (number > last && options.pastLastPage === 'not-found') throw notFound(`Last page is ${last}`);
    const link = (n: number) => `<${origin}${basePath}${path}?page=${n}&per_page=${perPage}>`;
    const links = [...(number < last ? [`${link(number + 1)}; rel="next"`] : []), `${link(last)}; rel="last"`];
    return new Listed(items.slice((number - 1) * perPage, number * perPage).map(json), {
      'x-total-count': String(items.length),
      link: links.join(', '),
    });
  };

  const routes: Route[] = [
    { method: 'GET', pattern: /^\/store$/, name: 'GET /store', handler: (s) => structuredClone(s.info) },
    {
      method: 'GET',
      pattern: /^\/products$/,
      name: 'GET /products',
      scope: 'read_products',
      handler: (s, _p, _b, q) => {
        // `since_id` only restricts: the order is `sort_by`'s, and with none the "user" order, newest first here.
        const since = q.since_id === undefined ? undefined : Number(q.since_id);
        if (since !== undefined && !Number.isSafeInteger(since)) throw unprocessable('since_id must be a whole number');
        const sortBy = q.sort_by ?? 'user';
        if (!Object.hasOwn(PRODUCT_ORDERS, sortBy)) throw unprocessable('Invalid sort_by');
        const sort = PRODUCT_ORDERS[sortBy];
        const [createdMin, createdMax, updatedMin, updatedMax] = [
          'created_at_min',
          'created_at_max',
          'updated_at_min',
          'updated_at_max',
        ].map((name) => moment(q, name));
        const products = s.products
          .filter(
            (p) =>
              (since === undefined || p.id > since) &&
              within(p.created_at, createdMin, createdMax) &&
              within(p.updated_at, updatedMin, updatedMax),
          )
          .sort(sort);
        // `fields` keeps only the product's attributes it names (product.md), comma-separated.
        const only = q.fields === undefined ? undefined : q.fields.split(',').map((f) => f.trim());
        return page(products, q, `/${s.id}/products`, (p) => {
          const json = s.productJson(p) as Record<string, unknown>;
          return only ? Object.fromEntries(Object.entries(json).filter(([key]) => only.includes(key))) : json;
        });
      },
    },
    {
      method: 'POST',
      pattern: /^\/products$/,
      name: 'POST /products',
      scope: 'write_products',
      status: 201,
      handler: (s, _p, b) => s.productJson(s.createProduct(object(b))),
    },
    {
      method: 'GET',
      pattern: /^\/products\/sku\/([^/]+)$/,
      name: 'GET /products/sku/{sku}',
      scope: 'read_products',
      handler: (s, [sku]) => {
        const product = s.products.find((p) => p.variants.some((v) => v.sku === decodeURIComponent(sku)));
        if (!product) throw notFound('Product with such SKU does not exist');
        return s.productJson(product);
      },
    },
    {
      method: 'PATCH',
      pattern: /^\/products\/stock-price$/,
      name: 'PATCH /products/stock-price',
      scope: 'write_products',
      handler: (s, _p, b) => {
        const report = s.stockPrice(b);
        // Unverified: the answer's shape. Another one reports no variant, though each was applied as usual.
        const shape = s.stockPriceAnswer ?? options.stockPriceAnswer;
        if (shape === 'products') {
          return report.map((entry) => {
            const product = s.product(Number(entry.id));
            return product ? s.productJson(product) : entry;
          });
        }
        return shape === 'empty' ? {} : report;
      },
    },
    {
      method: 'GET',
      pattern: /^\/products\/(\d+)$/,
      name: 'GET /products/{id}',
      scope: 'read_products',
      handler: (s, [id]) => s.productJson(productOf(s, id)),
    },
    {
      method: 'PUT',
      pattern: /^\/products\/(\d+)$/,
      name: 'PUT /products/{id}',
      scope: 'write_products',
      handler: (s, [id], b) => s.productJson(s.updateProduct(productOf(s, id), object(b))),
    },
    {
      method: 'POST',
      pattern: /^\/products\/(\d+)\/variants$/,
      name: 'POST /products/{id}/variants',
      scope: 'write_products',
      status: 201,
      handler: (s, [id], b) => s.addVariant(productOf(s, id), object(b)),
    },
    {
      method: 'PUT',
      pattern: /^\/products\/(\d+)\/variants$/,
      name: 'PUT /products/{id}/variants',
      scope: 'write_products',
      handler: (s, [id], b) => s.replaceVariants(productOf(s, id), b),
    },
    {
      method: 'PATCH',
      pattern: /^\/products\/(\d+)\/variants$/,
      name: 'PATCH /products/{id}/variants',
      scope: 'write_products',
      handler: (s, [id], b) => s.patchVariants(productOf(s, id), b),
    },
    {
      method: 'DELETE',
      pattern: /^\/products\/(\d+)\/variants\/(\d+)$/,
      name: 'DELETE /products/{id}/variants/{vid}',
      scope: 'write_products',
      handler: (s, [id, vid]) => {
        s.deleteVariant(productOf(s, id), Number(vid));
        return {};
      },
    },
    {
      method: 'POST',
      pattern: /^\/products\/(\d+)\/images$/,
      name: 'POST /products/{id}/images',
      scope: 'write_products',
      status: 201,
      handler: (s, [id], b) => s.addImage(productOf(s, id), object(b)),
    },
    {
      method: 'PUT',
      pattern: /^\/products\/(\d+)\/images\/(\d+)$/,
      name: 'PUT /products/{id}/images/{iid}',
      scope: 'write_products',
      handler: (s, [id, iid], b) => s.updateImage(productOf(s, id), Number(iid), object(b)),
    },
    {
      method: 'DELETE',
      pattern: /^\/products\/(\d+)\/images\/(\d+)$/,
      name: 'DELETE /products/{id}/images/{iid}',
      scope: 'write_products',
      handler: (s, [id, iid]) => {
        s.deleteImage(productOf(s, id), Number(iid));
        return {};
      },
    },
    {
      method: 'GET',
      pattern: /^\/orders$/,
      name: 'GET /orders',
      scope: 'read_orders',
      handler: (s, _p, _b, q) => {
        const since = q.since_id === undefined ? undefined : Number(q.since_id);
        if (since !== undefined && !Number.isSafeInteger(since)) throw unprocessable('since_id must be a whole number');
        const [updatedMin, updatedMax, createdMin, createdMax] = [
          'updated_at_min',
          'updated_at_max',
          'created_at_min',
          'created_at_max',
        ].map((name) => moment(q, name));
        const statuses = ['any', 'open', 'closed', 'cancelled'];
        if (q.status !== undefined && !statuses.includes(q.status)) throw unprocessable('Invalid status');
        let orders = s.orders.filter(
          (o) =>
            (since === undefined || o.id > since) &&
            (updatedMin === undefined || when(o.updated_at) >= updatedMin) &&
            (updatedMax === undefined || when(o.updated_at) <= updatedMax) &&
            (createdMin === undefined || when(o.created_at) >= createdMin) &&
            (createdMax === undefined || when(o.created_at) <= createdMax) &&
            (!q.status || q.status === 'any' || o.status === q.status) &&
            (!q.payment_status || o.payment_status === q.payment_status),
        );
        // "Always ordered by created_at" (api-docs issue 22), `since_id` or not.
        const sign = options.ordersOrder === 'created-asc' ? 1 : -1;
        orders = [...orders].sort((a, b) => sign * (when(a.created_at) - when(b.created_at)) || sign * (a.id - b.id));
        return page(orders, q, `/${s.id}/orders`, (o) => s.served(o));
      },
    },
    {
      method: 'GET',
      pattern: /^\/orders\/(\d+)$/,
      name: 'GET /orders/{id}',
      scope: 'read_orders',
      handler: (s, [id], _b, q) => {
        const order = orderOf(s, id);
        const served = s.served(order);
        // `aggregates=fulfillment_orders` embeds them (2025-03), for a token that may read them.
        if (/(^|,)fulfillment_orders(,|$)/.test(q.aggregates ?? '') && s.grants('read_fulfillment_orders')) {
          served.fulfillment_orders = (s.fulfillmentOrders.get(order.id) ?? []).map((fo) =>
            servedFulfillmentOrder(fo, s.newShape.has(order.id)),
          );
        }
        return served;
      },
    },
    {
      method: 'POST',
      pattern: /^\/orders\/(\d+)\/fulfill$/,
      name: 'POST /orders/{id}/fulfill',
      scope: 'write_orders',
      handler: (s, [id], b) => structuredClone(s.fulfil(orderOf(s, id), b === undefined ? {} : object(b))),
    },
    {
      method: 'POST',
      pattern: /^\/orders\/(\d+)\/cancel$/,
      name: 'POST /orders/{id}/cancel',
      scope: 'write_orders',
      handler: (s, [id], b) => structuredClone(s.cancel(orderOf(s, id), b === undefined ? {} : object(b))),
    },
    {
      method: 'GET',
      pattern: /^\/orders\/(\d+)\/fulfillment-orders$/,
      name: 'GET /orders/{id}/fulfillment-orders',
      scope: 'read_fulfillment_orders',
      handler: (s, [id]) => {
        const order = orderOf(s, id);
        return (s.fulfillmentOrders.get(order.id) ?? []).map((fo) =>
          servedFulfillmentOrder(fo, s.newShape.has(order.id)),
        );
      },
    },
    {
      method: 'PATCH',
      pattern: /^\/orders\/(\d+)\/fulfillment-orders\/([^/]+)$/,
      name: 'PATCH /orders/{id}/fulfillment-orders/{fo_id}',
      scope: 'write_fulfillment_orders',
      handler: (s, [id, fo], b) => {
        const order = orderOf(s, id);
        return servedFulfillmentOrder(s.patchFulfillmentOrder(order, fo, object(b)), s.newShape.has(order.id));
      },
    },
    {
      method: 'GET',
      pattern: /^\/locations$/,
      name: 'GET /locations',
      scope: 'read_locations',
      handler: (s) => s.stockLocations.list(),
    },
    {
      method: 'PATCH',
      pattern: /^\/locations\/priorities$/,
      name: 'PATCH /locations/priorities',
      scope: 'write_locations',
      handler: (s, _p, b) => s.stockLocations.setPriorities(b),
    },
    {
      method: 'PATCH',
      pattern: /^\/locations\/([^/]+)\/chosen-as-default$/,
      name: 'PATCH /locations/{id}/chosen-as-default',
      scope: 'write_locations',
      handler: (s, [id]) => s.stockLocations.chooseDefault(decodeURIComponent(id)),
    },
    {
      method: 'GET',
      pattern: /^\/metafields\/orders$/,
      name: 'GET /metafields/orders',
      scope: 'read_orders',
      handler: (s, _p, _b, q) => {
        const fields = q.fields ? q.fields.split(',').map((f) => f.trim()) : null;
        return page(
          s.metafields.filter(
            (m) =>
              m.owner_resource === 'Order' &&
              (!q.owner_id || m.owner_id === Number(q.owner_id)) &&
              (!q.namespace || m.namespace === q.namespace) &&
              (!q.key || m.key === q.key),
          ),
          q,
          `/${s.id}/metafields/orders`,
          (m) =>
            fields ? Object.fromEntries(fields.filter((f) => f in m).map((f) => [f, m[f as keyof Metafield]])) : m,
        );
      },
    },
    {
      method: 'PUT',
      pattern: /^\/metafields\/(\d+)$/,
      name: 'PUT /metafields/{id}',
      scope: 'write_orders',
      handler: (s, [id], b) => structuredClone(s.updateMetafield(Number(id), object(b))),
    },
    {
      method: 'POST',
      pattern: /^\/metafields$/,
      name: 'POST /metafields',
      scope: 'write_orders',
      status: 201,
      handler: (s, _p, b) => structuredClone(s.addMetafield(object(b))),
    },
    {
      method: 'GET',
      pattern: /^\/categories$/,
      name: 'GET /categories',
      scope: 'read_products',
      handler: (s, _p, _b, q) => page(s.categories, q, `/${s.id}/categories`, (c) => s.categoryJson(c)),
    },
    {
      method: 'POST',
      pattern: /^\/categories$/,
      name: 'POST /categories',
      scope: 'write_products',
      status: 201,
      handler: (s, _p, b) => s.categoryJson(s.createCategory(object(b))),
    },
    {
      method: 'GET',
      pattern: /^\/webhooks$/,
      name: 'GET /webhooks',
      handler: (s, _p, _b, q) =>
        page(
          s.webhooks.filter((w) => (!q.url || w.url === q.url) && (!q.event || w.event === q.event)),
          q,
          `/${s.id}/webhooks`,
        ),
    },
    {
      method: 'POST',
      pattern: /^\/webhooks$/,
      name: 'POST /webhooks',
      status: 201,
      handler: (s, _p, b) => s.addWebhook(object(b), options.duplicateWebhooks ?? 'accept'),
    },
    {
      method: 'DELETE',
      pattern: /^\/webhooks\/(\d+)$/,
      name: 'DELETE /webhooks/{id}',
      handler: (s, [id]) => {
        if (!s.webhooks.some((w) => w.id === Number(id))) throw notFound('Webhook with such id does not exist');
        s.webhooks = s.webhooks.filter((w) => w.id !== Number(id));
        return {};
      },
    },
  ];

  /** Drains a store's bucket to now; answers its headers. */
  const bucketHeaders = (store: StandInStore) => {
    const now = performance.now();
    store.level = Math.max(0, store.level - ((now - store.levelAt) / 1000) * store.bucket.drainPerSecond);
    store.levelAt = now;
    return {
      'x-rate-limit-limit': String(store.bucket.size),
      'x-rate-limit-remaining': String(Math.max(0, Math.floor(store.bucket.size - store.level))),
      'x-rate-limit-reset': String(Math.ceil((store.level / store.bucket.drainPerSecond) * 1000)),
    };
  };

  const tooManyRequests = () => described(429, 'Too Many Requests', 'Too many requests, slow down');

  const serve = (req: http.IncomingMessage, raw: string, record: ReceivedRequest, fault?: Fault) => {
    const headers: Record<string, string> = {};
    const answer = (status: number, body: unknown, extra: Record<string, string> = {}) => ({
      status,
      body,
      headers: { ...headers, ...extra },
    });
    const store = record.store === null ? undefined : stores.get(record.store);
    if (record.store === null) return answer(404, { code: 404, message: 'Not Found', description: 'Not Found' });

    const agent = String(req.headers['user-agent'] ?? '').trim();
    const agentOk = (options.userAgent ?? 'app-and-contact') === 'present' ? !!agent : /\S.*\(\s*\S.*\)/.test(agent);
    if (!agentOk) {
      return answer(400, {
        code: 400,
        message: 'Bad Request',
        description: 'A User-Agent naming your app and a contact is required, e.g. MyApp (name@example.com)',
      });
    }

    const named =
      req.headers.authentication ??
      (options.acceptAuthorizationHeader === false ? undefined : req.headers.authorization);
    const token = /^bearer\s+(\S+)$/i.exec(String(named ?? '').trim())?.[1];
    if (!store || !token || store.revoked || token !== store.token) {
      return answer(401, { code: 401, message: 'Unauthorized', description: 'Invalid access token' });
    }
    if (store.suspended) {
      return answer(402, { code: 402, message: 'Payment Required', description: 'The store has unpaid charges' });
    }

    const route = routes.find((r) => r.method === req.method && r.pattern.test(record.path));
    record.route = route?.name ?? null;
    let body: unknown;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
    }
    const cost = options.weigh?.({ method: record.method, route: route?.name ?? '', body }) ?? 1;

    if (fault?.status !== undefined) {
      if (fault.status === 429) {
        // Forced: the bucket is full, as when another process of the app spent it.
        store.level = store.bucket.size;
        store.levelAt = performance.now();
        Object.assign(headers, bucketHeaders(store));
        return answer(429, fault.body ?? tooManyRequests().body, fault.headers);
      }
      Object.assign(headers, bucketHeaders(store));
      return answer(
        fault.status,
        fault.body ?? { code: fault.status, message: 'Error', description: null },
        fault.headers,
      );
    }

    Object.assign(headers, bucketHeaders(store));
    if (store.level + cost > store.bucket.size) return answer(429, tooManyRequests().body);
    store.level += cost;
    Object.assign(headers, bucketHeaders(store));

    if (['POST', 'PUT', 'PATCH'].includes(req.method ?? '') && !isJson(req.headers)) {
      return answer(415, {
        code: 415,
        message: 'Unsupported Media Type',
        description: 'Content-Type must be application/json',
      });
    }
    if (raw && body === undefined) return answer(400, { error: 'Problems parsing JSON' });
    if (!route) return answer(404, { code: 404, message: 'Not Found', description: 'Not Found' });
    if (route.scope && !store.grants(route.scope)) return answer(403, forbidden().body);
    const conflict = conflicts.findIndex(
      (c) => c.store === store.id && conflictsWith(c, route.name, record.path, body),
    );
    if (conflict >= 0) {
      conflicts.splice(conflict, 1);
      return answer(409, {
        code: 409,
        message: 'Conflict',
        description: 'Another change to this resource is underway',
      });
    }
    try {
      const params = route.pattern.exec(record.path)!.slice(1);
      const result = route.handler(store, params, body, record.query);
      if (result instanceof Listed) return answer(route.status ?? 200, result.body, result.headers);
      return answer(route.status ?? 200, result);
    } catch (error) {
      if (error instanceof Answer || error instanceof LocationRefusal) return answer(error.status, error.body);
      throw error;
    }
  };

  /** Codes of installs not yet exchanged, and the store each installs on. */
  const codes = new Map<string, number>();
  /** The token endpoint: a code spent or unknown is refused with status 200, as the platform does. */
  const exchange = (raw: string) => {
    let code = '';
    try {
      code = String((JSON.parse(raw) as { code?: unknown }).code ?? '');
    } catch {
      // no code
    }
    const store = stores.get(codes.get(code) ?? -1);
    codes.delete(code);
    if (!store) return { error: 'invalid_grant', error_description: 'The authorization code is invalid' };
    store.token = `token-${randomBytes(16).toString('hex')}`;
    store.revoked = false;
    const scope = SCOPES.filter((name) => store.scopes.has(name)).join(',');
    return { access_token: store.token, token_type: 'bearer', scope, user_id: store.id };
  };

  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://stand-in').pathname;
    if (req.method === 'POST' && pathname === '/apps/authorize/token') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(exchange(Buffer.concat(chunks).toString('utf8'))));
      });
      return;
    }
    if (options.page && !pathname.startsWith(`${basePath}/`)) return void options.page(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const match = url.pathname.startsWith(`${basePath}/`)
        ? /^\/(\d+)(\/.*)?$/.exec(url.pathname.slice(basePath.length))
        : null;
      let parsed: unknown = raw || undefined;
      try {
        parsed = raw ? JSON.parse(raw) : undefined;
      } catch {
        // kept as text
      }
      const record: ReceivedRequest = {
        store: match ? Number(match[1]) : null,
        method: req.method ?? 'GET',
        path: match ? (match[2] ?? '/') : url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: parsed,
        route: null,
        status: 0,
        at: Date.now(),
      };
      requests.push(record);
      const fault = faults.find(
        (f) =>
          f.left > 0 &&
          (!f.method || f.method === record.method) &&
          (f.store === undefined || f.store === record.store) &&
          (!f.path || (typeof f.path === 'string' ? f.path === record.path : f.path.test(record.path))),
      );
      if (fault) fault.left--;
      const respond = async () => {
        if (fault?.drop) {
          record.status = -1;
          req.socket.destroy();
          return;
        }
        await interceptor?.(record, 'received');
        const served = serve(req, raw, record, fault);
        const { status, headers } = served;
        const body = fault && 'answerBody' in fault && status < 300 ? fault.answerBody : served.body;
        record.status = status;
        await interceptor?.(record, 'served');
        if (res.destroyed) return;
        res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(body));
      };
      const timer = setTimeout(() => void respond(), fault?.delayMs ?? 0);
      res.on('close', () => clearTimeout(timer));
    });
  });
  await listen(server, options.port ?? 0);
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const storeOf = (storeId: number) => {
    const store = stores.get(storeId);
    if (!store) throw new Error(`The stand-in has no store ${storeId}: addStore(${storeId}) first`);
    return store;
  };

  return {
    url: origin + basePath,
    requests,
    requestsOf: (storeId) => requests.filter((r) => r.store === storeId),
    addStore(storeId, settings = {}) {
      const store = new StandInStore(
        storeId,
        settings.token ?? `token-${randomBytes(16).toString('hex')}`,
        settings.bucket ?? defaultBucket,
        {
          maxInlineImages: options.maxInlineImages ?? Infinity,
          maxProducts: options.maxProducts ?? 100_000,
          rootCategoryParent: options.rootCategoryParent === undefined ? 0 : options.rootCategoryParent,
          refuseBothPublishedAndVisibility: options.refuseBothPublishedAndVisibility ?? true,
          createTakesInventoryLevels: options.createTakesInventoryLevels ?? false,
          webhookTarget: () => webhookTarget,
        },
      );
      stores.set(storeId, store);
      return store;
    },
    store: storeOf,
    revoke: (storeId) => void (storeOf(storeId).revoked = true),
    suspend: (storeId) => void (storeOf(storeId).suspended = true),
    resume: (storeId) => void (storeOf(storeId).suspended = false),
    uninstall(storeId) {
      const store = storeOf(storeId);
      store.revoked = true;
      store.webhooks = [];
    },
    reinstall(storeId) {
      const store = storeOf(storeId);
      store.token = `token-${randomBytes(16).toString('hex')}`;
      store.revoked = false;
      return store.token;
    },
    tokenUrl: `${origin}/apps/authorize/token`,
    installCode(storeId) {
      const code = randomBytes(16).toString('hex');
      codes.set(code, storeOf(storeId).id);
      return code;
    },
    inject: (fault) => void faults.push({ ...fault, left: fault.times ?? 1 }),
    conflictOnce: (storeId, target) =>
      void conflicts.push({
        store: storeOf(storeId).id,
        product: 'product' in target ? target.product : undefined,
        stockPrice: !!target.stockPrice,
      }),
    intercept: (hook) => void (interceptor = hook),
    sendWebhooksTo: (target) => void (webhookTarget = target ?? undefined),
    clearFaults: () => void ((faults = []), (conflicts = [])),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
