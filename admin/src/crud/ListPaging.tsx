import { useEffect, useRef } from 'react';
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
 * sends an empty page back to page 1 (useListController), in an effect of its own whose change it applies a tick
 * later. When both changes are made in the same tick, this one, queued first, is the one applied; when a render comes
 * in between (anything else on the screen rendering at that moment), react-admin's comes last. So the target is kept
 * until the list shows it: a move to page 1 that comes after it, while the list has not yet shown the target, is
 * react-admin's reset, and is undone.
 */
export function LastPageRedirect() {
  const { page, perPage, data, total, isPending, isFetching, setPage } = useListContext();
  const beyond = !isPending && !isFetching && page > 1 && !data?.length && (total ?? 0) > 0;
  const last = Math.max(1, Math.ceil((total ?? 0) / perPage));
  const target = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (beyond) {
      target.current = last;
      const timer = setTimeout(() => setPage(last));
      return () => clearTimeout(timer);
    }
    if (target.current === undefined || isPending || isFetching) return;
    if (page === target.current) {
      target.current = undefined;
    } else if (page === 1) {
      const timer = setTimeout(() => setPage(target.current ?? 1));
      return () => clearTimeout(timer);
    }
  }, [beyond, last, page, isPending, isFetching, setPage]);
  return null;
}
