import type { DataProvider } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { dataProvider } from './index';
import { claimPrefetched, prefetchList } from './load';

const page = (n: number) => ({
  pagination: { page: n, perPage: 5 },
  sort: { field: 'id', order: 'ASC' as const },
  filter: {},
});

function gateway() {
  const getList = vi.fn(async () => ({ data: [{ id: 'c1', url: 'https://loja.example' }], total: 1 }));
  return { getList, load: async () => ({ getList }) as unknown as DataProvider };
}

describe('a list asked for at start', () => {
  it('is the answer the list screen gets for the same page: one request, not two', async () => {
    const { getList, load } = gateway();
    prefetchList('clientes', page(1), load);
    const answer = await dataProvider.getList('clientes', { ...page(1), meta: undefined });
    expect(answer).toEqual({ data: [{ id: 'c1', url: 'https://loja.example' }], total: 1 });
    expect(getList).toHaveBeenCalledTimes(1);
    // Claimed once: the next call (a refresh) asks the gateway again.
    expect(claimPrefetched('clientes', page(1))).toBeUndefined();
  });

  it('is not used for another resource, page, order or filter', () => {
    const { load } = gateway();
    prefetchList('clientes', page(1), load);
    expect(claimPrefetched('items', page(1))).toBeUndefined();
    expect(claimPrefetched('clientes', page(2))).toBeUndefined();
    expect(claimPrefetched('clientes', { ...page(1), sort: { field: 'url', order: 'ASC' } })).toBeUndefined();
    expect(claimPrefetched('clientes', { ...page(1), filter: { q: 'loja' } })).toBeUndefined();
    expect(claimPrefetched('clientes', page(1))).toBeDefined();
  });
});
