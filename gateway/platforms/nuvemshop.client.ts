import type { Config } from '../config';
import { messages } from '../messages';
import { observeBucketWait } from '../metrics/bucket-waits';
import { NuvemshopBucket } from './nuvemshop-bucket';
import { byCreation, byUpdate, type Filters, type WindowAnswer } from './nuvemshop-windows';
import { scopeOfCall } from './nuvemshop-scopes';
import { readBody, sleep, timedOut } from './platform-call';
import {
  NuvemshopRefused,
  NuvemshopUnavailable,
  PermissionMissing,
  StoreSuspended,
  TokenRevoked,
} from './nuvemshop.errors';
import type {
  ImageChanges,
  NewCategory,
  NewImage,
  NewProduct,
  NewVariant,
  NewWebhook,
  NuvemshopCategory,
  NuvemshopFulfillmentOrder,
  NuvemshopImage,
  NuvemshopLocation,
  NuvemshopMetafield,
  NuvemshopOrder,
  NuvemshopProduct,
  NuvemshopStoreInfo,
  NuvemshopVariant,
  NuvemshopWebhook,
  ProductChanges,
  StockPriceProduct,
  StockPriceResult,
  VariantChanges,
} from './nuvemshop.shapes';

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
 * store's bucket; a 429 waits for the bucket to drain and sends the same call again. One class, past 300 lines, because
 * every call shares its one request path (`call`): the shapes and refusals are in nuvemshop.shapes.ts and .errors.ts.
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
  products(perPage = MAX_PER_PAGE, fields?: readonly string[]): AsyncGenerator<NuvemshopProduct[]> {
    // Only the fields asked for (`fields`, as product.md lists it), plus what the windows need.
    const only: Filters = fields ? { fields: [...new Set(['id', 'created_at', ...fields])].join(',') } : {};
    return byCreation<NuvemshopProduct>(
      (filters, page) => this.windowPage('/products', page, perPage, { ...filters, ...only }),
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

  /**
   * One order, or null when the store has none of that id. With `fulfillmentOrders`, its fulfillment orders come
   * embedded (`aggregates=fulfillment_orders`, the 2025-03 Order API): one request where two were. A store that embeds none
   * leaves them to be read apart by who needs them; one that refuses the embedded read (a 403 that does not say which
   * scope it lacks) is asked the plain one.
   */
  async getOrder(orderId: number, { fulfillmentOrders = false } = {}): Promise<NuvemshopOrder | null> {
    if (fulfillmentOrders) {
      try {
        const query = { aggregates: 'fulfillment_orders' };
        return (
          (await this.send<NuvemshopOrder | undefined>('GET', `/orders/${orderId}`, {
            missing: true,
            query,
            unscoped: true,
          })) ?? null
        );
      } catch (error) {
        if (!(error instanceof PermissionMissing)) throw error;
      }
    }
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
  listLocations(): Promise<NuvemshopLocation[]> {
    return this.send('GET', '/locations');
  }

  /** The store's locations in a new order: every one of them, each with its priority (0 first). */
  setLocationPriorities(priorities: { id: string; priority: number }[]): Promise<unknown> {
    return this.send('PATCH', '/locations/priorities', { body: priorities });
  }

  /** Makes a location the store's default (the call takes no body). */
  chooseDefaultLocation(locationId: string): Promise<unknown> {
    return this.send('PATCH', `/locations/${encodeURIComponent(locationId)}/chosen-as-default`);
  }

  /** Marks an order fulfilled (a store with one location). */
  fulfilOrder(
    orderId: number,
    body: { shipping_tracking_number?: string; shipping_tracking_url?: string; notify_customer: boolean },
  ): Promise<NuvemshopOrder> {
    return this.send('POST', `/orders/${orderId}/fulfill`, { body });
  }

  /** An order's fulfillment orders: a list, or the paginated `{results}` Tiendanube's mocks answer. */
  async listFulfillmentOrders(orderId: number): Promise<NuvemshopFulfillmentOrder[]> {
    const answer = await this.send<unknown>('GET', `/orders/${orderId}/fulfillment-orders`);
    const results = answer && typeof answer === 'object' ? (answer as { results?: unknown }).results : undefined;
    const list = Array.isArray(answer) ? answer : Array.isArray(results) ? results : [];
    return list as NuvemshopFulfillmentOrder[];
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
      unscoped = false,
    }: {
      body?: unknown;
      query?: Query;
      missing?: boolean;
      answered?: (headers: Headers) => void;
      /** A 403 names no scope and is kept by no one: the caller asks otherwise. */
      unscoped?: boolean;
    } = {},
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
    let rateLimited = false;
    for (let attempt = 0; ; attempt++) {
      const waiting = performance.now();
      await this.bucket.take();
      observeBucketWait(rateLimited ? '429' : 'bucket', waiting);
      rateLimited = false;
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
        rateLimited = true;
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
      if (response.status === 403)
        throw unscoped ? new PermissionMissing(answer, null) : await this.permissionMissing(method, path, answer);
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
