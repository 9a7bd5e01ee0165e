/** Rows per page of the specification's lists (Itens, Clientes, Usuários): five, with no choice. */
export const PAGE_SIZE = 5;
/** What the lists the product added (Pedidos, Sincronizações, Webhooks, E-mails, ...) offer, the first by default. */
export const PAGE_SIZES = [10, 25, 50] as const;
const SPEC_LISTS: readonly string[] = ['items', 'clientes', 'admin'];

/** The page sizes a list offers, its default first. */
export const pageSizesOf = (resource: string): readonly number[] =>
  SPEC_LISTS.includes(resource) ? [PAGE_SIZE] : PAGE_SIZES;
/** A list's order until a heading is clicked: the gateway's own (newest first), as `id` is not @sortable. */
export const DEFAULT_SORT = { field: 'id', order: 'ASC' } as const;

/** The list page from `?page=N`: anything but a whole number from 1 up means page 1. */
export function parsePage(value: string | null): number {
  if (!value || !/^\d+$/.test(value)) return 1;
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/**
 * The list's address as react-admin should read it: an invalid `page` becomes 1 and a `perPage` the screen does not
 * offer is dropped. Answers null when the address is fine as it is.
 */
export function correctedSearch(search: string, sizes: readonly number[]): string | null {
  const params = new URLSearchParams(search);
  let changed = false;
  const page = params.get('page');
  if (page !== null && String(parsePage(page)) !== page) {
    params.set('page', '1');
    changed = true;
  }
  const size = params.get('perPage');
  if (size !== null && !sizes.some((offered) => String(offered) === size)) {
    params.delete('perPage');
    changed = true;
  }
  return changed ? `?${params.toString()}` : null;
}
