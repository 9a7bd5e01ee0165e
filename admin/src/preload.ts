import { getToken } from './api';
import { preloadDataProvider } from './dataProvider';
import { resources } from './resources';

/**
 * A signed-in start fetches the data layer and the opened list's code right away, alongside the app's own
 * start, instead of one after the other once the session is checked and the screen asks for them.
 */
export function preloadSession(pathname: string): void {
  if (!getToken()) return;
  void preloadDataProvider();
  const name = pathname.split('/')[1] ?? '';
  if (Object.hasOwn(resources, name)) resources[name as keyof typeof resources].loadList().catch(() => undefined);
}
