import type { QueryClient } from '@tanstack/react-query';
import { readRequest, runRequest, type ListParams as OperationListParams } from './operations';

/** ra-data-graphql and graphql load with the first data call that needs them, not before. */
export const loadProvider = () => import('./graphqlProvider');

/** Starts fetching the data layer ahead of its first call. */
export const preloadDataProvider = () => loadProvider().catch(() => undefined);

/** A list page as a start asks for it: every parameter given (the key it is kept under reads them all). */
export type ListParams = Required<Pick<OperationListParams, 'pagination' | 'sort' | 'filter'>>;

const listKey = (resource: string, p: Partial<ListParams>) =>
  JSON.stringify([resource, p.pagination?.page, p.pagination?.perPage, p.sort?.field, p.sort?.order, p.filter ?? {}]);

/**
 * The data provider's getList run before its library has loaded: the request its buildQuery gives ra-data-graphql
 * (the list operation's text and variables), sent over the same transport and answered through the same
 * parseResponse. The start's first page is asked for so, its rows on their way while the app's code loads.
 */
export const readListEarly = (resource: string, params: ListParams): Promise<unknown> =>
  runRequest(readRequest('GET_LIST', resource, params));

interface Prefetch {
  resource: string;
  params: ListParams;
  request: Promise<unknown>;
  /** The answer, once it has come back. */
  answer?: unknown;
  /**
   * Taken (put in the query cache before the first render, or handed to the list's first read) or dropped after 10 s:
   * the next call for the page asks the gateway again.
   */
  claimed: boolean;
}

/** The pages asked for at start, before the screen that shows them exists, by page. */
const prefetches = new Map<string, Prefetch>();

/**
 * Asks for a list page now, in parallel with `me` and with the app's code. The list screen shows this answer instead
 * of making a second round trip: from the query cache when it came before the app's first render (seedListPages), or
 * as the answer to its own first read when it comes later (claimPrefetched). Unclaimed answers are dropped.
 */
export function prefetchList(resource: string, params: ListParams, fetchPage = readListEarly): void {
  const prefetch: Prefetch = { resource, params, request: fetchPage(resource, params), claimed: false };
  prefetch.request.then(
    (answer) => (prefetch.answer = answer),
    () => undefined,
  );
  prefetches.set(listKey(resource, params), prefetch);
  setTimeout(() => (prefetch.claimed = true), 10_000);
}

/** Settles once every page asked for at start has been answered (or has failed). */
export const prefetchesSettled = (): Promise<unknown> =>
  Promise.allSettled([...prefetches.values()].map((prefetch) => prefetch.request));

/** How long a list page the start fetched counts as fresh once the app has it: the time for its list to mount. */
export const FIRST_PAGE_FRESH_MS = 10_000;

/**
 * Puts the pages the start has already received (and not yet handed out) in react-admin's query cache, under the key
 * their list reads (useGetList: resource, 'getList', its parameters), so the list's first pass shows the rows. Each is
 * claimed: the next call for it asks the gateway.
 *
 * Such a page, just fetched, counts as fresh for a moment: react-admin would otherwise ask for it again as the list
 * mounts, and the answer (the same rows) would render the whole list a second time, at once, just after it has been
 * drawn. Once the page is fetched again (a change, a return to the list), it is as react-admin keeps any other: stale
 * at once.
 */
export function seedListPages(queryClient: QueryClient): void {
  const updatedAt = Date.now();
  for (const prefetch of prefetches.values()) {
    const { resource, params, answer, claimed } = prefetch;
    if (!answer || claimed) continue;
    prefetch.claimed = true;
    const queryKey = [resource, 'getList', params];
    queryClient.setQueryData(queryKey, answer, { updatedAt });
    queryClient.setQueryDefaults(queryKey, {
      staleTime: (query) => (query.state.dataUpdatedAt === updatedAt ? FIRST_PAGE_FRESH_MS : 0),
    });
  }
}

/** The answer a start already asked for, once (the next call asks the gateway again). */
export function claimPrefetched(resource: string, params: Partial<ListParams>): Promise<unknown> | undefined {
  const prefetch = prefetches.get(listKey(resource, params));
  if (!prefetch || prefetch.claimed) return undefined;
  prefetch.claimed = true;
  return prefetch.request;
}
