import { describe, expect, it } from 'vitest';
import { syncSuite } from '../support/sync';

/**
 * Nuvemshop's 409 (a write that conflicted with another) is a moment: that one call is sent again after a short
 * pause, and the run goes on. The step's growing backoff is for a platform that cannot be reached; here it keeps the
 * product's default, 10 s doubling, so a run that fell into it would still be "Sincronizando" minutes later.
 */
const suite = syncSuite({ env: { SYNC_RETRY_DELAY_SECONDS: '10' } });

describe('a 409 from the store', () => {
  it('on three products and a stock-price batch: each call sent again, the run as quick as one without them', async () => {
    const { tools, nuvemshop } = suite;
    const c = await tools.connectedClient();
    const products = Array.from({ length: 6 }, (_, i) => c.account.add({ nome: `Produto ${i}`, preco: 10 + i }));
    expect(await tools.syncNow(c.id)).toMatchObject({ state: 'succeeded', created: 6 });
    const storeProduct = (codigo: number) => c.store.products.find((p) => p.variants[0].sku === String(codigo))!;

    /** Renames the first three products and reprices the other three; answers the run and how long it took. */
    const changeAndSync = async (round: string) => {
      products.slice(0, 3).forEach((p, i) => c.account.change(p.id, { nome: `Produto ${i} ${round}` }));
      products.slice(3).forEach((p, i) => c.account.change(p.id, { preco: 50 + i + (round === 'b' ? 10 : 0) }));
      const started = Date.now();
      const run = await tools.syncNow(c.id, 'catalogue', 60_000);
      return { run, took: Date.now() - started };
    };

    const plain = await changeAndSync('a');
    expect(plain.run).toMatchObject({ state: 'succeeded', updated: 6, failed: 0, errors: [] });

    const mark = nuvemshop.requestsOf(c.storeId).length;
    for (const p of products.slice(0, 3)) nuvemshop.conflictOnce(c.storeId, { product: storeProduct(p.codigo).id });
    nuvemshop.conflictOnce(c.storeId, { stockPrice: true });
    const conflicted = await changeAndSync('b');
    expect(conflicted.run).toMatchObject({ state: 'succeeded', updated: 6, failed: 0, errors: [], waiting: null });

    const answered = nuvemshop.requestsOf(c.storeId).slice(mark);
    const conflicts = answered.filter((r) => r.status === 409);
    expect(conflicts.map((r) => r.route).sort()).toEqual([
      'PATCH /products/stock-price',
      'PUT /products/{id}',
      'PUT /products/{id}',
      'PUT /products/{id}',
    ]);
    // Each sent again once, and then taken.
    expect(answered.filter((r) => r.method !== 'GET' && r.status === 200)).toHaveLength(4);
    products.slice(0, 3).forEach((p, i) => expect(storeProduct(p.codigo).name).toEqual({ pt: `Produto ${i} b` }));
    products.slice(3).forEach((p, i) => expect(storeProduct(p.codigo).variants[0].price).toBe(`${60 + i}.00`));
    // A second's pause for each of the four, never the step's backoff (10 + 20 + 40 + 80 s).
    expect(conflicted.took).toBeLessThan(plain.took + 4 * 1000 + 3000);
  }, 120_000);
});
