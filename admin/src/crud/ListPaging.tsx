import { startTransition, useEffect, useRef, useState } from 'react';
import { useGetList, useListContext } from 'react-admin';
import { cancelIdle, whenIdle } from '../layout/idle';

/**
 * Fetches the next page ahead of the click, when the current one is full and another follows: from the moment the
 * browser is first idle once the list is up, not in the list's first effects, where starting a request holds up the
 * main thread just as the rows appear.
 */
export function NextPagePrefetch() {
  const { resource, page, perPage, sort, filterValues, filter, data, total, isPlaceholderData } = useListContext();
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const handle = whenIdle(() => startTransition(() => setIdle(true)));
    return () => cancelIdle(handle);
  }, []);
  const full = (data?.length ?? 0) === perPage && !isPlaceholderData;
  const more = total != null && page * perPage < total;
  useGetList(
    resource,
    { pagination: { page: page + 1, perPage }, sort, filter: { ...filterValues, ...filter } },
    { enabled: idle && full && more },
  );
  return null;
}

/** How long after the list has shown the last page a move to page 1 is taken for react-admin's late reset. */
const RESET_WINDOW_MS = 1000;

/**
 * A page past the end (typed in the address, or emptied by a delete) goes to the last page. react-admin's own list
 * sends an empty page back to page 1 (useListController), from an effect that runs on each of its renders while the
 * page is empty, and applies the change a tick later. A move queued in the same render as one of react-admin's is
 * applied after it; one of react-admin's queued in a render of its own can land after the list has already shown the
 * last page. So the target is kept for a moment after the list shows it: a move to page 1 in that moment is
 * react-admin's reset, and is undone; a move later is the person's own.
 */
export function LastPageRedirect() {
  const { page, perPage, data, total, isPending, isFetching, setPage } = useListContext();
  const beyond = !isPending && !isFetching && page > 1 && !data?.length && (total ?? 0) > 0;
  const last = Math.max(1, Math.ceil((total ?? 0) / perPage));
  const target = useRef<{ page: number; shownAt?: number } | undefined>(undefined);
  useEffect(() => {
    if (beyond) {
      target.current = { page: last };
      const timer = setTimeout(() => setPage(last));
      return () => clearTimeout(timer);
    }
    const kept = target.current;
    if (!kept || isPending || isFetching) return;
    if (page === kept.page) {
      kept.shownAt ??= performance.now();
    } else if (kept.shownAt !== undefined && performance.now() - kept.shownAt > RESET_WINDOW_MS) {
      target.current = undefined;
    } else if (page === 1) {
      const timer = setTimeout(() => setPage(kept.page));
      return () => clearTimeout(timer);
    }
  }, [beyond, last, page, isPending, isFetching, setPage]);
  return null;
}
