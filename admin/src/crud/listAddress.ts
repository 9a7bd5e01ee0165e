/** Rows per list page: five, the product's choice for every list. */
export const PAGE_SIZE = 5;
/** A list's order until a heading is clicked: the gateway's own (newest first), as `id` is not @sortable. */
export const DEFAULT_SORT = { field: 'id', order: 'ASC' } as const;

/** The list page from `?page=N`: anything but a whole number from 1 up means page 1. */
export function parsePage(value: string | null): number {
  if (!value || !/^\d+$/.test(value)) return 1;
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/**
 * The list's address as react-admin should read it: an invalid `page` becomes 1 and a `perPage` other than the
 * screen's is dropped. Answers null when the address is fine as it is.
 */
export function correctedSearch(search: string, perPage: number): string | null {
  const params = new URLSearchParams(search);
  let changed = false;
  const page = params.get('page');
  if (page !== null && String(parsePage(page)) !== page) {
    params.set('page', '1');
    changed = true;
  }
  const size = params.get('perPage');
  if (size !== null && size !== String(perPage)) {
    params.delete('perPage');
    changed = true;
  }
  return changed ? `?${params.toString()}` : null;
}
