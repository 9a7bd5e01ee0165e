import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../gateway/config';
import {
  HiperAnswerNotUnderstood,
  HiperClient,
  HiperKeyRefused,
  HiperUnavailable,
  isGradeChild,
} from '../../gateway/platforms/hiper.client';
import { NuvemshopClient } from '../../gateway/platforms/nuvemshop.client';
import {
  NuvemshopRefused,
  NuvemshopUnavailable,
  StoreSuspended,
  TokenRevoked,
} from '../../gateway/platforms/nuvemshop.errors';
import { exchangeCode } from '../../gateway/platforms/nuvemshop-token.client';
import {
  docDescribedError,
  docFieldErrors,
  docImage,
  docLastPage,
  docProduct,
  docStore,
  docTokenWithStoreId,
  docTokenWithUserId,
  docVariant,
  docWebhook,
  shapeOf,
} from '../support/fixtures/nuvemshop-docs';
import { startNuvemshopStandIn } from '../support/nuvemshop';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';

const USER_AGENT = 'Sistema de Integracao (admin@example.com)';
/** A bucket of the documented size that drains 20 times faster than the real one, so bursts take seconds. */
const FAST_BUCKET = { size: 40, drainPerSecond: 40 };

let nuvemshop: NuvemshopApiStandIn;
let hiper: HiperStandIn;
let nextStore = 5000;

beforeAll(async () => {
  [nuvemshop, hiper] = await Promise.all([startNuvemshopApi({ bucket: FAST_BUCKET }), startHiper({ pageSize: 3 })]);
});
afterAll(async () => {
  await Promise.all([nuvemshop?.close(), hiper?.close()]);
});
afterEach(() => {
  nuvemshop.clearFaults();
  hiper.clearFaults();
});

const clientFor = (timeoutMs = 2000) =>
  new NuvemshopClient({ baseUrl: nuvemshop.url, userAgent: USER_AGENT, timeoutMs });

/** A fresh store at the stand-in and a client for it. */
function newStore(settings: Parameters<NuvemshopApiStandIn['addStore']>[1] = {}, timeoutMs?: number) {
  const id = nextStore++;
  const store = nuvemshop.addStore(id, settings);
  return { id, store, client: clientFor(timeoutMs).store(id, store.token) };
}

/** A request with exactly these headers (fetch would add a User-Agent of its own). */
function rawRequest(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: any; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined, headers: res.headers }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const simpleProduct = (sku: string, stock = 5) => ({
  name: `Produto ${sku}`,
  variants: [{ sku, price: '19.90', stock }],
});

describe('the Nuvemshop client and stand-in', () => {
  it('sends Authentication, User-Agent and Content-Type on every call; the stand-in refuses a call without one', async () => {
    const { id, store, client } = newStore();
    await client.getStore();
    await client.createProduct(simpleProduct('H-1'));
    for (const request of nuvemshop.requestsOf(id)) {
      expect(request.headers.authentication).toBe(`bearer ${store.token}`);
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers['user-agent']).toBe(USER_AGENT);
      expect(request.headers['content-type']).toBe('application/json');
    }

    const url = `${nuvemshop.url}/${id}/products`;
    const auth = { Authentication: `bearer ${store.token}` };
    const json = { 'Content-Type': 'application/json' };
    const body = JSON.stringify(simpleProduct('H-2'));
    const ua = { 'User-Agent': USER_AGENT };
    expect((await rawRequest('POST', url, { ...auth, ...json }, body)).status).toBe(400);
    // fetch's own User-Agent names no app and no contact
    expect((await rawRequest('POST', url, { ...auth, ...json, 'User-Agent': 'node' }, body)).status).toBe(400);
    expect((await rawRequest('POST', url, { ...ua, ...json }, body)).status).toBe(401);
    expect(
      (await rawRequest('POST', url, { ...ua, ...json, Authentication: 'bearer not-the-token' }, body)).status,
    ).toBe(401);
    expect((await rawRequest('POST', url, { ...ua, ...auth }, body)).status).toBe(415);
    expect((await rawRequest('POST', url, { ...ua, ...auth, 'Content-Type': 'text/plain' }, body)).status).toBe(415);
    const broken = await rawRequest('POST', url, { ...ua, ...auth, ...json }, '{"name": ');
    expect(broken).toMatchObject({ status: 400, body: { error: 'Problems parsing JSON' } });
    // Some ERP-guide pages write Authorization: Bearer; whether the platform takes it is unverified, so the stand-in does.
    const other = await rawRequest('POST', url, { ...ua, ...json, Authorization: `Bearer ${store.token}` }, body);
    expect(other.status).toBe(201);
    expect(store.products.map((p) => p.variants[0].sku)).toEqual(['H-1', 'H-2']);
    const refusedPaths = nuvemshop.requestsOf(id).filter((r) => r.status >= 400);
    expect(refusedPaths).toHaveLength(7);
  });

  it('answers every call with the bucket headers, and 429 once the bucket is full', async () => {
    const { id, store } = newStore({ bucket: { size: 5, drainPerSecond: 1 } });
    const headers = { 'User-Agent': USER_AGENT, Authentication: `bearer ${store.token}` };
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await rawRequest('GET', `${nuvemshop.url}/${id}/store`, headers));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers[0].headers).toMatchObject({ 'x-rate-limit-limit': '5', 'x-rate-limit-remaining': '4' });
    expect(Number(answers[4].headers['x-rate-limit-reset'])).toBeGreaterThan(4000);
    expect(answers[5].headers['x-rate-limit-remaining']).toBe('0');
  });

  it('never causes a 429 in a burst of 100 calls on a bucket of 40, and counts its requests', async () => {
    const { id, client } = newStore();
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 100 }, () => client.getStore()));
    const seconds = (performance.now() - started) / 1000;
    expect(answers.every((a) => a.id === id)).toBe(true);
    const received = nuvemshop.requestsOf(id);
    expect(received.filter((r) => r.status === 429)).toEqual([]);
    expect(received).toHaveLength(100);
    expect(client.requests).toBe(100);
    // 60 calls past the bucket's 40 drain at 40 a second: the limiter waited for them.
    expect(seconds).toBeGreaterThan(1.2);
  });

  it('learns a larger bucket (a plan ×10) from the headers rather than assuming 40', async () => {
    const { id, client } = newStore({ bucket: { size: 400, drainPerSecond: 20 } });
    const started = performance.now();
    await Promise.all(Array.from({ length: 100 }, () => client.getStore()));
    expect(performance.now() - started).toBeLessThan(3000);
    expect(client.bucket.limit).toBe(400);
    expect(nuvemshop.requestsOf(id).filter((r) => r.status === 429)).toEqual([]);
  });

  it('on a 429, waits x-rate-limit-reset and sends the same call again: nothing is lost', async () => {
    const { id, store, client } = newStore();
    const product = store.seedProduct({
      name: 'Camiseta',
      attributes: ['Cor'],
      variants: [
        { sku: 'C-1', values: ['Azul'], price: 10, stock: 1 },
        { sku: 'C-2', values: ['Verde'], price: 10, stock: 1 },
      ],
    });
    const [blue, green] = product.variants;
    nuvemshop.inject({ store: id, path: '/products/stock-price', status: 429 });
    const results = await client.updateStockPrice([
      {
        id: product.id,
        variants: [
          { id: blue.id, stock: 7, price: 12.5 },
          { id: green.id, stock: 0 },
        ],
      },
    ]);
    expect(results).toEqual([
      { productId: product.id, variantId: blue.id, success: true, error: undefined },
      { productId: product.id, variantId: green.id, success: true, error: undefined },
    ]);
    const calls = nuvemshop.requestsOf(id).filter((r) => r.route === 'PATCH /products/stock-price');
    expect(calls.map((c) => c.status)).toEqual([429, 200]);
    expect(calls[1].body).toEqual(calls[0].body);
    // The forced 429 filled the bucket: 40 requests at 40 a second is a reset of 1000 ms.
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(950);
    expect(client.requests).toBe(2);
    expect(store.variant(blue.id)).toMatchObject({ stock: 7, price: '12.50', stock_management: true });
    expect(store.variant(green.id)).toMatchObject({ stock: 0, price: '10.00' });
  });

  it('raises TokenRevoked on 401 and StoreSuspended on 402, without sending the call again', async () => {
    const revoked = newStore();
    nuvemshop.revoke(revoked.id);
    const refusal = await revoked.client.createProduct(simpleProduct('R-1')).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(TokenRevoked);
    expect(refusal).toMatchObject({ status: 401, retryable: false });
    expect(nuvemshop.requestsOf(revoked.id)).toHaveLength(1);
    expect(revoked.store.products).toEqual([]);

    const suspended = newStore();
    nuvemshop.suspend(suspended.id);
    const suspension = await suspended.client.getStore().catch((e: unknown) => e);
    expect(suspension).toBeInstanceOf(StoreSuspended);
    expect(suspension).toMatchObject({ status: 402, retryable: false });
    expect(nuvemshop.requestsOf(suspended.id)).toHaveLength(1);
    nuvemshop.resume(suspended.id);
    await expect(suspended.client.getStore()).resolves.toMatchObject({ id: suspended.id });
  });

  it('raises a retryable error on 5xx, on a timeout and on a dropped connection, sending the call once', async () => {
    const { id, client } = newStore({}, 300);
    nuvemshop.inject({ store: id, status: 503 });
    const down = await client.getStore().catch((e: unknown) => e);
    expect(down).toBeInstanceOf(NuvemshopUnavailable);
    expect(down).toMatchObject({ status: 503, retryable: true });

    nuvemshop.inject({ store: id, delayMs: 1000 });
    const slow = await client.getStore().catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(NuvemshopUnavailable);
    expect(slow).toMatchObject({ retryable: true, message: 'Nuvemshop did not answer in time' });

    nuvemshop.inject({ store: id, drop: true });
    await expect(client.getStore()).rejects.toBeInstanceOf(NuvemshopUnavailable);
    expect(nuvemshop.requestsOf(id)).toHaveLength(3);
    expect(client.requests).toBe(3);
  });

  it('refuses stock that is not whole units, changing nothing', async () => {
    const { store, client } = newStore();
    const product = store.seedProduct(simpleProduct('S-1', 3));
    const [variant] = product.variants;
    const patch = await client.updateVariants(product.id, [{ id: variant.id, stock: 1.5 }]).catch((e: unknown) => e);
    expect(patch).toBeInstanceOf(NuvemshopRefused);
    expect(patch).toMatchObject({ status: 422, retryable: false, body: { stock: ['The stock must be an integer.'] } });
    const batch = await client
      .updateStockPrice([{ id: product.id, variants: [{ id: variant.id, stock: 1.5 }] }])
      .catch((e: unknown) => e);
    expect(batch).toMatchObject({ status: 422, body: { stock: ['The stock must be an integer.'] } });
    const created = await client.createProduct(simpleProduct('S-2', 0.5)).catch((e: unknown) => e);
    expect(created).toMatchObject({ status: 422 });
    expect(store.variant(variant.id)?.stock).toBe(3);
    expect(store.products).toHaveLength(1);

    await client.updateVariants(product.id, [{ id: variant.id, stock: 2 }]);
    expect(store.variant(variant.id)?.stock).toBe(2);
  });

  it('sends at most 50 variants per stock-price call; the stand-in refuses 51', async () => {
    const { id, store, client } = newStore();
    const values = Array.from({ length: 60 }, (_, i) => `T${i}`);
    const big = store.seedProduct({
      name: 'Grande',
      attributes: ['Tamanho'],
      variants: values.map((v) => ({ values: [v], stock: 1 })),
    });
    const small = Array.from({ length: 3 }, (_, i) => store.seedProduct(simpleProduct(`B-${i}`)));
    const updates = [big, ...small].map((p) => ({
      id: p.id,
      variants: p.variants.map((v) => ({ id: v.id, stock: 9 })),
    }));
    const results = await client.updateStockPrice(updates);
    expect(results).toHaveLength(63);
    expect(results.every((r) => r.success)).toBe(true);
    const calls = nuvemshop.requestsOf(id).filter((r) => r.route === 'PATCH /products/stock-price');
    const sizes = calls.map((c) => (c.body as { variants: unknown[] }[]).reduce((n, p) => n + p.variants.length, 0));
    expect(sizes).toEqual([50, 13]);
    expect(store.variants.every((v) => v.stock === 9)).toBe(true);

    const tooMany = await fetch(`${nuvemshop.url}/${id}/products/stock-price`, {
      method: 'PATCH',
      headers: {
        'User-Agent': USER_AGENT,
        Authentication: `bearer ${store.token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify([{ id: big.id, variants: big.variants.slice(0, 51).map((v) => ({ id: v.id, stock: 1 })) }]),
    });
    expect(tooMany.status).toBe(422);
    expect(await tooMany.json()).toMatchObject({ description: 'Too many variants sent for update' });
  });

  it('reports per variant what stock-price could not apply', async () => {
    const { store, client } = newStore();
    const product = store.seedProduct(simpleProduct('P-1'));
    const other = store.seedProduct(simpleProduct('P-2'));
    store.refuseInStockPrice.set(other.variants[0].id, 'Variant is locked');
    const results = await client.updateStockPrice([
      {
        id: product.id,
        variants: [
          { id: product.variants[0].id, stock: 4 },
          { id: 1, stock: 4 },
        ],
      },
      { id: other.id, variants: [{ id: other.variants[0].id, stock: 4 }] },
    ]);
    expect(results.map((r) => [r.success, r.error])).toEqual([
      [true, undefined],
      [false, 'Variant not found'],
      [false, 'Variant is locked'],
    ]);
    expect(product.variants[0].stock).toBe(4);
    expect(other.variants[0].stock).toBe(5);
  });

  it('reads a store past the 10,000-result cap in windows, no query reaching past the cap', async () => {
    // The cap scaled down: 10,000 results of 200 a page is 50 pages, as 50 results of 10 a page is 5.
    const standIn = await startNuvemshopApi({ bucket: FAST_BUCKET, maxQueryItems: 50 });
    try {
      const store = standIn.addStore(78);
      // Imported at once: all made in the same second.
      const second = new Date().toISOString().replace(/\.\d{3}Z$/, '+0000');
      for (let i = 0; i < 125; i++) store.seedProduct(simpleProduct(`W-${i}`), second);
      const client = new NuvemshopClient({
        baseUrl: standIn.url,
        userAgent: USER_AGENT,
        timeoutMs: 2000,
        maxQueryResults: 50,
      }).store(78, store.token);
      const skus: string[] = [];
      for await (const page of client.products(10)) skus.push(...page.map((p) => p.variants[0].sku!));
      expect(skus).toHaveLength(125);
      expect(new Set(skus).size).toBe(125);
      const lists = standIn.requestsOf(78);
      expect(lists.every((r) => r.status === 200)).toBe(true);
      expect(lists.every((r) => Number(r.query.page) * Number(r.query.per_page) <= 50)).toBe(true);
      // The 13 pages it takes: each window goes on after the last id read, in the second of the last product read.
      expect(lists.every((r) => r.query.sort_by === 'created-at-ascending')).toBe(true);
      const windows = lists.map((r) => r.query.since_id);
      expect([...new Set(windows)]).toEqual([undefined, String(store.products[49].id), String(store.products[99].id)]);
      expect(lists).toHaveLength(13);
    } finally {
      await standIn.close();
    }
  });

  it.each(['empty', 'not-found'] as const)(
    'ends the product listing on a page past the last (%s)',
    async (pastLastPage) => {
      const standIn = await startNuvemshopApi({ bucket: FAST_BUCKET, pastLastPage });
      try {
        const store = standIn.addStore(77);
        for (let i = 0; i < 4; i++) store.seedProduct(simpleProduct(`L-${i}`));
        const client = new NuvemshopClient({ baseUrl: standIn.url, userAgent: USER_AGENT, timeoutMs: 2000 }).store(
          77,
          store.token,
        );
        const pages = [];
        for await (const page of client.products(2)) pages.push(page.map((p) => p.variants[0].sku));
        expect(pages).toEqual([
          ['L-0', 'L-1'],
          ['L-2', 'L-3'],
        ]);
        const lists = standIn.requestsOf(77).map((r) => [r.query.page, r.status]);
        expect(lists).toEqual([
          ['1', 200],
          ['2', 200],
          ['3', pastLastPage === 'empty' ? 200 : 404],
        ]);
        expect(await client.listProducts(9, 2)).toEqual([]);
      } finally {
        await standIn.close();
      }
    },
  );

  it('finds a product by SKU, and answers null for an SKU no variant has', async () => {
    const { store, client } = newStore();
    store.seedProduct(simpleProduct('K-1'));
    const twin = store.seedProduct(simpleProduct('K-1'));
    const found = await client.findProductBySku('K-1');
    expect(found?.id).toBe(store.products[0].id);
    expect(found?.id).not.toBe(twin.id);
    expect(await client.findProductBySku('K-404')).toBeNull();
  });

  it('keeps the image it was sent as its own CDN copy, with its own address', async () => {
    const { store, client } = newStore();
    const product = store.seedProduct(simpleProduct('I-1'));
    const sent = 'https://hiper-gestao.s3.amazonaws.com/acct/imagem-de-produto/img/600.jpeg';
    const image = await client.addImage(product.id, { src: sent });
    expect(image.src).toMatch(/^https:\/\/d26lpennugtm8s\.cloudfront\.net\/stores\/.+-640-0\.jpg$/);
    expect(image.src).not.toBe(sent);
    expect(store.sentSrc.get(image.id)).toBe(sent);
    await expect(client.addImage(product.id, { src: 'https://example.com/file.pdf' })).rejects.toMatchObject({
      status: 422,
    });
    const moved = await client.updateImage(product.id, image.id, { position: 1 });
    expect(moved.position).toBe(1);
    await client.deleteImage(product.id, image.id);
    expect(product.images).toEqual([]);
  });

  it('replaces the variant collection on PUT, deleting the combinations it does not name', async () => {
    const { id, store } = newStore();
    const product = store.seedProduct({
      name: 'Tênis',
      attributes: ['Tamanho'],
      variants: ['38', '39', '40'].map((v) => ({ values: [v], stock: 1, sku: `T-${v}` })),
    });
    const kept = product.variants.find((v) => v.sku === 'T-39')!;
    const answer = await rawRequest(
      'PUT',
      `${nuvemshop.url}/${id}/products/${product.id}/variants`,
      { 'User-Agent': USER_AGENT, Authentication: `bearer ${store.token}`, 'Content-Type': 'application/json' },
      JSON.stringify([
        { values: ['39'], stock: 4 },
        { values: ['41'], stock: 2 },
      ]),
    );
    expect(answer.status).toBe(200);
    expect(store.product(product.id)!.variants.map((v) => [v.values[0].pt, v.stock])).toEqual([
      ['39', 4],
      ['41', 2],
    ]);
    expect(store.product(product.id)!.variants[0].id).toBe(kept.id);
  });

  it('creates, updates and deletes variants, and refuses repeated values', async () => {
    const { store, client } = newStore();
    const product = await client.createProduct({
      name: 'Camiseta',
      attributes: ['Cor'],
      variants: [{ sku: 'V-1', values: ['Azul'], price: 10, stock: 1 }],
    });
    const added = await client.createVariant(product.id, { sku: 'V-2', values: ['Verde'], price: 10, stock: 0 });
    await expect(client.createVariant(product.id, { values: ['azul'] })).rejects.toMatchObject({ status: 422 });
    const all = await client.updateVariants(product.id, [{ id: added.id, barcode: '7890000000001' }]);
    expect(all.map((v) => v.barcode)).toEqual([null, '7890000000001']);
    await client.deleteVariant(product.id, added.id);
    expect(store.product(product.id)!.variants.map((v) => v.sku)).toEqual(['V-1']);
    await client.updateProduct(product.id, { name: 'Camiseta Lisa', published: false, brand: 'Hering' });
    expect(store.product(product.id)).toMatchObject({
      name: { pt: 'Camiseta Lisa' },
      published: false,
      brand: 'Hering',
    });
  });

  it('lists and creates categories, and registers webhooks at https addresses only', async () => {
    const { store, client } = newStore();
    const root = await client.createCategory({ name: 'Roupas' });
    await client.createCategory({ name: 'Camisetas', parent: root.id });
    const categories = await client.listCategories();
    expect(categories.map((c) => [c.name.pt, c.parent])).toEqual([
      ['Roupas', 0],
      ['Camisetas', root.id],
    ]);

    await expect(
      client.createWebhook({ event: 'product/updated', url: 'http://integracao.example/hook' }),
    ).rejects.toMatchObject({
      status: 422,
      body: { url: ['invalid url specified'] },
    });
    await expect(
      client.createWebhook({ event: 'product/renamed', url: 'https://integracao.example/hook' }),
    ).rejects.toMatchObject({
      status: 422,
    });
    const hook = await client.createWebhook({ event: 'app/uninstalled', url: 'https://integracao.example/hook' });
    expect((await client.listWebhooks()).map((w) => w.event)).toEqual(['app/uninstalled']);
    await client.deleteWebhook(hook.id);
    expect(store.webhooks).toEqual([]);
    expect((await client.getStore()).business_address).toContain('Florianópolis');
  });

  it('serves only the contract’s calls, and ignores a price sent to PUT /products/{id} as the platform does', async () => {
    const { id, store } = newStore();
    const product = store.seedProduct(simpleProduct('X-1'));
    const headers = {
      'User-Agent': USER_AGENT,
      Authentication: `bearer ${store.token}`,
      'Content-Type': 'application/json',
    };
    const outside = [
      await rawRequest('GET', `${nuvemshop.url}/${id}/products/${product.id}/variants`, headers),
      await rawRequest('DELETE', `${nuvemshop.url}/${id}/products/${product.id}`, headers),
      await rawRequest('GET', `${nuvemshop.url}/${id}/customers`, headers),
    ];
    expect(outside.map((a) => a.status)).toEqual([404, 404, 404]);
    // Reading one product back is in the contract (an answer not understood is settled so).
    expect((await rawRequest('GET', `${nuvemshop.url}/${id}/products/${product.id}`, headers)).status).toBe(200);
    const put = await rawRequest(
      'PUT',
      `${nuvemshop.url}/${id}/products/${product.id}`,
      headers,
      JSON.stringify({ name: 'Outro nome', price: 1, stock: 1 }),
    );
    expect(put.status).toBe(200);
    expect(store.product(product.id)).toMatchObject({ name: { pt: 'Outro nome' } });
    expect(store.product(product.id)!.variants[0]).toMatchObject({ price: '19.90', stock: 5 });
    expect(nuvemshop.requestsOf(id).map((r) => r.route)).toEqual([
      null,
      null,
      null,
      'GET /products/{id}',
      'PUT /products/{id}',
    ]);
  });

  it('builds its client from the configuration', async () => {
    const config = loadConfig({ NUVEMSHOP_API_URL: nuvemshop.url, FIRST_SUPERUSER: 'ti@loja.example' });
    const { id, store } = newStore();
    await NuvemshopClient.fromConfig(config).store(id, store.token).getStore();
    expect(nuvemshop.requestsOf(id)[0].headers['user-agent']).toBe('Sistema de Integracao (ti@loja.example)');
  });
});

describe('the Hiper client and stand-in', () => {
  const clientOf = (key: string, options: Partial<ConstructorParameters<typeof HiperClient>[0]> = {}) =>
    new HiperClient({ baseUrl: hiper.url, key, timeoutMs: 1000, now: () => hiper.now(), ...options });
  const calls = (from: number) =>
    hiper.requests
      .slice(from)
      .map((r) => (r.path.startsWith('/auth/') ? 'token' : `${r.query.pontoDeSincronizacao}:${r.status}`));

  it('reads the delta page by page until "Nenhum produto encontrado", keeping the last cursor that is not 0', async () => {
    const account = hiper.addAccount();
    for (let i = 0; i < 4; i++) account.add({ nome: `Simples ${i}` });
    const grade = account.add({
      nome: 'Camiseta',
      variacao: [
        { tipoVariacaoA: 'Cor', nomeVariacaoA: 'Azul', quantidadeEmEstoque: 3 },
        { tipoVariacaoA: 'Cor', nomeVariacaoA: 'Verde', quantidadeEmEstoque: 2 },
      ],
    });
    const client = clientOf(account.key);
    const start = hiper.requests.length;
    const { products, cursor } = await client.readAll(0);
    // 4 products, the grade, and its 2 variations also listed at the top level: 7, in pages of 3.
    expect(products).toHaveLength(7);
    expect(cursor).toBe(account.lastPosition);
    expect(cursor).toBeGreaterThan(0);
    const seen = calls(start);
    expect(seen[0]).toBe('token');
    expect(seen.slice(1).map((c) => c.split(':')[1])).toEqual(['200', '200', '200', '400']);
    expect(seen.at(-1)).toBe(`${cursor}:400`);
    expect(products.filter(isGradeChild).map((p) => p.nome)).toEqual(['Camiseta Azul', 'Camiseta Verde']);
    expect(products.find((p) => p.id === grade.id)?.variacao?.map((v) => v.nomeVariacaoA)).toEqual(['Azul', 'Verde']);

    // Nothing new: the answer's cursor 0 is never taken.
    expect(await client.readAll(cursor)).toEqual({ products: [], cursor });
    account.change(products[0].codigo, { preco: 12.5 });
    const next = await client.readAll(cursor);
    expect(next.products.map((p) => [p.codigo, p.preco])).toEqual([[products[0].codigo, 12.5]]);
    expect(next.cursor).toBe(account.lastPosition);
    expect(next.cursor).toBeGreaterThan(cursor);
    expect(hiper.tokensIssued(account.key)).toBe(1);
  });

  it('takes "Nenhum produto encontrado" by its body whatever the status', async () => {
    const account = hiper.addAccount();
    account.add({ nome: 'Único' });
    const client = clientOf(account.key);
    const { cursor } = await client.readAll(0);
    hiper.inject({
      path: '/produtos/pontoDeSincronizacao',
      status: 200,
      body: { pontoDeSincronizacao: 0, produtos: null, errors: ['Nenhum produto encontrado'], message: null },
    });
    expect(await client.page(cursor)).toEqual({ products: [], cursor: null });
  });

  it('keeps its token until shortly before exp, then mints a new one', async () => {
    const account = hiper.addAccount();
    account.add({ nome: 'Um' });
    const client = clientOf(account.key, { renewBeforeSeconds: 300 });
    for (let i = 0; i < 3; i++) await client.page(0);
    expect(hiper.tokensIssued(account.key)).toBe(1);
    const { exp, iat } = JSON.parse(Buffer.from((await client.token()).split('.')[1], 'base64url').toString());
    expect(exp - iat).toBe(21_600);
    // Half a second before the renewal point, then half a second after it.
    hiper.advanceClock((exp - 300) * 1000 - 500 - hiper.now());
    await client.page(0);
    expect(hiper.tokensIssued(account.key)).toBe(1);
    hiper.advanceClock(1000);
    await client.page(0);
    expect(hiper.tokensIssued(account.key)).toBe(2);
    expect(client.tokenRequests).toBe(2);
  });

  it('renews once on 401 (an expired token) and reads on', async () => {
    const account = hiper.addAccount();
    account.add({ nome: 'Um' });
    // The client's clock lags behind Hiper's: it believes its token still good.
    const frozen = hiper.now();
    const client = clientOf(account.key, { now: () => frozen });
    await client.page(0);
    hiper.advanceClock(21_600 * 1000);
    const start = hiper.requests.length;
    const page = await client.page(0);
    expect(page.products).toHaveLength(1);
    expect(calls(start)).toEqual(['0:401', 'token', '0:200']);
    expect(hiper.tokensIssued(account.key)).toBe(2);
  });

  it('renews only once: a second 401 is an error, not a loop', async () => {
    const account = hiper.addAccount();
    account.add({ nome: 'Um' });
    const client = clientOf(account.key);
    await client.page(0);
    hiper.inject({ path: '/produtos/pontoDeSincronizacao', status: 401, times: 5 });
    const start = hiper.requests.length;
    await expect(client.page(0)).rejects.toBeInstanceOf(HiperAnswerNotUnderstood);
    expect(calls(start)).toEqual(['0:401', 'token', '0:401']);
  });

  it('raises HiperKeyRefused with the contract message for a refused key, without retrying', async () => {
    const account = hiper.addAccount();
    hiper.refuseKey(account.key);
    const client = clientOf(account.key);
    const start = hiper.requests.length;
    const error = await client.readAll(0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HiperKeyRefused);
    expect(error).toMatchObject({ message: 'Hiper refused the security key', retryable: false, status: 400 });
    expect((error as HiperKeyRefused).body).toMatchObject({ errors: [expect.stringMatching(/chave/i)] });
    expect(calls(start)).toEqual(['token']);
    await expect(clientOf('not-a-key').token()).rejects.toBeInstanceOf(HiperKeyRefused);
  });

  it('raises a retryable error on 5xx, after yielding the pages it read, so the stored cursor stays put', async () => {
    const account = hiper.addAccount();
    for (let i = 0; i < 5; i++) account.add({ nome: `P${i}` });
    const client = clientOf(account.key);
    await client.token();
    hiper.inject({ path: '/produtos/pontoDeSincronizacao', status: 502 });
    await expect(client.page(0)).rejects.toMatchObject({ retryable: true, status: 502 });

    const stored: number[] = [];
    let failure: unknown;
    try {
      for await (const page of client.changes(0)) {
        stored.push(page.cursor);
        hiper.inject({ path: '/produtos/pontoDeSincronizacao', status: 503 });
      }
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(HiperUnavailable);
    expect(stored).toEqual([account.products[2].pontoDeSincronizacao]);
  });

  it('keeps products not marked for the online store out of every answer', async () => {
    const account = hiper.addAccount();
    account.add({ nome: 'Na loja' });
    account.add({ nome: 'Fora da loja', enviarParaLojaVirtual: false });
    const { products } = await clientOf(account.key).readAll(0);
    expect(products.map((p) => p.nome)).toEqual(['Na loja']);
  });
});

describe('the documentation’s own examples', () => {
  /** Every documented field of `doc` is in `served` with the same JSON type (a documented null may be anything). */
  const expectDocumentedShape = (served: Record<string, unknown>, doc: Record<string, unknown>) => {
    const mine = shapeOf(served);
    for (const [field, type] of Object.entries(shapeOf(doc))) {
      if (type !== 'null') expect([field, mine[field]]).toEqual([field, type]);
      else expect(mine, field).toHaveProperty(field);
    }
  };

  it('are read by the Nuvemshop client: product, variant, image, store and webhook', async () => {
    const { id, client } = newStore();
    nuvemshop.inject({ store: id, method: 'GET', path: '/products/1234', status: 200, body: docProduct });
    const product = (await client.getProduct(1234))!;
    expect(product.variants[0]).toMatchObject({ id: 144, sku: '3001', stock: 5, price: '12.00' });
    expect(product.attributes).toEqual([{ pt: 'Cor' }]);
    expect(product.images[0].src).toMatch(/cloudfront/);
    nuvemshop.inject({ store: id, method: 'GET', path: '/store', status: 200, body: docStore });
    expect(await client.getStore()).toMatchObject({ id: 1234, main_language: 'pt' });
    nuvemshop.inject({ store: id, method: 'GET', path: '/webhooks', status: 200, body: [docWebhook] });
    expect(await client.listWebhooks()).toEqual([docWebhook]);
  });

  it('give a refusal’s gist in both documented 422 shapes, and end a listing on 404 "Last page is N"', async () => {
    const { id, client } = newStore();
    nuvemshop.inject({ store: id, method: 'POST', path: '/products', status: 422, body: docFieldErrors });
    await expect(client.createProduct({ name: '' })).rejects.toThrow(/name: can't be blank/);
    nuvemshop.inject({ store: id, method: 'POST', path: '/products', status: 422, body: docDescribedError });
    await expect(client.createProduct({ name: 'x' })).rejects.toThrow(
      /Variants cannot be repeated; duplicate_variant_ids: 144, 145/,
    );
    nuvemshop.inject({ store: id, method: 'GET', path: '/products', status: 404, body: docLastPage });
    expect(await client.listProducts(4)).toEqual([]);
  });

  it('are the shapes the stand-in answers in', async () => {
    const { store, client } = newStore();
    store.addLocation('Loja física');
    const created = await client.createProduct({
      name: 'Camisa',
      attributes: [{ pt: 'Cor' }],
      variants: [{ sku: '3001', barcode: '7891234567895', price: 12, stock: 5, values: [{ pt: 'Azul' }] }],
      images: [{ src: 'https://hiper-gestao.s3.amazonaws.com/a/imagem-de-produto/b/600.jpeg' }],
    });
    expectDocumentedShape(created as never, docProduct);
    expectDocumentedShape(created.variants[0] as never, docVariant);
    expectDocumentedShape(created.images[0] as never, docImage);
    expectDocumentedShape((await client.getStore()) as never, docStore);
    const webhook = await client.createWebhook({ event: 'app/uninstalled', url: docWebhook.url });
    expectDocumentedShape(webhook as never, docWebhook);
    const refused = await rawRequest(
      'POST',
      `${nuvemshop.url}/${store.id}/products`,
      { 'User-Agent': USER_AGENT, Authentication: `bearer ${store.token}`, 'Content-Type': 'application/json' },
      JSON.stringify({ name: '' }),
    );
    expect([refused.status, refused.body]).toEqual([422, docFieldErrors]);
  });

  it('are read at the install: the token answer with user_id or store_id, and the scopes granted', async () => {
    for (const answer of [docTokenWithUserId, docTokenWithStoreId]) {
      const platform = await startNuvemshopStandIn(() => ({ status: 200, body: answer }));
      try {
        const exchange = await exchangeCode(
          { tokenUrl: platform.url, clientId: '1', clientSecret: 's', timeoutMs: 2000 },
          'code',
        );
        expect(exchange).toEqual({
          kind: 'granted',
          storeId: 1234,
          accessToken: answer.access_token,
          scope: 'read_products,write_products',
        });
      } finally {
        await platform.close();
      }
    }
  });
});
