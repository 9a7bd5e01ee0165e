import { useEffect } from 'react';
import { useGetList, type RaRecord } from 'react-admin';
import { usePage } from './usePage';

export const PAGE_SIZE = 5;

/**
 * One page of a resource, with the page kept in `?page=N`. While the next page loads, the previous
 * rows stay on screen (marked stale); a full page prefetches the next one.
 */
export function usePagedList<T extends RaRecord>(resource: string, options: { enabled?: boolean } = {}) {
  const [page, setPage] = usePage();
  const enabled = options.enabled ?? true;
  const params = { pagination: { page, perPage: PAGE_SIZE }, sort: { field: 'id', order: 'ASC' as const }, filter: {} };
  const list = useGetList<T>(resource, params, { enabled, placeholderData: (previous) => previous });
  const total = list.total ?? 0;
  const full = (list.data?.length ?? 0) === PAGE_SIZE && !list.isPlaceholderData;
  const hasNext = !list.isPlaceholderData && page * PAGE_SIZE < total;

  useGetList<T>(
    resource,
    { ...params, pagination: { page: page + 1, perPage: PAGE_SIZE } },
    { enabled: enabled && full && hasNext },
  );

  // A page past the end (after a delete, or typed in the address) goes back to the last page.
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const beyond = !list.isPending && !list.isPlaceholderData && !list.error && page > lastPage;
  useEffect(() => {
    if (beyond) setPage(lastPage);
  }, [beyond, lastPage, setPage]);

  return {
    data: list.data,
    total,
    page,
    setPage,
    isPending: list.isPending,
    isStale: list.isPlaceholderData,
    error: list.error,
    hasPrevious: page > 1,
    hasNext,
  };
}
