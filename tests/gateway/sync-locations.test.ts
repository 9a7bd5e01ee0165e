import { describe, expect, it } from 'vitest';
import { levelsByName, placeLocations, type LocationSpec } from '../support/locations';
import { syncSuite } from '../support/sync';

/**
 * Each location's stock in the store: a stock run reads every location's Hiper account (its own cursor, its own token)
 * and writes each variant's levels through stock-price, several locations in one element, in batches of 50 variants;
 * one account failing fails its location alone; a SKU an account lacks is 0 there and said once per run and location.
 */
const suite = syncSuite({ hiper: { pageSize: 4 }, nuvemshop: { bucket: { size: 40, drainPerSecond: 40 } } });

/** The catalogue's codes, to say each location's stock of them. */
interface Codes {
  mug: number;
  small: number;
  large: number;
}

/** A client whose Hiper catalogue is a mug and a shirt in two sizes, with the locations given for those codes. */
async function clientWith(specsOf: (codes: Codes) => LocationSpec[]) {
  const c = await suite.tools.connectedClient();
  const mug = c.account.add({ nome: 'Caneca', preco: 20, quantidadeEmEstoque: 5 });
  const shirt = c.account.add({
    nome: 'Camisa',
    preco: 60,
    variacao: [
      { nomeVariacaoA: 'P', tipoVariacaoA: 'Tamanho', quantidadeEmEstoque: 2 },
      { nomeVariacaoA: 'G', tipoVariacaoA: 'Tamanho', quantidadeEmEstoque: 3 },
    ],
  });
  const [small, large] = shirt.variacao!;
  const codes = { mug: mug.codigo, small: small.codigo, large: large.codigo };
  const places = await placeLocations(suite.t, suite.su, suite.hiper, c, specsOf(codes));
  const location = (name: string) => places.find((p) => p.name === name)!;
  return { ...c, mug, shirt, small, large, places, location };
}

/**
 * A shop fed by the client's account, a warehouse by its own (7 mugs, 11 small shirts, no large one), a kiosk by
 * none: the usual three.
 */
const threeLocations = () =>
  clientWith((codes) => [
    { name: 'Loja', feed: 'client' },
    {
      name: 'Depósito',
      feed: 'own',
      stockOf: (codigo) => (codigo === codes.mug ? 7 : codigo === codes.small ? 11 : 0),
    },
    { name: 'Quiosque', feed: 'none' },
  ]);

const stockPrices = (storeId: number, since = 0) =>
  suite.nuvemshop
    .requestsOf(storeId)
    .slice(since)
    .filter((r) => r.route === 'PATCH /products/stock-price');

async function locationsOf(clientId: string) {
  const list = await suite.t.request('GET', `/api/v1/locations/?client_id=${clientId}`, { token: suite.su });
  expect(list.status).toBe(200);
  return Object.fromEntries((list.body.data as any[]).map((l) => [l.name, l]));
}

async function movementsOf(clientId: string, sku: string | number) {
  const list = await suite.t.request('GET', `/api/v1/stock-movements/?client_id=${clientId}&sku=${sku}`, {
    token: suite.su,
  });
  expect(list.status, list.text).toBe(200);
  return list.body.data as any[];
}

describe('a client with several locations', () => {
  it('creates each product with stock 0, then writes every location’s level in one element per variant', async () => {
    const c = await threeLocations();
    const run = await suite.tools.syncNow(c.id);
    expect(run).toMatchObject({ state: 'succeeded', created: 2, failed: 0 });

    for (const created of suite.nuvemshop.requestsOf(c.storeId).filter((r) => r.route === 'POST /products')) {
      for (const v of (created.body as { variants: Record<string, unknown>[] }).variants) {
        expect(v).not.toHaveProperty('inventory_levels');
        expect(v.stock).toBe(0);
      }
    }
    const [batch, ...more] = stockPrices(c.storeId);
    expect(more).toEqual([]);
    const elements = (batch.body as { variants: { inventory_levels: unknown[] }[] }[]).flatMap((p) => p.variants);
    expect(elements).toHaveLength(3);
    for (const element of elements) expect(element.inventory_levels).toHaveLength(3);

    expect(levelsByName(c.store, c.mug.codigo)).toEqual({ Loja: 5, Depósito: 7, Quiosque: 0 });
    expect(levelsByName(c.store, c.small.codigo)).toEqual({ Loja: 2, Depósito: 11, Quiosque: 0 });
    expect(levelsByName(c.store, c.large.codigo)).toEqual({ Loja: 3, Depósito: 0, Quiosque: 0 });
    for (const variant of c.store.variants) expect(variant.stock_management).toBe(true);

    const locations = await locationsOf(c.id);
    expect(locations['Loja']).toMatchObject({ stock_state: 'idle', stock_error: null });
    expect(locations['Depósito']).toMatchObject({ stock_state: 'idle', stock_error: null });
    expect(locations['Quiosque']).toMatchObject({ stock_state: 'idle', stock_error: 'Sem chave do Hiper: estoque 0' });

    // What each location holds is known: the next runs write nothing.
    const mark = suite.nuvemshop.requestsOf(c.storeId).length;
    expect(await suite.tools.syncNow(c.id, 'stock')).toMatchObject({ state: 'succeeded', failed: 0 });
    expect(await suite.tools.syncNow(c.id, 'full')).toMatchObject({ state: 'succeeded', failed: 0, updated: 0 });
    expect(stockPrices(c.storeId, mark)).toEqual([]);
  });

  it('writes a change in one location’s account at that location alone, and keeps each write as a movement', async () => {
    const c = await threeLocations();
    const warehouse = c.location('Depósito').account!;
    await suite.tools.syncNow(c.id);
    // A first stock run reads the client's account from its stock cursor's start.
    await suite.tools.syncNow(c.id, 'stock');
    const clientPages = () =>
      suite.hiper.requestsOf(c.account.key).filter((r) => r.path === '/produtos/pontoDeSincronizacao').length;

    const mark = suite.nuvemshop.requestsOf(c.storeId).length;
    const before = clientPages();
    warehouse.setStock(c.mug.codigo, 9);
    expect(await suite.tools.syncNow(c.id, 'stock')).toMatchObject({ state: 'succeeded', updated: 1, failed: 0 });
    const [batch, ...more] = stockPrices(c.storeId, mark);
    expect(more).toEqual([]);
    const mugVariant = c.store.variants.find((v) => v.sku === String(c.mug.codigo))!;
    expect(batch.body).toEqual([
      {
        id: mugVariant.product_id,
        variants: [
          { id: mugVariant.id, inventory_levels: [{ location_id: c.location('Depósito').storeId, stock: 9 }] },
        ],
      },
    ]);
    expect(levelsByName(c.store, c.mug.codigo)).toEqual({ Loja: 5, Depósito: 9, Quiosque: 0 });
    // The shop's figures come from the client's one read of its own account, which had nothing new.
    expect(clientPages() - before).toBe(1);

    c.account.setStock(c.mug.id, 4);
    expect(await suite.tools.syncNow(c.id, 'stock')).toMatchObject({ state: 'succeeded', updated: 1 });
    expect(levelsByName(c.store, c.mug.codigo)).toEqual({ Loja: 4, Depósito: 9, Quiosque: 0 });

    const movements = await movementsOf(c.id, c.mug.codigo);
    const shown = movements.map((m) => [
      c.places.find((p) => p.id === m.location_id)?.name,
      m.value,
      m.previous,
      m.reason,
      m.order_id,
    ]);
    // Newest first: the shop's change, the warehouse's, then the first writes after the creation.
    expect(shown.slice(0, 2)).toEqual([
      ['Loja', 4, 5, 'hiper', null],
      ['Depósito', 9, 7, 'hiper', null],
    ]);
    expect(shown.slice(2).sort()).toEqual(
      [
        ['Depósito', 7, null, 'hiper', null],
        ['Loja', 5, null, 'hiper', null],
        ['Quiosque', 0, null, 'hiper', null],
      ].sort(),
    );
  });

  it('reads the locations’ own accounts side by side, not one after the other, and writes each one’s levels', async () => {
    const c = await clientWith((codes) => [
      { name: 'Loja', feed: 'client' },
      { name: 'Depósito', feed: 'own', stockOf: (codigo) => (codigo === codes.mug ? 7 : 1) },
      { name: 'Galpão', feed: 'own', stockOf: (codigo) => (codigo === codes.mug ? 8 : 2) },
    ]);
    // Pages enough in each own account (four products a page) for its reading to take several requests.
    for (const name of ['Depósito', 'Galpão']) {
      const account = c.location(name).account!;
      for (let i = 0; i < 10; i++) account.add({ nome: `Só no ${name} ${i}`, preco: 1, quantidadeEmEstoque: 1 });
    }
    const mark = suite.hiper.requests.length;
    expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'succeeded', failed: 0 });
    const pages = (name: string) =>
      suite.hiper.requests
        .slice(mark)
        .map((r, i) => ({ ...r, i }))
        .filter((r) => r.key === c.location(name).account!.key && r.path === '/produtos/pontoDeSincronizacao')
        .map((r) => r.i);
    const [depot, shed] = [pages('Depósito'), pages('Galpão')];
    expect(depot.length).toBeGreaterThanOrEqual(3);
    expect(shed.length).toBeGreaterThanOrEqual(3);
    // Read one after the other, every page of one account would come before the other's first.
    expect(shed[0]).toBeLessThan(depot.at(-1)!);
    expect(depot[0]).toBeLessThan(shed.at(-1)!);
    expect(levelsByName(c.store, c.mug.codigo)).toEqual({ Loja: 5, Depósito: 7, Galpão: 8 });
    expect(levelsByName(c.store, c.small.codigo)).toEqual({ Loja: 2, Depósito: 1, Galpão: 2 });
  });

  it('fails one location whose Hiper fails, with why in Portuguese, and writes the others; the next run catches up', async () => {
    const c = await threeLocations();
    const warehouse = c.location('Depósito').account!;
    await suite.tools.syncNow(c.id);

    suite.hiper.inject({ key: warehouse.key, path: '/produtos/pontoDeSincronizacao', status: 503, times: 1000 });
    c.account.setStock(c.mug.id, 1);
    warehouse.setStock(c.mug.codigo, 2);
    try {
      expect(await suite.tools.syncNow(c.id, 'stock')).toMatchObject({ state: 'succeeded', failed: 0 });
      expect(levelsByName(c.store, c.mug.codigo)).toEqual({ Loja: 1, Depósito: 7, Quiosque: 0 });
      const locations = await locationsOf(c.id);
      expect(locations['Depósito']).toMatchObject({
        stock_state: 'failed',
        stock_error: 'O Hiper está fora do ar (respondeu com erro) (HTTP 503)',
      });
      expect(locations['Loja']).toMatchObject({ stock_state: 'idle', stock_error: null });
    } finally {
      suite.hiper.clearFaults();
    }
    // Hiper answers again: the change it held back is written, and the location says so.
    await suite.tools.syncNow(c.id, 'stock');
    expect(levelsByName(c.store, c.mug.codigo)).toEqual({ Loja: 1, Depósito: 2, Quiosque: 0 });
    expect((await locationsOf(c.id))['Depósito']).toMatchObject({ stock_state: 'idle', stock_error: null });

    // Its key refused (and its token gone): the location says so until staff give it a key that works.
    suite.hiper.refuseKey(warehouse.key);
    suite.hiper.invalidateTokens(warehouse.key);
    c.account.setStock(c.mug.id, 3);
    await suite.tools.syncNow(c.id, 'stock');
    expect(levelsByName(c.store, c.mug.codigo)).toEqual({ Loja: 3, Depósito: 2, Quiosque: 0 });
    expect((await locationsOf(c.id))['Depósito']).toMatchObject({
      stock_state: 'failed',
      stock_error: 'Token Hiper recusado pelo Hiper (HTTP 400)',
    });
    const working = suite.hiper.addAccount();
    working.copyCatalogue(c.account, (codigo) => (codigo === c.mug.codigo ? 6 : 0));
    const keyed = await suite.t.request('PUT', `/api/v1/locations/${c.location('Depósito').id}`, {
      token: suite.su,
      json: { hiper_token: working.key },
    });
    expect(keyed.status).toBe(200);
    await suite.tools.syncNow(c.id, 'stock');
    expect(levelsByName(c.store, c.mug.codigo)).toEqual({ Loja: 3, Depósito: 6, Quiosque: 0 });
    expect((await locationsOf(c.id))['Depósito']).toMatchObject({ stock_state: 'idle', stock_error: null });
  });

  it('writes 0 where a location’s account lacks a SKU, said once per run and location', async () => {
    const c = await clientWith((codes) => [
      { name: 'Loja', feed: 'client' },
      // The warehouse has no shirts at all; the back room no mugs.
      { name: 'Depósito', feed: 'own', stockOf: (codigo) => (codigo === codes.mug ? 6 : undefined) },
      { name: 'Fundos', feed: 'own', stockOf: (codigo) => (codigo === codes.mug ? undefined : 4) },
    ]);

    const missing = (run: { errors: any[] }) =>
      run.errors
        .filter((e) => e.code === 'sku_missing_at_location')
        .map((e) => [e.sku, e.location, e.message])
        .sort();
    const expected = [
      [
        String(c.large.codigo),
        'Depósito',
        `SKU ${c.large.codigo} is not in the Hiper account of location Depósito: written 0 there`,
      ],
      [
        String(c.mug.codigo),
        'Fundos',
        `SKU ${c.mug.codigo} is not in the Hiper account of location Fundos: written 0 there`,
      ],
      [
        String(c.small.codigo),
        'Depósito',
        `SKU ${c.small.codigo} is not in the Hiper account of location Depósito: written 0 there`,
      ],
    ].sort();
    const first = await suite.tools.syncNow(c.id);
    expect(first).toMatchObject({ state: 'succeeded', created: 2, failed: 0 });
    expect(missing(first)).toEqual(expected);
    expect(levelsByName(c.store, c.mug.codigo)).toEqual({ Loja: 5, Depósito: 6, Fundos: 0 });
    expect(levelsByName(c.store, c.small.codigo)).toEqual({ Loja: 2, Depósito: 0, Fundos: 4 });
    // Each run says it once again, whatever reads the SKU.
    expect(missing(await suite.tools.syncNow(c.id, 'full'))).toEqual(expected);
  });

  it('writes 0 at a location whose key is taken away, and the new account’s stock when another key is given', async () => {
    const c = await threeLocations();
    const warehouse = c.location('Depósito');
    await suite.tools.syncNow(c.id);
    expect(levelsByName(c.store, c.mug.codigo)).toMatchObject({ Depósito: 7 });

    const cleared = await suite.t.request('PUT', `/api/v1/locations/${warehouse.id}`, {
      token: suite.su,
      json: { hiper_token: null },
    });
    expect(cleared.status, cleared.text).toBe(200);
    await suite.tools.syncNow(c.id, 'stock');
    expect(levelsByName(c.store, c.mug.codigo)).toEqual({ Loja: 5, Depósito: 0, Quiosque: 0 });
    expect((await locationsOf(c.id))['Depósito']).toMatchObject({ stock_error: 'Sem chave do Hiper: estoque 0' });

    const other = suite.hiper.addAccount();
    other.copyCatalogue(c.account, (codigo) => (codigo === c.small.codigo ? 8 : 1));
    await suite.t.request('PUT', `/api/v1/locations/${warehouse.id}`, {
      token: suite.su,
      json: { hiper_token: other.key },
    });
    await suite.tools.syncNow(c.id, 'stock');
    expect(levelsByName(c.store, c.mug.codigo)).toEqual({ Loja: 5, Depósito: 1, Quiosque: 0 });
    expect(levelsByName(c.store, c.small.codigo)).toEqual({ Loja: 2, Depósito: 8, Quiosque: 0 });
    expect((await locationsOf(c.id))['Depósito']).toMatchObject({ stock_state: 'idle', stock_error: null });
  });

  it('writes each variant once when a store already sold from one location gets more, its own stock kept', async () => {
    const c = await suite.tools.connectedClient();
    const caps = [0, 1, 2, 3, 4, 5].map((i) => c.account.add({ nome: `Boné ${i}`, preco: 30, quantidadeEmEstoque: 5 }));
    expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'succeeded', created: caps.length });
    await placeLocations(suite.t, suite.su, suite.hiper, c, [
      { name: 'Loja', feed: 'client' },
      { name: 'Depósito', feed: 'own', stockOf: () => 7 },
      { name: 'Quiosque', feed: 'own', stockOf: () => 3 },
    ]);
    const mark = suite.nuvemshop.requestsOf(c.storeId).length;
    expect(await suite.tools.syncNow(c.id, 'stock')).toMatchObject({ state: 'succeeded', failed: 0 });
    for (const cap of caps) expect(levelsByName(c.store, cap.codigo)).toEqual({ Loja: 5, Depósito: 7, Quiosque: 3 });
    // One element per variant, with the two new locations' levels: the shop's 5 is there already.
    const elements = stockPrices(c.storeId, mark).flatMap((r) =>
      (r.body as { variants: { inventory_levels: { location_id: string }[] }[] }[]).flatMap((p) => p.variants),
    );
    expect(elements).toHaveLength(caps.length);
    const named = (id: string) => c.store.locations.find((l) => l.id === id)?.name;
    for (const element of elements)
      expect(element.inventory_levels.map((l) => named(l.location_id)).sort()).toEqual(['Depósito', 'Quiosque']);
  });

  it('writes a location the store deleted no more', async () => {
    const c = await threeLocations();
    await suite.tools.syncNow(c.id);
    await suite.t.sql(`update locations set deleted_at = now() where id = $1`, [c.location('Quiosque').id]);
    const mark = suite.nuvemshop.requestsOf(c.storeId).length;
    c.account.setStock(c.mug.id, 2);
    await suite.tools.syncNow(c.id, 'stock');
    const levels = stockPrices(c.storeId, mark).flatMap((r) =>
      (r.body as { variants: { inventory_levels?: { location_id: string }[] }[] }[]).flatMap((p) =>
        p.variants.flatMap((v) => (v.inventory_levels ?? []).map((l) => l.location_id)),
      ),
    );
    expect(levels).toEqual([c.location('Loja').storeId]);
  });
});

describe('the store stand-in’s stock-price under several locations', () => {
  /** A store of 51 variants over three locations, and a raw PATCH of stock-price to it. */
  function storeOfMany() {
    const storeId = 7990;
    const store = suite.nuvemshop.addStore(storeId);
    const [first] = store.locations;
    const second = store.addLocation('Depósito');
    const third = store.addLocation('Quiosque');
    const variants = Array.from(
      { length: 51 },
      (_, i) =>
        store.seedProduct({ name: { pt: `P${i}` }, variants: [{ sku: `S${i}`, price: '1.00', stock: 0 }] }).variants[0],
    );
    const patch = (body: unknown) =>
      fetch(`${suite.nuvemshop.url}/${storeId}/products/stock-price`, {
        method: 'PATCH',
        headers: {
          'User-Agent': 'Sistema de Integracao (admin@example.com)',
          Authentication: `bearer ${store.token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(body),
      });
    return { store, locations: [first, second, third], variants, patch };
  }

  it('takes a variant’s levels in one element or one element per location, and counts what is sent', async () => {
    const { store, locations, variants, patch } = storeOfMany();
    const [a, b] = variants;
    const together = await patch([
      {
        id: a.product_id,
        variants: [{ id: a.id, inventory_levels: locations.map((l, i) => ({ location_id: l.id, stock: i + 1 })) }],
      },
    ]);
    expect(together.status).toBe(200);
    const apart = await patch(
      locations.map((l, i) => ({
        id: b.product_id,
        variants: [{ id: b.id, inventory_levels: [{ location_id: l.id, stock: 10 + i }] }],
      })),
    );
    expect(apart.status).toBe(200);
    expect(store.variant(a.id)!.inventory_levels.map((l) => l.stock)).toEqual([1, 2, 3]);
    expect(store.variant(b.id)!.inventory_levels.map((l) => l.stock)).toEqual([10, 11, 12]);

    // 17 variants laid out one element per location are 51 elements: too many for the stricter count, fine for the other.
    const laidApart = variants.slice(0, 17).flatMap((v) =>
      locations.map((l) => ({
        id: v.product_id,
        variants: [{ id: v.id, inventory_levels: [{ location_id: l.id, stock: 1 }] }],
      })),
    );
    const refused = await patch(laidApart);
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('Too many variants sent for update');
    store.stockPriceCounts = 'variants';
    expect((await patch(laidApart)).status).toBe(200);
    const fiftyOne = variants.map((v) => ({ id: v.product_id, variants: [{ id: v.id, stock: 2 }] }));
    expect((await patch(fiftyOne)).status).toBe(422);
  });
});
