import { describe, expect, it } from 'vitest';
import labels from '../../admin/src/labels/sincronizacoes';
import { reasonText } from '../../admin/src/syncRuns/runErrors';
import { syncSuite } from '../support/sync';

/**
 * Almost every retailer already sells online, so a first sync mostly adopts the store's products by SKU: whatever
 * their descriptions hold, they are adopted in that first run; and a step that fails the same way again ends its run
 * `failed`, saying why in Portuguese, instead of leaving it "Sincronizando".
 */
// The larger plan's bucket (400, draining 20 a second): a big store's catalogue is read without waiting long.
const suite = syncSuite({ nuvemshop: { bucket: { size: 400, drainPerSecond: 20 } } });

/** What the admin's Sincronizações screen says of a run's error. */
const shown = (error: { code?: string; message: string; detail?: string }) =>
  reasonText(error, (key, options) => {
    const code = key.replace('resources.sincronizacoes.errors.', '');
    return (labels.errors as Record<string, string>)[code] ?? String(options?._);
  });

const KB = 1024;
/** A text of about `bytes`, in words, different for each `seed`. */
const long = (seed: string, bytes: number) =>
  Array.from({ length: Math.ceil(bytes / (seed.length + 1)) }, () => seed)
    .join(' ')
    .slice(0, bytes);

describe('a first sync of a store that already sells the products', () => {
  it('adopts each by its SKU in one run, whatever the descriptions hold, and a second read writes nothing', async () => {
    const { tools } = suite;
    const c = await tools.connectedClient();
    // Each case: Hiper's description, the store's, and what the store shows once adopted.
    const cases = [
      { hiper: 'Camiseta de algodão, nova coleção', store: 'Descrição antiga da loja' },
      { hiper: 'Texto que só o Hiper tem', store: '' },
      { hiper: null, store: 'Texto que só a loja tem', shows: '' },
      { hiper: long('Hiper descreve longamente', 100 * KB), store: long('A loja descrevia outra coisa', 100 * KB) },
      {
        hiper: 'NUL\u0000aqui, meio par \ud800 só, 😀, e\u0301, مرحبا, \u200b fim',
        store: 'Loja com NUL\u0000 e \udc00 solto',
        shows: 'NULaqui, meio par \ufffd só, 😀, e\u0301, مرحبا, \u200b fim',
      },
      { hiper: 'Igual nos dois', store: 'Igual nos dois' },
    ];
    const products = cases.map((x, i) =>
      c.account.add({ nome: `Produto ${i}`, descricao: x.hiper, preco: 20, quantidadeEmEstoque: 3 }),
    );
    cases.forEach((x, i) =>
      c.store.seedProduct({
        // A name the store holds with a NUL is adopted too.
        name: i === 4 ? 'Produto\u0000 antigo' : `Produto ${i}`,
        description: x.store,
        variants: [{ sku: String(products[i].codigo), price: '20.00', stock: 3 }],
      }),
    );

    const run = await tools.syncNow(c.id, 'catalogue', 30_000);
    expect(run).toMatchObject({ state: 'succeeded', created: 0, updated: cases.length, failed: 0, errors: [] });
    expect(c.store.products).toHaveLength(cases.length);
    cases.forEach((x, i) => {
      const adopted = c.store.products.find((p) => p.variants[0].sku === String(products[i].codigo))!;
      expect(adopted.description.pt).toBe(x.shows ?? x.hiper);
      expect(adopted.name).toEqual({ pt: `Produto ${i}` });
    });
    // The store's own record (every run's first read), the catalogue read once (one page), then one update each:
    // Hiper's brand, and the description where it differs.
    expect(suite.nuvemshop.requestsOf(c.storeId).map((r) => r.route)).toEqual([
      'GET /store',
      'GET /products',
      ...cases.map(() => 'PUT /products/{id}'),
    ]);
    expect(run.requests).toBe(2 + cases.length);
    const links = await suite.t.request('GET', `/api/v1/product-links/?client_id=${c.id}&state=linked&limit=1`, {
      token: suite.su,
    });
    expect(links.body.count).toBe(cases.length);

    // What was kept as written is what the store now holds: reading everything again writes nothing.
    const mark = suite.nuvemshop.requestsOf(c.storeId).length;
    const again = await tools.syncNow(c.id, 'full', 30_000);
    expect(again).toMatchObject({ state: 'succeeded', created: 0, updated: 0, unchanged: cases.length });
    expect(tools.writes(c.storeId, mark)).toEqual([]);
  }, 90_000);
});

describe('a first sync of a store that already holds 10,300 products', () => {
  it('adopts those Hiper has, each with its own description, in one run', async () => {
    const { tools } = suite;
    const c = await tools.connectedClient();
    for (let i = 0; i < 10_300; i++) {
      c.store.seedProduct({
        name: `Na loja ${i}`,
        description: `<p>Descrição da loja para o item ${i}</p>`,
        variants: [{ sku: String(700_000 + i), price: '10.00', stock: 1 }],
      });
    }
    // Spread over the whole catalogue, the last ones past the 10,000 a query may reach.
    const adopted = Array.from({ length: 20 }, (_, k) =>
      c.account.add({ codigo: 700_000 + k * 541, nome: `Produto ${k}`, descricao: `Descrição do Hiper ${k}` }),
    );
    const run = await tools.syncNow(c.id, 'catalogue', 60_000);
    expect(run).toMatchObject({ state: 'succeeded', created: 0, updated: adopted.length, failed: 0, errors: [] });
    expect(c.store.products).toHaveLength(10_300);
    adopted.forEach((p, k) => {
      const found = c.store.products.filter((x) => x.variants.some((v) => v.sku === String(p.codigo)));
      expect(found.map((x) => x.description.pt)).toEqual([`Descrição do Hiper ${k}`]);
    });
    // The catalogue read once (50 pages of 200, then the rest after the last id read), one update per adopted
    // product, and their stock (0 in Hiper, 1 in the store) in one batch.
    const routes = suite.nuvemshop.requestsOf(c.storeId).map((r) => r.route);
    expect(routes.filter((r) => r === 'GET /products')).toHaveLength(52);
    expect(routes.filter((r) => r !== 'GET /products').sort()).toEqual(
      ['GET /store', 'PATCH /products/stock-price', ...adopted.map(() => 'PUT /products/{id}')].sort(),
    );
    expect(run.requests).toBe(routes.length);
  }, 90_000);
});

describe('a step that fails the same way on every attempt', () => {
  it('ends its run failed at the second attempt, saying why in Portuguese; the next run goes on once it is mended', async () => {
    const { t, tools } = suite;
    const c = await tools.connectedClient();
    const refused = c.account.add({ nome: 'Recusado', preco: 15 });
    c.account.add({ nome: 'Aceito', preco: 16 });
    // The database refuses this product's row on every attempt (a fault of the product's own, not a platform's).
    await t.sql(`create or replace function refuse_sku() returns trigger language plpgsql as $$
      begin
        if new.sku = '${refused.codigo}' then raise exception 'SKU % refused', new.sku; end if;
        return new;
      end $$`);
    await t.sql(
      `create trigger refuse_sku before insert or update on sync_products for each row execute function refuse_sku()`,
    );
    const started = Date.now();
    const run = await tools.syncNow(c.id, 'catalogue', 20_000);
    const took = Date.now() - started;
    expect(run).toMatchObject({
      state: 'failed',
      waiting: null,
      errors: [
        {
          hiper_id: '',
          sku: null,
          code: 'internal_repeated',
          message: 'A step of the run failed the same way on two attempts in a row',
          detail: `SKU ${refused.codigo} refused`,
        },
      ],
    });
    expect(shown(run.errors[0])).toBe(
      `A mesma falha interna da integração se repetiu em duas tentativas seguidas: SKU ${refused.codigo} refused`,
    );
    // Two attempts, SYNC_RETRY_DELAY_SECONDS (1 s here) apart: not the queue's five retries with growing waits.
    expect(took).toBeLessThan(8_000);
    const client = await t.request('GET', `/api/v1/clients/${c.id}`, { token: suite.su });
    expect(client.body.sync_state).toBe('failed');

    await t.sql('drop trigger refuse_sku on sync_products');
    const next = await tools.syncNow(c.id, 'catalogue', 20_000);
    expect(next).toMatchObject({ state: 'succeeded', failed: 0, errors: [] });
    expect(c.store.products.map((p) => p.name.pt).sort()).toEqual(['Aceito', 'Recusado']);
  }, 60_000);
});
