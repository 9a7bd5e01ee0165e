/**
 * Each list screen's code, by resource name (also its path). A resource's folder shows it lazily, and a signed-in
 * start fetches the opened one at once (preload.ts).
 */
export const listScreens = {
  items: () => import('./items/ItemList'),
  clientes: () => import('./clients/ClientList'),
  admin: () => import('./users/UserList'),
};
