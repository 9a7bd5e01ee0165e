/**
 * The permissions (scopes) the app asks a store for, and which of its calls needs which. Nuvemshop answers a call
 * whose scope was not granted with 403 and never says which scope it wanted, so the call itself names it.
 */
export const APP_SCOPES = [
  'read_products',
  'write_products',
  'read_orders',
  'write_orders',
  // The buyer's CPF/CNPJ lives in `customer`, which an order carries only with this scope.
  'read_customers',
  'read_locations',
  // Staff set the locations' priorities and the default in the store.
  'write_locations',
  'read_fulfillment_orders',
  'write_fulfillment_orders',
] as const;

/** The most of a scope list kept with a client (its column's length). */
export const SCOPES_MAX = 2000;

/** A scope list as Nuvemshop writes it (`read_products,write_products`), read into its names. */
export function scopeNames(list: string | null | undefined): string[] {
  return [
    ...new Set(
      String(list ?? '')
        .split(/[\s,]+/)
        .filter(Boolean),
    ),
  ];
}

/** A list of scopes written as Nuvemshop writes them, cut at a whole name to fit a client's column; null when empty. */
export function scopeList(names: readonly string[]): string | null {
  let list = '';
  for (const name of names) {
    const next = list ? `${list},${name}` : name;
    if (next.length > SCOPES_MAX) break;
    list = next;
  }
  return list || null;
}

/**
 * The scopes of the app's that a grant leaves out (a write scope implies its read scope), in the app's order; none
 * when the grant is unknown (a token typed in by staff): then a refusal says it.
 */
export function missingScopes(granted: string | null | undefined): string[] {
  if (granted === null || granted === undefined) return [];
  const names = new Set(scopeNames(granted));
  return APP_SCOPES.filter(
    (scope) => !names.has(scope) && !(scope.startsWith('read_') && names.has(scope.replace(/^read_/, 'write_'))),
  );
}

/**
 * The scope a call of the product's needs, from the resource its path names (null for the store's record and the
 * webhooks, which need none of their own).
 */
export function scopeOfCall(method: string, path: string): string | null {
  const access = method.toUpperCase() === 'GET' ? 'read' : 'write';
  const resource = path.split('?')[0];
  if (/^\/orders\/[^/]+\/fulfillment-orders(\/|$)/.test(resource)) return `${access}_fulfillment_orders`;
  if (/^\/locations(\/|$)/.test(resource)) return `${access}_locations`;
  // The only metafields the product reads or writes are its orders' NF-e.
  if (/^\/(orders|metafields)(\/|$)/.test(resource)) return `${access}_orders`;
  if (/^\/(products|categories)(\/|$)/.test(resource)) return `${access}_products`;
  return null;
}

/** How staff read the scopes a store did not grant: `Permissão ausente na Nuvemshop: read_customers`. */
export const permissionMissingText = (scopes: readonly string[]) =>
  `Permissão ausente na Nuvemshop: ${scopes.join(', ')}`;
