import { describe, expect, it } from 'vitest';
import { levelsByName, placeLocations } from '../support/locations';
import { syncSuite } from '../support/sync';

/**
 * The nightly reconciliation against the stand-ins: a store compared with Hiper per SKU, a stock typed in the store's
 * own admin written back and counted repaired, what the product cannot write kept as open divergences with both
 * sides' values, and a divergence gone at the next reconciliation no longer open.
 */
const suite = syncSuite();

describe('reconciliation', () => {
  it('repairs a stock typed in the store, lists what it cannot repair, and resolves what went away', async () => {
    const { t, su, tools } = suite;
    const { id, storeId, store, account } = await tools.connectedClient();
    const a = account.add({ nome: 'Caneca', preco: 25, quantidadeEmEstoque: 7 });
    const b = account.add({ nome: 'Camiseta', preco: 50, quantidadeEmEstoque: 3 });
    expect((await tools.syncNow(id)).state).toBe('succeeded');
    // Staff typed another stock in the store's admin, unpublished a product, and added one Hiper does not have.
    const variantOf = (sku: string) => store.products.flatMap((p) => p.variants).find((v) => v.sku === sku)!;
    variantOf(String(a.codigo)).stock = 2;
    store.products.find((p) => p.variants.some((v) => v.sku === String(b.codigo)))!.published = false;
    store.seedProduct({ name: { pt: 'Só da loja' }, variants: [{ sku: 'LOJA-1', price: '9.90', stock: 1 }] });
    // And a product Hiper has that was never written (created in Hiper after the last catalogue run).
    const c = account.add({ nome: 'Boné', preco: 30, quantidadeEmEstoque: 4 });
    const before = suite.nuvemshop.requestsOf(storeId).length;

    const run = await tools.syncNow(id, 'reconcile');
    expect(run.state).toBe('succeeded');
    expect(run.kind).toBe('reconcile');
    // The typed stock was written back, once, through stock-price.
    expect(variantOf(String(a.codigo)).stock).toBe(7);
    expect(tools.writes(storeId, before)).toEqual(['PATCH /products/stock-price']);
    // The cost: the catalogue in one page of 200, the store's record, one write.
    const reads = suite.nuvemshop
      .requestsOf(storeId)
      .slice(before)
      .filter((r) => r.route === 'GET /products');
    expect(reads.every((r) => r.query.per_page === '200' && !!r.query.fields)).toBe(true);
    expect(run.requests).toBeLessThanOrEqual(Math.ceil(3 / 150) + 1 + 3);

    const listed = await t.request('GET', `/api/v1/divergences/?client_id=${id}`, { token: su });
    expect(listed.status).toBe(200);
    const bySku = (sku: string, kind: string) =>
      listed.body.data.find((d: { sku: string; kind: string }) => d.sku === sku && d.kind === kind);
    expect(bySku(String(a.codigo), 'stock')).toMatchObject({ state: 'repaired', store_value: '2', hiper_value: '7' });
    expect(bySku(String(b.codigo), 'published')).toMatchObject({
      state: 'open',
      store_value: 'não publicado',
      hiper_value: 'publicado',
    });
    expect(bySku('LOJA-1', 'only_in_store')).toMatchObject({
      state: 'open',
      store_value: 'Só da loja',
      hiper_value: null,
    });
    expect(bySku(String(c.codigo), 'only_in_hiper')).toMatchObject({
      state: 'open',
      store_value: null,
      hiper_value: 'Boné',
    });

    const open = await t.request('GET', `/api/v1/divergences/?client_id=${id}&state=open`, { token: su });
    expect(open.body.count).toBe(3);
    const graphql = await t.request('POST', '/graphql', {
      token: su,
      json: {
        query: `{ allDivergences(filter: {client_id: "${id}", state: open}) { sku kind store_value hiper_value state } }`,
      },
    });
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.allDivergences).toHaveLength(3);

    // The store's product published again and Hiper's new one written: both go away at the next reconciliation.
    store.products.find((p) => p.variants.some((v) => v.sku === String(b.codigo)))!.published = true;
    expect((await tools.syncNow(id)).state).toMatch(/succeeded|partial/);
    expect((await tools.syncNow(id, 'reconcile')).state).toBe('succeeded');
    const after = await t.request('GET', `/api/v1/divergences/?client_id=${id}&state=open`, { token: su });
    expect(after.body.data.map((d: { sku: string }) => d.sku)).toEqual(['LOJA-1']);
    const resolved = await t.request('GET', `/api/v1/divergences/?client_id=${id}&state=resolved`, { token: su });
    expect(resolved.body.data.map((d: { kind: string }) => d.kind).sort()).toEqual(['only_in_hiper', 'published']);
  }, 120_000);

  it('keeps a difference the store refused to take open, with what Hiper says', async () => {
    const { t, su, tools } = suite;
    const c = await tools.connectedClient();
    const mug = c.account.add({ nome: 'Caneca', preco: 25, quantidadeEmEstoque: 7 });
    expect((await tools.syncNow(c.id)).state).toBe('succeeded');
    const variant = c.store.variants.find((v) => v.sku === String(mug.codigo))!;
    variant.stock = 2;
    c.store.refuseInStockPrice.set(variant.id, 'Variant is locked');

    const run = await tools.syncNow(c.id, 'reconcile');
    expect(run).toMatchObject({ state: 'partial', failed: 1 });
    expect(variant.stock).toBe(2);
    const listed = await t.request('GET', `/api/v1/divergences/?client_id=${c.id}`, { token: su });
    expect(listed.body.data).toEqual([
      expect.objectContaining({ kind: 'stock', store_value: '2', hiper_value: '7', state: 'open' }),
    ]);
  }, 120_000);

  it('compares each location’s stock when the client has locations, and writes the typed one back there', async () => {
    const { t, su, tools, hiper } = suite;
    const c = await tools.connectedClient();
    const mug = c.account.add({ nome: 'Caneca', preco: 20, quantidadeEmEstoque: 5 });
    const places = await placeLocations(t, su, hiper, c, [
      { name: 'Loja', feed: 'client' },
      { name: 'Depósito', feed: 'own', stockOf: () => 7 },
    ]);
    expect((await tools.syncNow(c.id)).state).toBe('succeeded');
    expect(levelsByName(c.store, mug.codigo)).toEqual({ Loja: 5, Depósito: 7 });
    const warehouse = c.store.locations.find((l) => l.name === 'Depósito')!;
    expect(places.some((p) => p.name === 'Depósito')).toBe(true);
    const variant = c.store.variants.find((v) => v.sku === String(mug.codigo))!;
    variant.inventory_levels.find((l) => l.location_id === warehouse.id)!.stock = 1;

    const run = await tools.syncNow(c.id, 'reconcile');
    expect(run.state).toBe('succeeded');
    expect(levelsByName(c.store, mug.codigo)).toEqual({ Loja: 5, Depósito: 7 });
    const listed = await t.request('GET', `/api/v1/divergences/?client_id=${c.id}`, { token: su });
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        sku: String(mug.codigo),
        kind: 'stock',
        location_id: warehouse.id,
        store_value: '1',
        hiper_value: '7',
        state: 'repaired',
      }),
    ]);
  }, 120_000);

  it('reads a store of 2,000 products in at most one request per 150, plus the writes of what differed', async () => {
    const { t, su, tools, nuvemshop } = suite;
    const c = await tools.connectedClient({}, { size: 100_000, drainPerSecond: 100_000 });
    const products = Array.from({ length: 2000 }, (_, i) =>
      c.account.add({ nome: `Produto ${i}`, preco: 10 + (i % 50), quantidadeEmEstoque: i % 9 }),
    );
    expect((await tools.syncNow(c.id, 'catalogue', 300_000)).state).toBe('succeeded');
    for (const p of products.slice(0, 3)) c.store.variants.find((v) => v.sku === String(p.codigo))!.stock = 99;
    const before = nuvemshop.requestsOf(c.storeId).length;

    const run = await tools.syncNow(c.id, 'reconcile', 300_000);
    expect(run).toMatchObject({ state: 'succeeded', updated: 3, failed: 0 });
    expect(run.updated + run.unchanged + run.failed).toBe(2000);
    const made = nuvemshop.requestsOf(c.storeId).slice(before);
    const writes = made.filter((r) => r.method !== 'GET').length;
    expect(writes).toBe(1);
    expect(run.requests).toBe(made.length);
    // The store's own record, read first by every run, beside the catalogue's pages.
    expect(run.requests - 1).toBeLessThanOrEqual(Math.ceil(2000 / 150) + writes);
    for (const p of products.slice(0, 3))
      expect(c.store.variants.find((v) => v.sku === String(p.codigo))!.stock).toBe(p.quantidadeEmEstoque);
    const repaired = await t.request('GET', `/api/v1/divergences/?client_id=${c.id}&state=repaired`, { token: su });
    expect(repaired.body.count).toBe(3);
  }, 400_000);

  it('puts open divergences among the client’s health reasons, and takes them out once gone', async () => {
    const { t, su, tools } = suite;
    const c = await tools.connectedClient();
    c.account.add({ nome: 'Caneca', preco: 25, quantidadeEmEstoque: 7 });
    expect((await tools.syncNow(c.id)).state).toBe('succeeded');
    const extra = ['A-1', 'A-2'].map((sku) =>
      c.store.seedProduct({ name: { pt: `Só da loja ${sku}` }, variants: [{ sku, price: '5.00', stock: 1 }] }),
    );
    expect((await tools.syncNow(c.id, 'reconcile')).state).toBe('succeeded');
    const reasons = async () => {
      await t.gateway.services.health.refresh();
      const answer = await t.request('GET', `/api/v1/client-health/?client_id=${c.id}`, { token: su });
      return answer.body.data[0].reasons as { code: string; health: string; text: string }[];
    };
    expect((await reasons()).find((r) => r.code === 'drift_open')).toMatchObject({
      health: 'attention',
      text: '2 divergências abertas entre a loja e o Hiper (veja o que cada lado diz)',
    });
    c.store.products.splice(c.store.products.indexOf(extra[0]), 1);
    c.store.products.splice(c.store.products.indexOf(extra[1]), 1);
    expect((await tools.syncNow(c.id, 'reconcile')).state).toBe('succeeded');
    expect((await reasons()).map((r) => r.code)).not.toContain('drift_open');
  }, 120_000);

  it('refuses bad filters with a 422 naming them', async () => {
    const { t, su } = suite;
    const bad = await t.request('GET', '/api/v1/divergences/?state=nope', { token: su });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toContain('state');
    const badClient = await t.request('GET', '/api/v1/divergences/?client_id=not-a-uuid', { token: su });
    expect(badClient.status).toBe(422);
    expect(JSON.stringify(badClient.body.detail)).toContain('client_id');
  });
});
