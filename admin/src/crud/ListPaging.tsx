import { useEffect } from 'react';
import { useGetList, useListContext } from 'react-admin';

/** Fetches the next page ahead of the click, when the current one is full and another follows. */
export function NextPagePrefetch() {
  const { resource, page, perPage, sort, filterValues, filter, data, total, isPlaceholderData } = useListContext();
  const full = (data?.length ?? 0) === perPage && !isPlaceholderData;
  const more = total != null && page * perPage < total;
  useGetList(
    resource,
    { pagination: { page: page + 1, perPage }, sort, filter: { ...filterValues, ...filter } },
    { enabled: full && more },
  );
  return null;
}

/**
 * A page past the end (typed in the address, or emptied by a delete) goes to the last page. react-admin's own list
 * sends an empty page back to page 1, in an effect that runs after this one's and queues its change for the next
 * tick: this change is queued ahead of it, within the same tick, so it is the one applied.
 */
export function LastPageRedirect() {
  const { page, perPage, data, total, isPending, isFetching, setPage } = useListContext();
  const beyond = !isPending && !isFetching && page > 1 && !data?.length && (total ?? 0) > 0;
  const last = Math.max(1, Math.ceil((total ?? 0) / perPage));
  useEffect(() => {
    if (!beyond) return;
    const timer = setTimeout(() => setPage(last));
    return () => clearTimeout(timer);
  }, [beyond, last, setPage]);
  return null;
}
