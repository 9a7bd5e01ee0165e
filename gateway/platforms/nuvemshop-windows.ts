/**
 * Lists read past Nuvemshop's limit ("Query results are limited to 10.000 items"). Whether it counts a query's
 * matches or how far its pages reach is not said, so windows are made small enough for either reading: a window
 * refused for its size, or that says it matches more than the cap, is split in halves by time and never asked again
 * as it is.
 */

export type Filters = Record<string, string | number>;

/** A page of a window: its items and the query's `x-total-count` when sent; or the refusal of a query too large. */
export type WindowAnswer<T> = { items: T[]; total?: number } | { tooLarge: Error };

/** Reads one page (1-based) of the list with these filters. */
export type ReadPage<T> = (filters: Filters, page: number) => Promise<WindowAnswer<T>>;

export interface WindowOptions {
  /** The most results one query may reach. */
  cap: number;
  perPage: number;
  /** Told when a window of one second holds more than the cap: what is past it cannot be listed. */
  warn: (message: string) => void;
}

const SECOND = 1000;
/** Halvings from years down to a second take about 30: far more refusals than that is not about the size. */
const MAX_REFUSALS = 1000;
/** No product is older than the platform. */
const PRODUCTS_SINCE = Date.UTC(2009, 0, 1);
/** A store's clock a little ahead of ours still has its newest products read. */
const CLOCK_MARGIN = 3600 * SECOND;

const iso = (ms: number) => new Date(ms).toISOString();
const dateOf = (text: string) => Date.parse(text.replace(/\+0000$/, 'Z'));

/** Counts refusals, throwing the last one past the bound: a 422 taken for the size that is not cannot loop. */
function refusals(): (answer: { tooLarge: Error }) => void {
  let count = 0;
  return ({ tooLarge }) => {
    if (++count > MAX_REFUSALS) throw tooLarge;
  };
}

/**
 * Everything updated between `from` and `to`. Orders come by creation, not by update, so a window is read to its end
 * or split; a window of one second is read as far as the cap allows. Halves share their boundary: an item may come
 * twice, and callers take each by its id.
 */
export async function* byUpdate<T>(read: ReadPage<T>, from: number, to: number, o: WindowOptions): AsyncGenerator<T[]> {
  const pagesPerWindow = Math.max(1, Math.floor(o.cap / o.perPage));
  const refused = refusals();
  const windows: [number, number][] = [[from, to]];
  while (windows.length > 0) {
    const [start, end] = windows.shift()!;
    const narrow = end - start <= SECOND;
    const filters = { updated_at_min: iso(start), updated_at_max: iso(end) };
    let fits = true;
    for (let page = 1; page <= pagesPerWindow; page++) {
      const answer = await read(filters, page);
      if ('tooLarge' in answer) refused(answer);
      // Said too large by its count, a window is split before its other pages are read for nothing.
      if ('tooLarge' in answer || (page === 1 && !narrow && (answer.total ?? 0) > o.cap)) {
        fits = false;
        break;
      }
      if (answer.items.length > 0) yield answer.items;
      if (answer.items.length < o.perPage || (answer.total !== undefined && answer.total <= page * o.perPage)) break;
      if (page === pagesPerWindow) fits = false;
    }
    if (fits) continue;
    if (narrow) {
      o.warn(`More than ${o.cap} updated between ${iso(start)} and ${iso(end)}: read as far as the limit allows`);
      continue;
    }
    const middle = Math.floor((start + end) / 2);
    windows.unshift([start, middle], [middle, end]);
  }
}

interface CreationWindow {
  start: number;
  end: number;
  /** Where a window read to the cap goes on: after the last id read, in the second of the last product read. */
  since?: number;
}

/**
 * Every product, each once: windows of creation dates asked in `created-at-ascending` order (product.md), split in
 * halves while refused. A window whose pages reach the cap goes on from the last product read: its creation second,
 * after its id (`since_id`, which pages a store only because ids grow as products are created).
 */
export async function* byCreation<T extends { id: number; created_at: string }>(
  read: ReadPage<T>,
  now: number,
  o: WindowOptions,
): AsyncGenerator<T[]> {
  const pagesPerWindow = Math.max(1, Math.floor(o.cap / o.perPage));
  const refused = refusals();
  const seen = new Set<number>();
  const windows: CreationWindow[] = [{ start: PRODUCTS_SINCE, end: Math.ceil((now + CLOCK_MARGIN) / SECOND) * SECOND }];
  while (windows.length > 0) {
    const window = windows.shift()!;
    const { start, end, since } = window;
    const filters: Filters = {
      created_at_min: iso(start),
      created_at_max: iso(end),
      sort_by: 'created-at-ascending',
      ...(since === undefined ? {} : { since_id: since }),
    };
    let outcome: 'read' | 'refused' | 'more' = 'read';
    let lastAt = start;
    let lastId = since ?? 0;
    for (let page = 1; ; page++) {
      if (page > pagesPerWindow) {
        outcome = 'more';
        break;
      }
      const answer = await read(filters, page);
      if ('tooLarge' in answer) {
        refused(answer);
        outcome = page === 1 ? 'refused' : 'more';
        break;
      }
      const fresh = answer.items.filter((p) => !seen.has(p.id));
      for (const p of fresh) seen.add(p.id);
      if (fresh.length > 0) yield fresh;
      for (const p of answer.items) {
        lastAt = Math.max(lastAt, Math.floor(dateOf(p.created_at) / SECOND) * SECOND);
        lastId = Math.max(lastId, p.id);
      }
      if (answer.items.length < o.perPage) break;
    }
    if (outcome === 'read') continue;
    if (outcome === 'more') {
      if (lastId > (since ?? 0)) windows.unshift({ start: lastAt, end, since: lastId });
      continue;
    }
    if (end - start <= SECOND) {
      o.warn(`More than ${o.cap} products created between ${iso(start)} and ${iso(end)}: they cannot be listed`);
      continue;
    }
    const middle = Math.floor((start + end) / 2 / SECOND) * SECOND;
    windows.unshift({ start, end: middle, since }, { start: middle, end, since });
  }
}
