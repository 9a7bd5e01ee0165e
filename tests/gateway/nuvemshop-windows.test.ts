import { describe, expect, it } from 'vitest';
import { NuvemshopClient } from '../../gateway/platforms/nuvemshop.client';
import { startNuvemshopApi, type ReceivedRequest } from '../support/standins/nuvemshop-api';

/**
 * Nuvemshop's "Query results are limited to 10.000 items" read both ways it may mean: the matches of a query, or how far
 * its pages reach. The cap is scaled down (300 here, as 10,000 is 50 pages of 200) to keep the stores small.
 */
const USER_AGENT = 'Sistema de Integracao (admin@example.com)';
const CAP = 300;
const READINGS = ['offset', 'matches'] as const;
type Reading = (typeof READINGS)[number];

/** Nuvemshop's whole-second dates. */
const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

async function storeAt(queryLimitCounts: Reading, cap = CAP) {
  const standIn = await startNuvemshopApi({
    bucket: { size: 1000, drainPerSecond: 1000 },
    maxQueryItems: cap,
    queryLimitCounts,
  });
  const store = standIn.addStore(61);
  const warnings: string[] = [];
  const client = new NuvemshopClient({
    baseUrl: standIn.url,
    userAgent: USER_AGENT,
    timeoutMs: 5000,
    maxQueryResults: cap,
    warn: (message) => warnings.push(message),
  }).store(61, store.token);
  return { standIn, store, client, warnings };
}

/** A query as asked, its page left out: the same window. */
const windowOf = (r: ReceivedRequest) => JSON.stringify({ ...r.query, page: undefined });

/** Every refused query was split: never asked again as it was. */
function expectRefusalsSplit(lists: ReceivedRequest[]) {
  lists.forEach((r, i) => {
    if (r.status === 200) return;
    expect(r.status).toBe(422);
    const again = lists
      .slice(i + 1)
      .filter((later) => windowOf(later) === windowOf(r) && later.query.page === r.query.page);
    expect(again).toEqual([]);
  });
}

describe.each(READINGS)('the result cap counting %s', (reading) => {
  it('a store past the cap has each product read once, in creation order asked for', async () => {
    const { standIn, store, client, warnings } = await storeAt(reading);
    try {
      const now = Date.now();
      // Products made over two years, and 250 imported in the same second: under the cap, over a page. Ids grow as
      // products are made, so the oldest is seeded first.
      for (let i = 699; i >= 0; i--)
        store.seedProduct({ name: `Antigo ${i}`, variants: [{ sku: `A-${i}` }] }, at(now - (i + 1) * 90_000_000));
      for (let i = 0; i < 250; i++)
        store.seedProduct({ name: `Lote ${i}`, variants: [{ sku: `L-${i}` }] }, at(now - 5000));
      const ids: number[] = [];
      for await (const page of client.products(100)) ids.push(...page.map((p) => p.id));
      expect(ids).toHaveLength(950);
      expect(new Set(ids)).toEqual(new Set(store.products.map((p) => p.id)));
      expect(warnings).toEqual([]);
      const lists = standIn.requestsOf(61).filter((r) => r.route === 'GET /products');
      expect(lists.every((r) => r.query.sort_by === 'created-at-ascending')).toBe(true);
      expectRefusalsSplit(lists);
      // Few requests per product: the 10 pages the store takes, and a few for the windows.
      expect(lists.length).toBeLessThan(reading === 'offset' ? 15 : 60);
    } finally {
      await standIn.close();
    }
  });

  it('a store of 10,300 products, past the documented 10,000, is read whole in about a request per 200', async () => {
    const { standIn, store, client, warnings } = await storeAt(reading, 10_000);
    try {
      // A catalogue built over three years, a product every 2.5 hours or so.
      const now = Date.now();
      for (let i = 10_299; i >= 0; i--) {
        store.seedProduct(
          { name: `Na loja ${i}`, variants: [{ sku: String(700_000 + i) }] },
          at(now - (i + 1) * 9_000_000),
        );
      }
      const ids = new Set<number>();
      let read = 0;
      for await (const page of client.products()) {
        read += page.length;
        for (const p of page) ids.add(p.id);
      }
      expect([read, ids.size, warnings]).toEqual([10_300, 10_300, []]);
      const lists = standIn.requestsOf(61).filter((r) => r.route === 'GET /products');
      expectRefusalsSplit(lists);
      // 52 pages of 200 at least; the windows' refusals under the stricter reading add a few.
      expect(lists.length).toBeLessThanOrEqual(reading === 'offset' ? 52 : 62);
    } finally {
      await standIn.close();
    }
  }, 60_000);

  it('products created in one second past the cap are read after the last id under offset, or said unreachable', async () => {
    const { standIn, store, client, warnings } = await storeAt(reading);
    try {
      const now = Date.now();
      for (let i = 49; i >= 0; i--)
        store.seedProduct({ name: `Outro ${i}`, variants: [{ sku: `O-${i}` }] }, at(now - i * 86_400_000 - 10_000));
      for (let i = 0; i < 450; i++)
        store.seedProduct({ name: `Lote ${i}`, variants: [{ sku: `L-${i}` }] }, at(now - 5000));
      const ids: number[] = [];
      for await (const page of client.products(100)) ids.push(...page.map((p) => p.id));
      expect(new Set(ids).size).toBe(ids.length);
      if (reading === 'offset') {
        expect(ids).toHaveLength(500);
        expect(warnings).toEqual([]);
      } else {
        // No query can reach them: the others are read and the gap is told.
        expect(ids).toHaveLength(50);
        expect(warnings.length).toBeGreaterThan(0);
        expect(warnings.every((w) => /^More than 300 products created between /.test(w))).toBe(true);
      }
      expectRefusalsSplit(standIn.requestsOf(61));
    } finally {
      await standIn.close();
    }
  });

  it('a sweep over 12,000 updated orders reads them all, a refused window split and not asked again', async () => {
    const { standIn, store, client, warnings } = await storeAt(reading);
    try {
      const now = Math.floor(Date.now() / 1000) * 1000;
      for (let i = 0; i < 12_000; i++) store.seedOrder({ lines: [{ variant: 1 }], updated_at: at(now - i * 1000) });
      const seen = new Set<number>();
      for await (const page of client.ordersUpdated(new Date(now - 12_000_000), new Date(now + 1000), 100)) {
        for (const order of page) seen.add(order.id);
      }
      expect(seen.size).toBe(12_000);
      expect(warnings).toEqual([]);
      const lists = standIn.requestsOf(61).filter((r) => r.route === 'GET /orders');
      expectRefusalsSplit(lists);
      expect(
        lists.filter((r) => r.status === 200).every((r) => Number(r.query.page) * Number(r.query.per_page) <= CAP),
      ).toBe(true);
      // 120 pages of 100 at least; a window too large costs one request, never its pages.
      expect(lists.length).toBeLessThan(250);
    } finally {
      await standIn.close();
    }
  }, 60_000);

  it('orders updated in one second past the cap are read as far as the cap allows, with a warning', async () => {
    const { standIn, store, client, warnings } = await storeAt(reading);
    try {
      const now = Math.floor(Date.now() / 1000) * 1000;
      for (let i = 0; i < 400; i++) store.seedOrder({ lines: [{ variant: 1 }], updated_at: at(now) });
      const seen = new Set<number>();
      for await (const page of client.ordersUpdated(new Date(now - 60_000), new Date(now + 1000), 100)) {
        for (const order of page) seen.add(order.id);
      }
      expect(seen.size).toBe(reading === 'offset' ? CAP : 0);
      expect(warnings.length).toBeGreaterThan(0);
      expect(warnings.every((w) => /^More than 300 updated between /.test(w))).toBe(true);
      expectRefusalsSplit(standIn.requestsOf(61));
    } finally {
      await standIn.close();
    }
  });
});

describe('the stand-in’s product listing', () => {
  it('honours sort_by as product.md lists it, and without one does not serve ascending ids', async () => {
    const { standIn, store } = await storeAt('offset');
    try {
      const now = Date.now();
      const made = [2, 0, 1].map((k) =>
        store.seedProduct(
          { name: `P${k}`, variants: [{ sku: `S-${k}`, price: String(10 + k) }] },
          at(now - k * 60_000),
        ),
      );
      const list = async (query: string) => {
        const response = await fetch(`${standIn.url}/61/products?per_page=10${query}`, {
          headers: { 'User-Agent': USER_AGENT, Authentication: `bearer ${store.token}` },
        });
        const body = (await response.json()) as { name: { pt: string } }[] | { description: string };
        return [response.status, Array.isArray(body) ? body.map((p) => p.name.pt) : body.description];
      };
      // Newest first: P0, then P1, then P2, whose ids were given P2, P0, P1.
      expect(await list('')).toEqual([200, ['P0', 'P1', 'P2']]);
      expect(await list('&since_id=0')).toEqual([200, ['P0', 'P1', 'P2']]);
      expect(await list('&sort_by=created-at-ascending')).toEqual([200, ['P2', 'P1', 'P0']]);
      expect(await list('&sort_by=price-descending')).toEqual([200, ['P2', 'P1', 'P0']]);
      expect(await list('&sort_by=alpha-ascending')).toEqual([200, ['P0', 'P1', 'P2']]);
      expect(await list(`&sort_by=created-at-ascending&since_id=${made[0].id}`)).toEqual([200, ['P1', 'P0']]);
      expect(await list(`&created_at_min=${encodeURIComponent(at(now - 90_000))}`)).toEqual([200, ['P0', 'P1']]);
      expect(await list('&sort_by=newest')).toEqual([422, 'Invalid sort_by']);
    } finally {
      await standIn.close();
    }
  });
});
