import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHiper, type HiperAccount, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { syncEnv, syncTools } from '../support/sync';

/**
 * The store synchronisation end to end: a real gateway with its pg-boss workers on a real PostgreSQL, against the
 * Hiper and Nuvemshop stand-ins. Each client gets an account and a store of its own.
 */
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;
let su: string;
let tools: ReturnType<typeof syncTools>;

beforeAll(async () => {
  [hiper, nuvemshop] = await Promise.all([
    startHiper({ pageSize: 4 }),
    startNuvemshopApi({ bucket: { size: 40, drainPerSecond: 40 } }),
  ]);
  t = await startTestGateway(syncEnv(hiper, nuvemshop));
  su = await t.superuserToken();
  tools = syncTools(t, su, hiper, nuvemshop);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([hiper?.close(), nuvemshop?.close()]);
});

const connectedClient = (flags?: Record<string, unknown>) => tools.connectedClient(flags);
const syncNow = (clientId: string, kind?: string, timeoutMs?: number) => tools.syncNow(clientId, kind, timeoutMs);
const waitForRun = (runId: string, timeoutMs?: number) => tools.waitForRun(runId, timeoutMs);
const writes = (storeId: number, since?: number) => tools.writes(storeId, since);

function seedCatalogue(account: HiperAccount) {
  const simple = account.add({
    nome: 'Camiseta lisa',
    preco: 49.9,
    quantidadeEmEstoque: 7.6,
    imagem: 'https://hiper-gestao.s3.amazonaws.com/acc/imagem-de-produto/a/600.jpeg',
    peso: 0.3,
    altura: 0,
  });
  const grade = account.add({
    nome: 'Tênis',
    preco: 199,
    variacao: [
      { nomeVariacaoA: 'Azul', tipoVariacaoA: 'Cor', quantidadeEmEstoque: 3 },
      { nomeVariacaoA: 'Preto', tipoVariacaoA: 'Cor', quantidadeEmEstoque: -2 },
    ],
  });
  const inactive = account.add({ nome: 'Fora de linha', ativo: false });
  return { simple, grade, inactive };
}

describe('a first run', () => {
  it('creates each product once (a grade as one product with its variants) and links every variant', async () => {
    const c = await connectedClient();
    const { simple, grade } = seedCatalogue(c.account);
    const run = await syncNow(c.id);
    expect(run).toMatchObject({ client_id: c.id, kind: 'catalogue', trigger: 'manual', state: 'succeeded' });
    expect(run.created).toBe(2);
    expect(run.unchanged).toBe(1); // the inactive product, never linked, is not created
    expect(run.requests).toBe(nuvemshop.requestsOf(c.storeId).length);

    const products = c.store.products;
    expect(products).toHaveLength(2);
    const shirt = products.find((p) => p.variants[0].sku === String(simple.codigo))!;
    expect(shirt.variants[0]).toMatchObject({ price: '49.90', stock: 7, weight: '0.300' });
    expect(shirt.images).toHaveLength(1);
    const shoes = products.find((p) => p.variants.length === 2)!;
    expect(shoes.attributes).toEqual([{ pt: 'Cor' }]);
    expect(shoes.variants.map((v) => [v.sku, v.stock, v.values])).toEqual([
      [String(grade.variacao![0].codigo), 3, [{ pt: 'Azul' }]],
      [String(grade.variacao![1].codigo), 0, [{ pt: 'Preto' }]],
    ]);
    expect(writes(c.storeId).filter((r) => r === 'POST /products')).toHaveLength(2);

    const links = await t.request('GET', `/api/v1/product-links/?client_id=${c.id}`, { token: su });
    expect(links.status).toBe(200);
    expect(links.body.count).toBe(3);
    expect(links.body.data.every((l: any) => l.state === 'linked' && l.nuvemshop_variant_id > 0)).toBe(true);
    const found = await t.request('GET', `/api/v1/product-links/?client_id=${c.id}&q=Camiseta`, { token: su });
    expect(found.body.data.map((l: any) => l.sku)).toEqual([String(simple.codigo)]);

    const client = await t.request('GET', `/api/v1/clients/${c.id}`, { token: su });
    expect(client.body.sync_state).toBe('idle');
    expect(client.body.last_synced_at).not.toBeNull();

    // A second full read of the same catalogue writes nothing and uploads no image again.
    const before = nuvemshop.requestsOf(c.storeId).length;
    const again = await syncNow(c.id, 'full');
    expect(again).toMatchObject({ state: 'succeeded', created: 0, updated: 0 });
    expect(writes(c.storeId, before)).toEqual([]);
  });

  it('adopts a product already in the store under the Hiper code, and refuses a SKU that matches several', async () => {
    const c = await connectedClient();
    const mine = c.account.add({ nome: 'Boné', preco: 30, quantidadeEmEstoque: 2 });
    const twice = c.account.add({ nome: 'Meia', preco: 10 });
    c.store.seedProduct({ name: 'Boné antigo', variants: [{ sku: String(mine.codigo), price: '25.00', stock: 1 }] });
    c.store.seedProduct({ name: 'Meia A', variants: [{ sku: String(twice.codigo), price: '10.00' }] });
    c.store.seedProduct({ name: 'Meia B', variants: [{ sku: String(twice.codigo), price: '10.00' }] });
    const run = await syncNow(c.id);
    expect(run).toMatchObject({ state: 'partial', created: 0, updated: 1, failed: 1 });
    expect(run.errors).toEqual([
      {
        hiper_id: twice.id,
        sku: String(twice.codigo),
        message: expect.stringContaining('matches 2 products'),
        code: 'sku_ambiguous',
      },
    ]);
    expect(c.store.products).toHaveLength(3);
    const adopted = c.store.products.find((p) => p.variants[0].sku === String(mine.codigo))!;
    expect(adopted.name).toEqual({ pt: 'Boné' });
    expect(adopted.variants[0]).toMatchObject({ price: '30.00', stock: 2 });
  });

  it('adopts by SKU in a store that already holds 25,000 products, creating only what is missing', async () => {
    const c = await connectedClient();
    for (let i = 0; i < 25_000; i++) {
      c.store.seedProduct({ name: `Antigo ${i}`, variants: [{ sku: String(900_000 + i), price: '10.00', stock: 1 }] });
    }
    const existing = Array.from({ length: 20 }, (_, k) => c.account.add({ codigo: 900_000 + k * 1249, preco: 10 }));
    const missing = Array.from({ length: 10 }, (_, k) => c.account.add({ codigo: 800_000 + k, preco: 10 }));
    const run = await syncNow(c.id, 'catalogue', 120_000);
    expect(run).toMatchObject({ state: 'succeeded', created: 10, failed: 0 });
    expect(run.updated + run.unchanged).toBe(20);
    expect(c.store.products).toHaveLength(25_010);
    for (const p of [...existing, ...missing]) {
      expect(c.store.products.filter((x) => x.variants.some((v) => v.sku === String(p.codigo)))).toHaveLength(1);
    }
    const lists = nuvemshop.requestsOf(c.storeId).filter((r) => r.route === 'GET /products');
    expect(lists.every((r) => r.status === 200)).toBe(true);
    expect(lists.every((r) => Number(r.query.page ?? 1) * Number(r.query.per_page ?? 30) <= 10_000)).toBe(true);
    // The whole catalogue read once, 200 a page, in three since_id windows.
    expect(lists).toHaveLength(126);
    expect(new Set(lists.map((r) => r.query.since_id)).size).toBe(3);
    // Each of the 20 is adopted as that reading found it, without asking the store for it again.
    expect(nuvemshop.requestsOf(c.storeId).filter((r) => r.route === 'GET /products/sku/{sku}')).toEqual([]);
  }, 120_000);

  it('does not duplicate a creation whose answer was lost: the marked product is found by its SKU', async () => {
    const c = await connectedClient();
    const p = c.account.add({ nome: 'Jaqueta', preco: 300, quantidadeEmEstoque: 1 });
    // The state a process killed between the mark and the answer leaves: the mark saved, the product created.
    await t.sql(
      `insert into sync_products (id, client_id, hiper_id, sku, creating_since) values (gen_random_uuid(), $1, $2, $3, now())`,
      [c.id, p.id, String(p.codigo)],
    );
    c.store.seedProduct({ name: 'Jaqueta', variants: [{ sku: String(p.codigo), price: '300.00', stock: 1 }] });
    const run = await syncNow(c.id);
    expect(run.state).toBe('succeeded');
    expect(c.store.products).toHaveLength(1);
    expect(writes(c.storeId).filter((r) => r === 'POST /products')).toEqual([]);
    const [row] = await t.sql<{ creating_since: Date | null; nuvemshop_product_id: string }>(
      'select creating_since, nuvemshop_product_id from sync_products where client_id = $1',
      [c.id],
    );
    expect(row).toEqual({ creating_since: null, nuvemshop_product_id: String(c.store.products[0].id) });
  });

  it('reports a creation the store refuses and takes its mark back: read again, it is created without a lookup', async () => {
    const c = await connectedClient();
    const p = c.account.add({ nome: 'Recusado uma vez', preco: 10, quantidadeEmEstoque: 1 });
    nuvemshop.inject({
      store: c.storeId,
      method: 'POST',
      path: '/products',
      status: 422,
      body: { code: 422, message: 'Unprocessable Entity', description: { name: ['is invalid'] } },
    });
    expect(await syncNow(c.id)).toMatchObject({ created: 0, failed: 1 });
    const [row] = await t.sql<{ creating_since: Date | null }>(
      'select creating_since from sync_products where client_id = $1 and hiper_id = $2',
      [c.id, p.id],
    );
    expect(row.creating_since).toBeNull();
    const mark = nuvemshop.requestsOf(c.storeId).length;
    // Read again (the daily full read, or a change of the product in the ERP).
    expect(await syncNow(c.id, 'full')).toMatchObject({ created: 1, failed: 0 });
    const routes = nuvemshop
      .requestsOf(c.storeId)
      .slice(mark)
      .map((r) => r.route);
    expect(routes).toContain('POST /products');
    expect(routes).not.toContain('GET /products/sku/{sku}');
    expect(c.store.products).toHaveLength(1);
  });
});

describe('stock on creation', () => {
  it('never leaves a new variant unlimited: created with stock, the location’s stock written through stock-price', async () => {
    const c = await connectedClient();
    const second = c.store.addLocation('Loja física');
    const located = await t.request('PUT', `/api/v1/clients/${c.id}`, {
      token: su,
      json: { nuvemshop_location_id: second.id },
    });
    expect(located.status, located.text).toBe(200);
    const grade = c.account.add({
      nome: 'Meia',
      variacao: [
        { nomeVariacaoA: 'P', tipoVariacaoA: 'Tamanho', quantidadeEmEstoque: 4 },
        { nomeVariacaoA: 'G', tipoVariacaoA: 'Tamanho', quantidadeEmEstoque: 9 },
      ],
    });
    const run = await syncNow(c.id);
    expect(run).toMatchObject({ state: 'succeeded', created: 1, failed: 0 });
    const created = nuvemshop.requestsOf(c.storeId).find((r) => r.route === 'POST /products')!;
    for (const v of (created.body as { variants: Record<string, unknown>[] }).variants) {
      expect(v).not.toHaveProperty('inventory_levels');
      expect(typeof v.stock).toBe('number');
    }
    expect(writes(c.storeId).filter((w) => w?.includes('/products'))).toEqual([
      'POST /products',
      'PATCH /products/stock-price',
    ]);
    const [product] = c.store.products;
    const levels = (sku: number) =>
      product.variants.find((v) => v.sku === String(sku))!.inventory_levels.map((l) => [l.location_id, l.stock]);
    for (const v of product.variants) expect(v.stock_management).toBe(true);
    expect(levels(grade.variacao![0].codigo)).toEqual([
      [c.store.locations[0].id, 0],
      [second.id, 4],
    ]);
    expect(levels(grade.variacao![1].codigo)).toEqual([
      [c.store.locations[0].id, 0],
      [second.id, 9],
    ]);
    // What was written is known: the next run writes nothing.
    const again = await syncNow(c.id, 'full');
    expect(again).toMatchObject({ state: 'succeeded', unchanged: 1, created: 0, updated: 0 });
  });

  it('without a location, creates every variant with its stock in POST /products and writes nothing more', async () => {
    const c = await connectedClient();
    c.account.add({ nome: 'Boné', quantidadeEmEstoque: 5 });
    expect((await syncNow(c.id)).created).toBe(1);
    expect(writes(c.storeId).filter((w) => w?.includes('/products'))).toEqual(['POST /products']);
    expect(c.store.products[0].variants[0]).toMatchObject({ stock_management: true, stock: 5 });
  });
});

describe('shapes as the platform documents them', () => {
  it('sends attributes and values as language objects, and a grade’s new axis before its variants’ values', async () => {
    const c = await connectedClient();
    const grade = c.account.add({
      nome: 'Camisa',
      variacao: [
        { nomeVariacaoA: 'Azul', tipoVariacaoA: 'Cor', quantidadeEmEstoque: 1 },
        { nomeVariacaoA: 'Verde', tipoVariacaoA: 'Cor', quantidadeEmEstoque: 1 },
      ],
    });
    expect((await syncNow(c.id)).created).toBe(1);
    const created = nuvemshop.requestsOf(c.storeId).find((r) => r.route === 'POST /products')!.body as {
      attributes: unknown[];
      variants: { values: unknown[] }[];
    };
    expect(created.attributes).toEqual([{ pt: 'Cor' }]);
    expect(created.variants.map((v) => v.values)).toEqual([[{ pt: 'Azul' }], [{ pt: 'Verde' }]]);

    // The grade gains a second axis: the product's attributes change first, then its variants' values.
    const since = nuvemshop.requestsOf(c.storeId).length;
    c.account.changeVariation(grade.variacao![0].id, { tipoVariacaoB: 'Tamanho', nomeVariacaoB: 'P' });
    c.account.changeVariation(grade.variacao![1].id, { tipoVariacaoB: 'Tamanho', nomeVariacaoB: 'G' });
    const run = await syncNow(c.id);
    expect(run).toMatchObject({ state: 'succeeded', updated: 1, failed: 0 });
    expect(writes(c.storeId, since)).toEqual(['PUT /products/{id}', 'PATCH /products/{id}/variants']);
    const [product] = c.store.products;
    expect(product.attributes).toEqual([{ pt: 'Cor' }, { pt: 'Tamanho' }]);
    expect(product.variants.map((v) => v.values)).toEqual([
      [{ pt: 'Azul' }, { pt: 'P' }],
      [{ pt: 'Verde' }, { pt: 'G' }],
    ]);
    expect(await syncNow(c.id, 'full')).toMatchObject({ state: 'succeeded', unchanged: 1 });
  });
});

describe('a later run', () => {
  it('sends a price and stock change through stock-price only, and unpublishes a removed product', async () => {
    const c = await connectedClient();
    const { simple, grade } = seedCatalogue(c.account);
    await syncNow(c.id);
    const before = nuvemshop.requestsOf(c.storeId).length;
    c.account.change(simple.id, { preco: 39.9 });
    c.account.setStock(grade.variacao![0].id, 9);
    const stock = await syncNow(c.id, 'stock');
    expect(stock).toMatchObject({ state: 'succeeded', updated: 2 });
    expect(writes(c.storeId, before)).toEqual(['PATCH /products/stock-price']);
    const shoes = c.store.products.find((p) => p.variants.length === 2)!;
    expect(shoes.variants[0].stock).toBe(9);

    const mark = nuvemshop.requestsOf(c.storeId).length;
    c.account.remove(simple.id);
    const catalogue = await syncNow(c.id);
    expect(catalogue.state).toBe('succeeded');
    expect(writes(c.storeId, mark)).toEqual(['PUT /products/{id}']);
    const shirt = c.store.products.find((p) => p.variants[0].sku === String(simple.codigo))!;
    expect(shirt.published).toBe(false);
    const links = await t.request('GET', `/api/v1/product-links/?client_id=${c.id}&state=unpublished`, { token: su });
    expect(links.body.data.map((l: any) => l.hiper_id)).toEqual([simple.id]);
  });
});

describe('the store platform’s answers', () => {
  it('a 429 storm: every product still written once', async () => {
    const c = await connectedClient();
    for (let i = 0; i < 6; i++) c.account.add({ nome: `Produto ${i}`, preco: 5 + i, quantidadeEmEstoque: i });
    nuvemshop.inject({ store: c.storeId, status: 429, times: 5, headers: { 'x-rate-limit-reset': '200' } });
    const run = await syncNow(c.id);
    expect(run).toMatchObject({ state: 'succeeded', created: 6 });
    expect(c.store.products).toHaveLength(6);
    expect(nuvemshop.requestsOf(c.storeId).filter((r) => r.status === 429)).toHaveLength(5);
  });

  it('401 marks the client token_revoked, ends the run and calls the store no more', async () => {
    const c = await connectedClient();
    c.account.add({ nome: 'Produto' });
    nuvemshop.revoke(c.storeId);
    const run = await syncNow(c.id);
    expect(run).toMatchObject({
      state: 'failed',
      errors: [expect.objectContaining({ message: 'Nuvemshop refused the store token' })],
    });
    const client = await t.request('GET', `/api/v1/clients/${c.id}`, { token: su });
    expect(client.body.sync_state).toBe('token_revoked');
    const calls = nuvemshop.requestsOf(c.storeId).length;
    expect(calls).toBe(1);
    const refused = await t.request('POST', `/api/v1/clients/${c.id}/sync`, { token: su, json: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('Client is not connected to both platforms');
    await new Promise((r) => setTimeout(r, 1000));
    expect(nuvemshop.requestsOf(c.storeId)).toHaveLength(calls);
  });

  it('402 marks the client suspended', async () => {
    const c = await connectedClient();
    c.account.add({ nome: 'Produto' });
    nuvemshop.suspend(c.storeId);
    const run = await syncNow(c.id);
    expect(run.state).toBe('failed');
    const client = await t.request('GET', `/api/v1/clients/${c.id}`, { token: su });
    expect(client.body.sync_state).toBe('suspended');
    expect(nuvemshop.requestsOf(c.storeId)).toHaveLength(1);
  });

  it('a store whose free days ran out (402, no webhook) is asked GET /store at each check and comes back by itself', async () => {
    const check = t.gateway.services.queues.find((q) => q.name === 'sync-suspended-check');
    expect(check?.everySeconds).toBe(60 * 60);
    const c = await connectedClient();
    c.account.add({ nome: 'Produto' });
    nuvemshop.suspend(c.storeId);
    expect((await syncNow(c.id)).state).toBe('failed');
    const stateOf = async () => (await t.request('GET', `/api/v1/clients/${c.id}`, { token: su })).body.sync_state;
    expect(await stateOf()).toBe('suspended');
    const calls = () => nuvemshop.requestsOf(c.storeId).map((r) => `${r.method} ${r.path} ${r.status}`);
    const before = calls().length;
    /** One firing of the schedule, and the store's answers to it. */
    const checked = async () => {
      const seen = calls().length;
      await t.gateway.services.jobs.send('sync-suspended-check', {});
      const until = Date.now() + 15_000;
      while (calls().length === seen && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 300));
      return calls().slice(seen);
    };

    // Still unpaid: the one call is GET /store, and the client stays suspended with no run queued.
    expect(await checked()).toEqual(['GET /store 402']);
    expect(await stateOf()).toBe('suspended');
    expect((await t.request('POST', `/api/v1/clients/${c.id}/sync`, { token: su, json: {} })).status).toBe(409);

    // Paid, and Nuvemshop sends nothing: the next check finds the store working and its runs resume.
    nuvemshop.resume(c.storeId);
    expect(await checked()).toEqual(['GET /store 200']);
    // No catalogue run has written its store yet: never synced, until the next run.
    expect(await stateOf()).toBe('never_synced');
    expect(calls().slice(before, before + 2)).toEqual(['GET /store 402', 'GET /store 200']);
    const run = await syncNow(c.id);
    expect(run).toMatchObject({ state: 'succeeded', created: 1 });
  });

  it.each(['products', 'empty'] as const)(
    'a stock-price answer of another shape (%s) is settled by reading the product back once, never re-sent',
    async (shape) => {
      const c = await connectedClient();
      const product = c.account.add({ nome: 'Caneca', preco: 20, quantidadeEmEstoque: 3 });
      expect((await syncNow(c.id)).created).toBe(1);
      c.store.stockPriceAnswer = shape;
      c.account.change(product.id, { preco: 25, quantidadeEmEstoque: 8 });
      const since = nuvemshop.requestsOf(c.storeId).length;
      const run = await syncNow(c.id);
      expect(run).toMatchObject({ state: 'succeeded', updated: 1, failed: 0 });
      expect(
        nuvemshop
          .requestsOf(c.storeId)
          .slice(since)
          .map((r) => r.route),
        // Every run opens with GET /store: a wrong token is found even by a run with nothing to write.
      ).toEqual(['GET /store', 'PATCH /products/stock-price', 'GET /products/{id}']);
      expect(c.store.products[0].variants[0]).toMatchObject({ price: '25.00', stock: 8 });
      // Settled: the next runs send nothing.
      const after = nuvemshop.requestsOf(c.storeId).length;
      expect(await syncNow(c.id, 'full')).toMatchObject({ state: 'succeeded', unchanged: 1 });
      expect(writes(c.storeId, after)).toEqual([]);
    },
  );

  it('a creation answered 2xx without the ids is settled by reading the product back once, never created twice', async () => {
    const c = await connectedClient();
    c.account.add({ nome: 'Cesto', quantidadeEmEstoque: 2 });
    nuvemshop.inject({ store: c.storeId, method: 'POST', path: '/products', answerBody: {} });
    const run = await syncNow(c.id);
    expect(run).toMatchObject({ state: 'succeeded', created: 1, failed: 0 });
    expect(c.store.products).toHaveLength(1);
    expect(
      nuvemshop
        .requestsOf(c.storeId)
        .map((r) => r.route)
        .filter((r) => r?.includes('/products')),
    ).toEqual(['GET /products', 'POST /products', 'GET /products/sku/{sku}']);
    const links = await t.request('GET', `/api/v1/product-links/?client_id=${c.id}`, { token: su });
    expect(links.body.data[0]).toMatchObject({
      nuvemshop_product_id: c.store.products[0].id,
      nuvemshop_variant_id: c.store.products[0].variants[0].id,
    });
    const after = nuvemshop.requestsOf(c.storeId).length;
    expect(await syncNow(c.id, 'full')).toMatchObject({ state: 'succeeded', unchanged: 1 });
    expect(writes(c.storeId, after)).toEqual([]);
  });

  it('409 is retried as a transient, never a refusal of the product', async () => {
    const c = await connectedClient();
    c.account.add({ nome: 'Vaso' });
    nuvemshop.inject({ store: c.storeId, method: 'POST', path: '/products', status: 409, times: 1 });
    const run = await syncNow(c.id);
    expect(run).toMatchObject({ state: 'succeeded', created: 1, failed: 0 });
    expect(c.store.products).toHaveLength(1);
    expect(nuvemshop.requestsOf(c.storeId).filter((r) => r.status === 409)).toHaveLength(1);
  });

  it('403 ends the run failed with the permission message, and calls the store no more', async () => {
    const c = await connectedClient();
    c.account.add({ nome: 'Prato' });
    c.account.add({ nome: 'Copo' });
    nuvemshop.inject({ store: c.storeId, method: 'POST', path: '/products', status: 403, times: Infinity });
    const run = await syncNow(c.id);
    expect(run).toMatchObject({
      state: 'failed',
      failed: 0,
      errors: [expect.objectContaining({ message: 'Nuvemshop refused the call: the app lacks a permission' })],
    });
    expect(nuvemshop.requestsOf(c.storeId).filter((r) => r.status === 403)).toHaveLength(1);
    nuvemshop.clearFaults();
  });

  it('a Hiper key refused fails the run with its message and the client', async () => {
    const c = await connectedClient();
    hiper.refuseKey(c.account.key);
    const run = await syncNow(c.id);
    expect(run).toMatchObject({
      state: 'failed',
      errors: [expect.objectContaining({ message: 'Hiper refused the security key' })],
    });
    const client = await t.request('GET', `/api/v1/clients/${c.id}`, { token: su });
    expect(client.body.sync_state).toBe('failed');
  });

  it('a Hiper cursor that does not advance ends the run failed, the cursor unmoved', async () => {
    const c = await connectedClient();
    const product = c.account.add({ nome: 'Lápis' });
    hiper.inject({
      path: '/produtos/pontoDeSincronizacao',
      status: 200,
      body: { pontoDeSincronizacao: 0, produtos: [product], errors: [], message: null },
    });
    const run = await syncNow(c.id);
    expect(run).toMatchObject({
      state: 'failed',
      errors: [expect.objectContaining({ message: "Hiper's cursor did not advance" })],
    });
    const [cursor] = await t.sql<{ catalogue_cursor: string }>(
      'select catalogue_cursor from sync_clients where client_id = $1',
      [c.id],
    );
    expect(cursor.catalogue_cursor).toBe('0');
  });

  it('shares one Hiper token, stored encrypted, by every run of a client; a 401 renews it once', async () => {
    const c = await connectedClient();
    c.account.add({ nome: 'Régua' });
    for (let i = 0; i < 8; i++) expect((await syncNow(c.id, i % 2 ? 'stock' : 'catalogue')).state).toBe('succeeded');
    expect(hiper.tokensIssued(c.account.key)).toBe(1);
    const [row] = await t.sql<{ hiper_bearer: string }>('select hiper_bearer from sync_clients where client_id = $1', [
      c.id,
    ]);
    expect(row.hiper_bearer).toMatch(/^v1:/);
    // Hiper stops taking it before its exp: one new token, kept for the runs after.
    hiper.invalidateTokens(c.account.key);
    for (let i = 0; i < 3; i++) expect((await syncNow(c.id)).state).toBe('succeeded');
    expect(hiper.tokensIssued(c.account.key)).toBe(2);
  });

  it('a 5xx is retried by the job, the cursor unmoved until the page is written', async () => {
    const c = await connectedClient();
    c.account.add({ nome: 'Produto', preco: 12 });
    nuvemshop.inject({ store: c.storeId, method: 'POST', path: '/products', status: 503 });
    const started = await t.request('POST', `/api/v1/clients/${c.id}/sync`, { token: su, json: {} });
    const until = Date.now() + 20_000;
    while (!nuvemshop.requestsOf(c.storeId).some((r) => r.status === 503) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500));
    const [cursor] = await t.sql<{ catalogue_cursor: string }>(
      'select catalogue_cursor from sync_clients where client_id = $1',
      [c.id],
    );
    expect(cursor.catalogue_cursor).toBe('0');
    const run = await waitForRun(started.body.id, 60_000);
    expect(run).toMatchObject({ state: 'succeeded', created: 1 });
    expect(c.store.products).toHaveLength(1);
    const [after] = await t.sql<{ catalogue_cursor: string }>(
      'select catalogue_cursor from sync_clients where client_id = $1',
      [c.id],
    );
    expect(Number(after.catalogue_cursor)).toBe(c.account.lastPosition);
  }, 60_000);
});

describe('runs', () => {
  it('are asked for through REST and GraphQL: 202 with the run queued, the same run while it is not over', async () => {
    const c = await connectedClient();
    for (let i = 0; i < 3; i++) c.account.add({ nome: `P${i}` });
    const first = await t.request('POST', `/api/v1/clients/${c.id}/sync`, { token: su, json: { kind: 'catalogue' } });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ client_id: c.id, kind: 'catalogue', state: 'queued', created: 0, errors: [] });
    const gql = await t.graphql(
      `mutation ($id: ID!) { syncClient(id: $id, kind: stock) { id kind state } }`,
      { id: c.id },
      su,
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.syncClient.id).toBe(first.body.id);
    await waitForRun(first.body.id);
    const listed = await t.graphql(
      `query ($id: ID!) { allSyncRuns(filter: {client_id: $id}) { id state created errors } _allSyncRunsMeta(filter: {client_id: $id}) { count } }`,
      { id: c.id },
      su,
    );
    expect(listed.body.data.allSyncRuns).toEqual([{ id: first.body.id, state: 'succeeded', created: 3, errors: [] }]);
    expect(listed.body.data._allSyncRunsMeta.count).toBe(1);
    const rest = await t.request('GET', `/api/v1/sync-runs/?client_id=${c.id}`, { token: su });
    expect(rest.body).toMatchObject({ count: 1, data: [{ id: first.body.id }] });
    const missing = await t.request('GET', `/api/v1/sync-runs/${c.id}`, { token: su });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('Sync run not found');
  });

  it('are refused with 409 for a client missing a credential', async () => {
    const created = await t.request('POST', '/api/v1/clients/', {
      token: su,
      json: { url: 'https://sem-loja.example.com', hiper_token: 'k'.repeat(64) },
    });
    const refused = await t.request('POST', `/api/v1/clients/${created.body.id}/sync`, { token: su, json: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('Missing the Nuvemshop token and the Nuvemshop store id');
    const gql = await t.graphql('mutation ($id: ID!) { syncClient(id: $id) { id } }', { id: created.body.id }, su);
    expect(gql.body.errors[0].message).toBe('Missing the Nuvemshop token and the Nuvemshop store id');
  });

  it('of one client are never worked on by two processes at once', async () => {
    const second = await startTestGateway({ ...syncEnv(hiper, nuvemshop), DATABASE_URL: t.databaseUrl });
    try {
      const c = await connectedClient();
      for (let i = 0; i < 16; i++) c.account.add({ nome: `Item ${i}`, preco: 1 + i });
      const run = await syncNow(c.id);
      expect(run).toMatchObject({ state: 'succeeded', created: 16 });
      const skus = c.store.products.map((p) => p.variants[0].sku);
      expect(new Set(skus).size).toBe(16);
      expect(skus).toHaveLength(16);
      // Creations never overlapped: each POST /products began after the previous one was answered.
      const posts = nuvemshop.requestsOf(c.storeId).filter((r) => r.route === 'POST /products');
      expect(posts).toHaveLength(16);
    } finally {
      await second.gateway.close();
    }
  }, 90_000);
});
