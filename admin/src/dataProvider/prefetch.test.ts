import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataProvider } from './index';
import { claimPrefetched, prefetchesSettled, prefetchList, readListEarly, seedListPages } from './load';
import { operationsOf } from './operations';

const page = (n: number) => ({
  pagination: { page: n, perPage: 5 },
  sort: { field: 'id', order: 'ASC' as const },
  filter: {},
});

function gateway() {
  const getList = vi.fn(async () => ({ data: [{ id: 'c1', url: 'https://loja.example' }], total: 1 }));
  return { getList, load: getList };
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

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

describe('a list page the start has received', () => {
  it('is in the query cache when the list mounts, which does not ask for it again, until it is fetched anew', async () => {
    const { getList, load } = gateway();
    prefetchList('clientes', page(1), load);
    await prefetchesSettled();
    const queryClient = new QueryClient();
    seedListPages(queryClient);
    // Handed out: a later read of the page asks the gateway.
    expect(claimPrefetched('clientes', page(1))).toBeUndefined();

    // As react-admin's useGetList reads it.
    const queryFn = vi.fn(async () => ({ data: [], total: 0 }));
    const observer = new QueryObserver(queryClient, {
      queryKey: ['clientes', 'getList', { ...page(1), meta: undefined }],
      queryFn,
    });
    const stop = observer.subscribe(() => undefined);
    expect(observer.getCurrentResult()).toMatchObject({ data: { total: 1 }, isFetching: false });
    expect(queryFn).not.toHaveBeenCalled();

    // A change (react-admin invalidates the lists after a write) fetches it again, and from then on it is stale at once.
    await queryClient.invalidateQueries({ queryKey: ['clientes'] });
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(observer.getCurrentResult()).toMatchObject({ data: { total: 0 }, isStale: true });
    expect(getList).toHaveBeenCalledTimes(1);
    stop();
    queryClient.clear();
  });
});

describe('the first page read before the data layer has loaded', () => {
  const answer = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

  it("sends the list operation's text with the token and answers as getList does", async () => {
    localStorage.setItem('access_token', 'token-1');
    const fetch = vi.fn(async () =>
      answer(200, { data: { data: [{ id: 'c1', url: 'https://loja.example' }], total: { count: 14 } } }),
    );
    vi.stubGlobal('fetch', fetch);
    await expect(readListEarly('clientes', page(3))).resolves.toEqual({
      data: [{ id: 'c1', url: 'https://loja.example' }],
      total: 14,
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/graphql');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer token-1');
    const body = JSON.parse(init.body as string);
    expect(body.query).toBe(operationsOf('Client').list);
    // Page 3 of react-admin is page 2 counted from 0; `id` is not a sortable field, so the gateway's order stays.
    expect(body.variables).toEqual({ page: 2, perPage: 5, filter: {} });
  });

  it("fails with the gateway's status and code, which the data provider hands to react-admin", async () => {
    localStorage.setItem('access_token', 'expired');
    vi.stubGlobal('fetch', async () =>
      answer(200, {
        errors: [{ message: 'Could not validate credentials', extensions: { status: 403, code: 'UNAUTHENTICATED' } }],
      }),
    );
    prefetchList('clientes', page(1));
    const error = await dataProvider.getList('clientes', page(1)).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 403,
      message: 'Could not validate credentials',
      body: { code: 'UNAUTHENTICATED' },
    });
  });

  it("is the data provider's own getList run early: the same request and the same answer as ra-data-graphql's", async () => {
    localStorage.setItem('access_token', 'token-2');
    const fetch = vi.fn(async () =>
      answer(200, {
        data: { data: [{ id: 'c1', url: 'https://loja.example', __typename: 'Client' }], total: { count: 1 } },
      }),
    );
    vi.stubGlobal('fetch', fetch);
    const early = await readListEarly('clientes', page(2));
    // Not asked for at start: ra-data-graphql reads it.
    const late = await dataProvider.getList('clientes', { ...page(2), meta: undefined });
    expect(late).toEqual(early);
    expect(late).toEqual({ data: [{ id: 'c1', url: 'https://loja.example' }], total: 1 });
    expect(fetch).toHaveBeenCalledTimes(2);
    const [first, second] = fetch.mock.calls as unknown as [string, RequestInit][];
    expect(second[0]).toBe(first[0]);
    expect(second[1].headers).toEqual(first[1].headers);
    expect(JSON.parse(second[1].body as string)).toEqual(JSON.parse(first[1].body as string));
  });
});
