import { getToken } from './api';
import { loadList as clientList } from './clients';
import { preloadDataProvider } from './dataProvider';
import { loadList as itemList } from './items';
import { loadList as userList } from './users';

const lists: Record<string, () => Promise<unknown>> = { clientes: clientList, items: itemList, admin: userList };

/**
 * A signed-in start fetches the data layer and the opened list's code right away, alongside the app's own
 * start, instead of one after the other once the session is checked and the screen asks for them.
 */
export function preloadSession(pathname: string): void {
  if (!getToken()) return;
  void preloadDataProvider();
  lists[pathname.split('/')[1] ?? '']?.().catch(() => undefined);
}
