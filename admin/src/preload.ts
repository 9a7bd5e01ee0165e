import { fetchCurrentUser } from './authProvider';
import { DEFAULT_SORT, pageSizesOf, parsePage } from './crud/listAddress';
import { prefetchList } from './dataProvider/load';
import { isListScreen, loadListScreen } from './lists';
import { getToken } from './token';

/**
 * A signed-in start asks for the opened list's first rows and the list's code right away, while the app's own code
 * loads, instead of one after the other once the app has started, the session is checked and the screen asks for
 * them. Only the page as the screen first shows it is asked for: its page from `?page=N`, in the default order,
 * unfiltered. Any signed-in start asks for who the user is (`me`, which the app bar, the menu and the session check
 * read) as well: beside the rows, and not from the app's first effects, where each request the browser starts holds
 * up the main thread a moment.
 */
export function preloadSession({ pathname, search }: { pathname: string; search: string }): void {
  if (!getToken()) return;
  preloadList(pathname, search);
  // After the rows, which the screen shows first. A refused token is the auth provider's to handle when the app
  // asks: it asks again, and signs out.
  fetchCurrentUser().catch(() => undefined);
}

/** The opened list's code and first rows, when the start opens a list. */
function preloadList(pathname: string, search: string) {
  const name = pathname.split('/')[1] ?? '';
  if (!isListScreen(name)) return;
  loadListScreen(name).catch(() => undefined);
  const query = new URLSearchParams(search);
  if ([...query.keys()].some((key) => key !== 'page')) return;
  // The data provider's getList run early (dataProvider/load.ts): its library loads once the first screen is up.
  prefetchList(name, {
    pagination: { page: parsePage(query.get('page')), perPage: pageSizesOf(name)[0] },
    sort: { ...DEFAULT_SORT },
    filter: {},
  });
}
