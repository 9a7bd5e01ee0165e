import type { DataProvider } from 'react-admin';

/** Apollo, graphql and the schema's description load with the first data call (or a signed-in start), not before. */
export const loadProvider = (): Promise<DataProvider> =>
  import('./graphqlProvider').then((module) => module.graphqlProvider as DataProvider);

/** Starts fetching the data layer ahead of the first call (a signed-in start will make one at once). */
export const preloadDataProvider = () => loadProvider().catch(() => undefined);

export interface ListParams {
  pagination: { page: number; perPage: number };
  sort: { field: string; order: 'ASC' | 'DESC' };
  filter: Record<string, unknown>;
}

const listKey = (resource: string, p: Partial<ListParams>) =>
  JSON.stringify([resource, p.pagination?.page, p.pagination?.perPage, p.sort?.field, p.sort?.order, p.filter ?? {}]);

/** Lists asked for at start, before the screen that shows them exists: the screen's own call takes the answer. */
const started = new Map<string, Promise<unknown>>();

/**
 * Asks for a list page now, in parallel with `me` and with the screen's code: the list screen, once mounted, asks
 * for the same page and gets this answer instead of making a second round trip. Unclaimed answers are dropped.
 */
export function prefetchList(resource: string, params: ListParams, load = loadProvider): void {
  const key = listKey(resource, params);
  const answer = load().then((provider) => provider.getList(resource, params));
  answer.catch(() => undefined);
  started.set(key, answer);
  setTimeout(() => started.delete(key), 10_000);
}

/** The answer a start already asked for, once (the next call asks the gateway again). */
export function claimPrefetched(resource: string, params: Partial<ListParams>): Promise<unknown> | undefined {
  const key = listKey(resource, params);
  const answer = started.get(key);
  started.delete(key);
  return answer;
}
