import type { Config } from '../config';
import { messages } from '../messages';
import { NuvemshopBucket } from './nuvemshop-bucket';
import { byCreation, byUpdate, type Filters, type WindowAnswer } from './nuvemshop-windows';
import { scopeOfCall } from './nuvemshop-scopes';
import { PlatformError, readBody, sleep, timedOut } from './platform-call';

/** A text per language (`{pt: "..."}`) as Nuvemshop reads it back; a plain string writes every language. */
export type Languages = Record<string, string>;
type Text = string | Languages;

export interface NuvemshopInventoryLevel {
  id?: number | string;
  location_id: string;
  stock: number | null;
}

export interface NuvemshopVariant {
  id: number;
  product_id: number;
  position?: number;
  /** Decimal text, e.g. "25.00"; null starts a contact instead of a checkout. */
  price: string | null;
  promotional_price: string | null;
  stock_management: boolean;
  /** Null when `stock_management` is false; the total over locations under multi-inventory. */
  stock: number | null;
  weight: string | null;
  width: string | null;
  height: string | null;
  depth: string | null;
  sku: string | null;
  barcode: string | null;
  values: Languages[];
  image_id: number | null;
  inventory_levels?: NuvemshopInventoryLevel[];
  created_at: string;
  updated_at: string;
}

export interface NuvemshopImage {
  id: number;
  product_id: number;
  /** Nuvemshop's own copy on its CDN, never the address it was given. */
  src: string;
  position: number;
}

export interface NuvemshopCategory {
  id: number;
  name: Languages;
  description: Languages;
  handle: Languages;
  /** The parent's id; a root has null (or 0, as v1 is reported to answer). */
  parent: number | null;
  subcategories: number[];
  created_at: string;
  updated_at: string;
}

export interface NuvemshopProduct {
  id: number;
  name: Languages;
  description: Languages;
  handle: Languages;
  attributes: Languages[];
  published: boolean;
  brand: string | null;
  categories: NuvemshopCategory[];
  variants: NuvemshopVariant[];
  images: NuvemshopImage[];
  created_at: string;
  updated_at: string;
}

export interface NuvemshopWebhook {
  id: number;
  event: string;
  url: string;
  created_at: string;
  updated_at: string;
}

/** The store's own record (`GET /store`): what is read of it when the app is installed. */
export interface NuvemshopStoreInfo {
  id: number;
  name: Languages;
  email?: string;
  business_name?: string | null;
  business_id?: string | null;
  business_address?: string | null;
  address?: string | null;
  phone?: string | null;
  country?: string;
  main_language?: string;
  [field: string]: unknown;
}

/** An order's line (`products[]`): prices are decimal texts. */
export interface NuvemshopOrderLine {
  id?: number;
  product_id: number;
  variant_id: number;
  name: string;
  price: string;
  quantity: number | string;
  sku: string | null;
}

/** An order as `GET /orders/{id}` answers it: the fields the product reads. */
export interface NuvemshopOrder {
  id: number;
  number: number;
  contact_email?: string | null;
  contact_name?: string | null;
  /** The buyer's CPF/CNPJ on the order itself: `customer` comes only with the `read_customers` scope. */
  contact_identification?: string | null;
  customer?: { name?: string | null; email?: string | null; identification?: string | null } | null;
  /** The 2025-03 Order API's buyer kind (`person` or `company`), and a company's names and state registration. */
  billing_customer_type?: string | null;
  billing_business_name?: string | null;
  billing_trade_name?: string | null;
  billing_state_registration?: string | null;
  shipping_address?: {
    name?: string | null;
    address?: string | null;
    number?: string | null;
    floor?: string | null;
    locality?: string | null;
    city?: string | null;
    province?: string | null;
    zipcode?: string | null;
  } | null;
  billing_address?: string | null;
  billing_number?: string | null;
  billing_floor?: string | null;
  billing_locality?: string | null;
  billing_zipcode?: string | null;
  billing_city?: string | null;
  billing_province?: string | null;
  note?: string | null;
  total: string;
  subtotal?: string;
  discount?: string;
  /** The freight the buyer paid: absent from the 2025-03 Order API, which keeps it on the fulfillment orders. */
  shipping_cost_customer?: string | null;
  payment_details?: { method?: string | null; installments?: string | number | null } | null;
  status: string;
  payment_status: string;
  shipping_status?: string;
  products: NuvemshopOrderLine[];
  /** The order's fulfillment orders, when read with `aggregates=fulfillment_orders`. */
  fulfillment_orders?: NuvemshopFulfillmentOrder[];
  created_at: string;
  updated_at: string;
}

/** A metafield of a store's record, as `GET /metafields/{resource}` lists it. */
export interface NuvemshopMetafield {
  id: number;
  namespace: string;
  key: string;
  value: string;
  owner_id: number;
}

/** A fulfillment order of an order (stores with several locations). */
export interface NuvemshopFulfillmentOrder {
  id: string;
  status: string;
  assigned_location?: { id: string; name?: string } | null;
  /** Its shipping: `ship` or `pickup`, and the freight the buyer paid (`{value, currency}`, or a plain amount). */
  shipping?: {
    type?: string | null;
    consumer_cost?: { value?: number | string | null } | number | string | null;
  } | null;
}

/** A variant's fields as written. Stock is whole units; `inventory_levels` wins over `stock` when both are sent. */
export interface VariantFields {
  price?: number | string | null;
  promotional_price?: number | string | null;
  stock?: number | null;
  inventory_levels?: { location_id: string; stock: number | null }[];
  weight?: number | string;
  width?: number | string;
  height?: number | string;
  depth?: number | string;
  sku?: string | null;
  barcode?: string | null;
  values?: Text[];
  image_id?: number | null;
}

export type NewVariant = VariantFields;
export type VariantChanges = VariantFields & { id: number };

export type NewImage = { src: string; position?: number } | { attachment: string; filename: string; position?: number };
export interface ImageChanges {
  src?: string;
  position?: number;
}

export interface NewProduct {
  name: Text;
  description?: Text;
  brand?: string | null;
  published?: boolean;
  /** One per variant axis, e.g. `[{pt: "Cor"}, {pt: "Tamanho"}]`; at most 3. */
  attributes?: Text[];
  variants?: NewVariant[];
  images?: NewImage[];
  /** Category ids. */
  categories?: number[];
}

/** What the synchronisation changes on an existing product: never its price or stock, which live on variants. */
export interface ProductChanges {
  name?: Text;
  description?: Text;
  brand?: string | null;
  published?: boolean;
  /** Replaces the whole list. */
  categories?: number[];
  /** The variant axes, changed before the variants' values that must match them. */
  attributes?: Text[];
}

/** One product's variants in `PATCH /products/stock-price`. */
export interface StockPriceProduct {
  id: number;
  variants: {
    id: number;
    price?: number | string | null;
    promotional_price?: number | string | null;
    stock?: number | null;
    inventory_levels?: { location_id: string; stock: number | null }[];
  }[];
}

/** How one variant of a `stock-price` call went: a batch can be half applied. */
export interface StockPriceResult {
  productId: number;
  variantId: number;
  success: boolean;
  error?: string;
}

export interface NewCategory {
  name: Text;
  parent?: number | null;
}

export interface NewWebhook {
  event: string;
  url: string;
}

/** Nuvemshop no longer accepts the store's token (uninstalled, reinstalled, revoked): never retried. */
export class TokenRevoked extends PlatformError {
  constructor(body?: unknown) {
    super(messages.storeTokenRevoked, false, 401, body, 'nuvemshop_token_revoked');
  }
}

/** The store or the app's charge is unpaid: every call answers 402 until `app/resumed`. Never retried. */
export class StoreSuspended extends PlatformError {
  constructor(body?: unknown) {
    super(messages.storeSuspended, false, 402, body, 'nuvemshop_suspended');
  }
}

/** Nuvemshop answered 403: the app lacks a scope for the call; nothing changes until the store grants it. */
export class PermissionMissing extends PlatformError {
  constructor(
    body?: unknown,
    /** The scope the refused call needs (`scopeOfCall`), or null for a call that needs none of its own. */
    readonly scope: string | null = null,
  ) {
    super(messages.storePermissionMissing, false, 403, body, 'nuvemshop_permission_missing');
  }
}

/** Nuvemshop was down, slow or kept answering 429: the same call may work later. */
export class NuvemshopUnavailable extends PlatformError {
  constructor(
    code:
      | 'nuvemshop_unreachable'
      | 'nuvemshop_timeout'
      | 'nuvemshop_unavailable'
      | 'nuvemshop_busy'
      | 'nuvemshop_rate_limited'
      | 'nuvemshop_not_understood',
    message: string,
    status?: number,
    body?: unknown,
  ) {
    super(message, true, status, body, code);
  }
}

/** Nuvemshop refused the call itself (400, 404, 415, 422...): sending it again will not help. */
export class NuvemshopRefused extends PlatformError {
  constructor(method: string, path: string, status: number, body: unknown) {
    super(
      `Nuvemshop refused ${method} ${path} (HTTP ${status}): ${describe(body)}`,
      false,
      status,
      body,
      'nuvemshop_refused',
    );
  }

  get detail(): string {
    return describe(this.body);
  }
}

/** The gist of a refusal's body, whichever of Nuvemshop's two shapes it has. */
function describe(body: unknown): string {
  if (body && typeof body === 'object') {
    const { description, message, error, code: _code, ...fields } = body as Record<string, unknown>;
    const said = [description, error, message].find((v) => typeof v === 'string' && v);
    const details = Object.entries(fields)
      .filter(([, v]) => Array.isArray(v))
      .map(([k, v]) => `${k}: ${(v as unknown[]).join(', ')}`);
    return [said, ...details].filter(Boolean).join('; ') || JSON.stringify(body);
  }
  return String(body ?? '').slice(0, 200);
}

/** At most this many variants, over all products, in one `PATCH /products/stock-price`. */
export const STOCK_PRICE_BATCH = 50;
/** The largest page Nuvemshop serves. */
export const MAX_PER_PAGE = 200;
/** The most results one query may reach (its matches, or page × per_page); past it Nuvemshop refuses the query. */
export const MAX_QUERY_RESULTS = 10_000;
/** A 422 that speaks of the limit, as "Query results are limited to 10.000 items" does, and not of a bad filter. */
const QUERY_TOO_LARGE = /limit|exceed|result|10[.,]?000/i;

export interface NuvemshopClientOptions {
  /** `{NUVEMSHOP_API_URL}`, version segment included. */
  baseUrl: string;
  /** `AppName (contact)`, sent on every call. */
  userAgent: string;
  /** Longest wait for one answer (ms). */
  timeoutMs: number;
  /** The most results one query may reach (10,000 unless told). */
  maxQueryResults?: number;
  /** Told of what a list could not reach past that limit (a process warning unless told). */
  warn?: (message: string) => void;
  /** 429s answered to one call before it gives up as unavailable (8 unless told). */
  rateLimitRetries?: number;
  /** 409s answered to one call before it gives up as busy (3 unless told), and the pause before each retry (1 s). */
  conflictRetries?: number;
  conflictPauseMs?: number;
  /**
   * Told of each call a store refused for a scope (403), before the refusal is thrown: the client keeps it, so staff see
   * what to grant. Its failure does not hide the refusal.
   */
  onPermissionMissing?: (storeId: number, scope: string) => Promise<void>;
}

/**
 * Nuvemshop's store API for this process: hands out one client per store and token, all of a store's clients sharing
 * the bucket that store's answers teach.
 */
export class NuvemshopClient {
  private readonly buckets = new Map<number, NuvemshopBucket>();

  constructor(readonly options: NuvemshopClientOptions) {}

  static fromConfig(
    config: Pick<Config, 'NUVEMSHOP_API_URL' | 'NUVEMSHOP_USER_AGENT' | 'NUVEMSHOP_TIMEOUT_MS'>,
    more: Pick<NuvemshopClientOptions, 'onPermissionMissing'> = {},
  ): NuvemshopClient {
    return new NuvemshopClient({
      baseUrl: config.NUVEMSHOP_API_URL,
      userAgent: config.NUVEMSHOP_USER_AGENT,
      timeoutMs: config.NUVEMSHOP_TIMEOUT_MS,
      ...more,
    });
  }

  /** The bucket of a store's calls (one per store in this process). */
  bucket(storeId: number): NuvemshopBucket {
    let bucket = this.buckets.get(storeId);
    if (!bucket) this.buckets.set(storeId, (bucket = new NuvemshopBucket()));
    return bucket;
  }

  /** A client for one store: its own count of requests, the store's shared bucket. */
  store(storeId: number, token: string): NuvemshopStoreClient {
    return new NuvemshopStoreClient(this.options, storeId, token, this.bucket(storeId));
  }
}

type Query = Record<string, string | number>;

/**
 * One store's calls, the only ones the product makes (products and their variants, images, stock and price,
 * categories, webhooks, the store's record), with Nuvemshop's required headers. Each call waits for room in the
 * store's bucket; a 429 waits for the bucket to drain and sends the same call again.
 */
export class NuvemshopStoreClient {
  /** Every request sent to Nuvemshop, a 429's retries included. */
  requests = 0;
  private readonly base: string;

  constructor(
    private readonly options: NuvemshopClientOptions,
    readonly storeId: number,
    private readonly token: string,
    readonly bucket: NuvemshopBucket,
  ) {
    this.base = `${options.baseUrl.replace(/\/+$/, '')}/${storeId}`;
  }

  /** The first product with a variant of this SKU (SKUs are not unique at Nuvemshop), or null. */
  async findProductBySku(sku: string): Promise<NuvemshopProduct | null> {
    const answer = await this.send<NuvemshopProduct>('GET', `/products/sku/${encodeURIComponent(sku)}`, {
      missing: true,
    });
    return answer ?? null;
  }

  /** One page of products (1-based); empty past the last page, whether the store answers `[]` or 404. */
  async listProducts(page: number, perPage = MAX_PER_PAGE): Promise<NuvemshopProduct[]> {
    return this.listPage<NuvemshopProduct>('/products', page, perPage);
  }

  /**
   * Every product once, a page at a time, in windows of creation dates small enough for the 10,000-result limit
   * whether it counts matches or how far pages reach (see `byCreation`).
   */
  products(perPage = MAX_PER_PAGE): AsyncGenerator<NuvemshopProduct[]> {
    return byCreation<NuvemshopProduct>(
      (filters, page) => this.windowPage('/products', page, perPage, filters),
      Date.now(),
      this.windowOptions(perPage),
    );
  }

  /** One product as the store holds it, or null when it is gone: how an answer not understood is settled. */
  async getProduct(productId: number): Promise<NuvemshopProduct | null> {
    return (await this.send<NuvemshopProduct | undefined>('GET', `/products/${productId}`, { missing: true })) ?? null;
  }

  createProduct(product: NewProduct): Promise<NuvemshopProduct> {
    return this.send('POST', '/products', { body: product });
  }

  updateProduct(productId: number, changes: ProductChanges): Promise<NuvemshopProduct> {
    return this.send('PUT', `/products/${productId}`, { body: changes });
  }

  createVariant(productId: number, variant: NewVariant): Promise<NuvemshopVariant> {
    return this.send('POST', `/products/${productId}/variants`, { body: variant });
  }

  /** Updates existing variants only (each named by `id`); all or none. Answers the product's whole collection. */
  updateVariants(productId: number, variants: VariantChanges[]): Promise<NuvemshopVariant[]> {
    return this.send('PATCH', `/products/${productId}/variants`, { body: variants });
  }

  async deleteVariant(productId: number, variantId: number): Promise<void> {
    await this.send('DELETE', `/products/${productId}/variants/${variantId}`);
  }

  /**
   * Prices and stock of variants across products, in as many calls as batches of 50 variants take. A product with
   * more variants than fit in one call is split. Answers how each variant went.
   */
  async updateStockPrice(products: StockPriceProduct[]): Promise<StockPriceResult[]> {
    const results: StockPriceResult[] = [];
    for (const batch of batches(products)) {
      const answer = await this.send<
        { id: number; variants: { id: number; success: boolean; error?: string }[] }[] | undefined
      >('PATCH', '/products/stock-price', { body: batch });
      // Another shape than the per-variant report leaves those variants unreported: the caller reads them back.
      for (const product of Array.isArray(answer) ? answer : []) {
        if (!product || typeof product !== 'object' || !Array.isArray(product.variants)) continue;
        for (const variant of product.variants) {
          if (!variant || typeof variant !== 'object' || typeof variant.success !== 'boolean') continue;
          results.push({
            productId: product.id,
            variantId: variant.id,
            success: variant.success,
            error: variant.error,
          });
        }
      }
    }
    return results;
  }

  addImage(productId: number, image: NewImage): Promise<NuvemshopImage> {
    return this.send('POST', `/products/${productId}/images`, { body: image });
  }

  updateImage(productId: number, imageId: number, changes: ImageChanges): Promise<NuvemshopImage> {
    return this.send('PUT', `/products/${productId}/images/${imageId}`, { body: changes });
  }

  async deleteImage(productId: number, imageId: number): Promise<void> {
    await this.send('DELETE', `/products/${productId}/images/${imageId}`);
  }

  /** Every category of the store. */
  async listCategories(): Promise<NuvemshopCategory[]> {
    return this.all<NuvemshopCategory>('/categories');
  }

  createCategory(category: NewCategory): Promise<NuvemshopCategory> {
    return this.send('POST', '/categories', { body: category });
  }

  /** Every webhook the app has registered for the store. */
  async listWebhooks(): Promise<NuvemshopWebhook[]> {
    return this.all<NuvemshopWebhook>('/webhooks');
  }

  createWebhook(webhook: NewWebhook): Promise<NuvemshopWebhook> {
    return this.send('POST', '/webhooks', { body: webhook });
  }

  async deleteWebhook(webhookId: number): Promise<void> {
    await this.send('DELETE', `/webhooks/${webhookId}`);
  }

  /** The store's own record: its name and main address. */
  getStore(): Promise<NuvemshopStoreInfo> {
    return this.send('GET', '/store');
  }

  /** One order, or null when the store has none of that id. */
  async getOrder(orderId: number): Promise<NuvemshopOrder | null> {
    return (await this.send<NuvemshopOrder | undefined>('GET', `/orders/${orderId}`, { missing: true })) ?? null;
  }

  /**
   * The orders updated between `from` and `to`, a page at a time, in windows split in halves while too large for the
   * 10,000-result limit (see `byUpdate`): an order may be read twice, and callers take each by its id.
   */
  ordersUpdated(from: Date, to: Date, perPage = MAX_PER_PAGE): AsyncGenerator<NuvemshopOrder[]> {
    return byUpdate<NuvemshopOrder>(
      (filters, page) => this.windowPage('/orders', page, perPage, filters),
      from.getTime(),
      to.getTime(),
      this.windowOptions(perPage),
    );
  }

  /** The store's locations (one, or several under multi-inventory). */
  listLocations(): Promise<{ id: string }[]> {
    return this.send('GET', '/locations');
  }

  /** Marks an order fulfilled (a store with one location). */
  fulfilOrder(
    orderId: number,
    body: { shipping_tracking_number?: string; shipping_tracking_url?: string; notify_customer: boolean },
  ): Promise<NuvemshopOrder> {
    return this.send('POST', `/orders/${orderId}/fulfill`, { body });
  }

  listFulfillmentOrders(orderId: number): Promise<NuvemshopFulfillmentOrder[]> {
    return this.send('GET', `/orders/${orderId}/fulfillment-orders`);
  }

  updateFulfillmentOrder(
    orderId: number,
    fulfillmentOrderId: string,
    body: { status: string; tracking_info: { code: string | null; url: string | null; notify_customer: boolean } },
  ): Promise<NuvemshopFulfillmentOrder> {
    return this.send('PATCH', `/orders/${orderId}/fulfillment-orders/${encodeURIComponent(fulfillmentOrderId)}`, {
      body,
    });
  }

  cancelOrder(orderId: number, body: { reason: string; email: boolean; restock: boolean }): Promise<NuvemshopOrder> {
    return this.send('POST', `/orders/${orderId}/cancel`, { body });
  }

  createMetafield(body: {
    namespace: string;
    key: string;
    value: string;
    description?: string;
    owner_resource: 'Order';
    owner_id: number;
  }): Promise<{ id: number }> {
    return this.send('POST', '/metafields', { body });
  }

  /** A metafield's value replaced (`PUT /metafields/{id}`): an invoice appended to an order's NF-e list. */
  updateMetafield(metafieldId: number, body: { value: string }): Promise<{ id: number }> {
    return this.send('PUT', `/metafields/${metafieldId}`, { body });
  }

  /** An order's metafields in `namespace` (`GET /metafields/orders?owner_id&namespace`). */
  listOrderMetafields(orderId: number, namespace: string): Promise<NuvemshopMetafield[]> {
    return this.all<NuvemshopMetafield>('/metafields/orders', { owner_id: orderId, namespace });
  }

  private async all<T>(path: string, filters: Query = {}): Promise<T[]> {
    const items: T[] = [];
    for await (const page of this.pages<T>(path, MAX_PER_PAGE, filters)) items.push(...page);
    return items;
  }

  private async *pages<T>(path: string, perPage: number, filters: Query = {}): AsyncGenerator<T[]> {
    for (let page = 1; ; page++) {
      const items = await this.listPage<T>(path, page, perPage, filters);
      if (items.length > 0) yield items;
      if (items.length < perPage) return;
    }
  }

  private async listPage<T>(
    path: string,
    page: number,
    perPage: number,
    filters: Query = {},
    answered?: (headers: Headers) => void,
  ): Promise<T[]> {
    // Past the last page some stores answer 404 "Last page is N" rather than []: both are the end.
    const items = await this.send<T[]>('GET', path, {
      query: { ...filters, page, per_page: perPage },
      missing: true,
      answered,
    });
    return Array.isArray(items) ? items : [];
  }

  /** A page of a window: with the query's count when the store says it, or the refusal of a query too large. */
  private async windowPage<T>(path: string, page: number, perPage: number, filters: Filters): Promise<WindowAnswer<T>> {
    let total: number | undefined;
    try {
      const items = await this.listPage<T>(path, page, perPage, filters, (headers) => {
        const count = Number(headers.get('x-total-count') ?? NaN);
        if (Number.isSafeInteger(count)) total = count;
      });
      return { items, total };
    } catch (error) {
      if (error instanceof NuvemshopRefused && error.status === 422 && QUERY_TOO_LARGE.test(error.detail)) {
        return { tooLarge: error };
      }
      throw error;
    }
  }

  private windowOptions(perPage: number) {
    return {
      cap: this.options.maxQueryResults ?? MAX_QUERY_RESULTS,
      perPage,
      warn: this.options.warn ?? ((message: string) => process.emitWarning(message, 'NuvemshopQueryLimit')),
    };
  }

  /**
   * One call: waits for room in the bucket, sends, on 429 waits `x-rate-limit-reset` and sends it again, and on 409
   * sends it again after a short pause. With `missing`, a 404 answers undefined instead of failing.
   */
  private async send<T>(
    method: string,
    path: string,
    {
      body,
      query,
      missing = false,
      answered,
    }: { body?: unknown; query?: Query; missing?: boolean; answered?: (headers: Headers) => void } = {},
  ): Promise<T> {
    const search = query ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}` : '';
    const headers: Record<string, string> = {
      Authentication: `bearer ${this.token}`,
      'User-Agent': this.options.userAgent,
      'Content-Type': 'application/json',
      Accept: 'application/json',
    };
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const retries = this.options.rateLimitRetries ?? 8;
    let conflicts = 0;
    for (let attempt = 0; ; attempt++) {
      await this.bucket.take();
      this.requests++;
      let response: Response;
      let answer: unknown;
      try {
        const signal = AbortSignal.timeout(this.options.timeoutMs);
        response = await fetch(this.base + path + search, {
          method,
          headers,
          body: payload,
          signal,
          redirect: 'error',
        });
        answer = await readBody(response);
      } catch (error) {
        this.bucket.settle();
        throw timedOut(error)
          ? new NuvemshopUnavailable('nuvemshop_timeout', messages.nuvemshopTimedOut)
          : new NuvemshopUnavailable('nuvemshop_unreachable', messages.nuvemshopUnreachable);
      }
      this.bucket.settle();
      if (response.status === 429) {
        // The bucket holds back this call's next attempt, and every other call to the store, for x-rate-limit-reset.
        this.bucket.full(response.headers);
        if (attempt - conflicts >= retries) {
          throw new NuvemshopUnavailable(
            'nuvemshop_rate_limited',
            `Nuvemshop kept answering 429 to ${method} ${path}`,
            429,
            answer,
          );
        }
        continue;
      }
      this.bucket.learn(response.headers);
      // 409 "can occur with too many PUT requests": a moment's conflict with another write, gone a second later. Only
      // this call waits for it; the step's backoff is for a platform that cannot be reached.
      if (response.status === 409 && conflicts < (this.options.conflictRetries ?? 3)) {
        conflicts++;
        await sleep(this.options.conflictPauseMs ?? 1000);
        continue;
      }
      if (response.ok) {
        answered?.(response.headers);
        return answer as T;
      }
      if (response.status === 401) throw new TokenRevoked(answer);
      if (response.status === 402) throw new StoreSuspended(answer);
      if (response.status === 404 && missing) return undefined as T;
      if (response.status === 403) throw await this.permissionMissing(method, path, answer);
      // A 409 past its retries is retried with the step's backoff, like a 5xx.
      if (response.status >= 500 || response.status === 408 || response.status === 409) {
        throw new NuvemshopUnavailable(
          response.status === 409 ? 'nuvemshop_busy' : 'nuvemshop_unavailable',
          `Nuvemshop answered HTTP ${response.status} to ${method} ${path}`,
          response.status,
          answer,
        );
      }
      throw new NuvemshopRefused(method, path, response.status, answer);
    }
  }

  /** A 403, naming the scope the call needs; whoever keeps the client's missing scopes is told first. */
  private async permissionMissing(method: string, path: string, answer: unknown): Promise<PermissionMissing> {
    const scope = scopeOfCall(method, path);
    if (scope) await this.options.onPermissionMissing?.(this.storeId, scope).catch(() => undefined);
    return new PermissionMissing(answer, scope);
  }
}

/** Splits variants into calls of at most 50, keeping each product's variants together while they fit. */
function batches(products: StockPriceProduct[]): StockPriceProduct[][] {
  const calls: StockPriceProduct[][] = [];
  let call: StockPriceProduct[] = [];
  let size = 0;
  for (const product of products) {
    let rest = product.variants;
    const fitsAlone = rest.length <= STOCK_PRICE_BATCH;
    while (rest.length > 0) {
      if (size === STOCK_PRICE_BATCH || (fitsAlone && size > 0 && size + rest.length > STOCK_PRICE_BATCH)) {
        calls.push(call);
        call = [];
        size = 0;
      }
      const part = rest.slice(0, STOCK_PRICE_BATCH - size);
      rest = rest.slice(part.length);
      call.push({ id: product.id, variants: part });
      size += part.length;
    }
  }
  if (call.length > 0) calls.push(call);
  return calls;
}
