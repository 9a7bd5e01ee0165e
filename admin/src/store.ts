import { localStorageStore, type Store } from 'react-admin';
import { STORE_APP_KEY } from './prerendered/names';

const base = localStorageStore(undefined, STORE_APP_KEY);

/** The app's one locale, the one both i18n providers (i18n/index.ts) start in. */
export const LOCALE = 'pt-BR';

/**
 * react-admin's preferences in localStorage; the chosen appearance survives a logout. The locale reads as the app's
 * own when none was chosen: react-admin's translation providers hold back their first render until the stored
 * locale equals the provider's, which would otherwise cost every screen an empty pass first.
 */
export const store: Store = {
  ...base,
  getItem<T = unknown>(key: string, defaultValue?: T): T | undefined {
    return base.getItem(key, key === 'locale' ? ((defaultValue ?? LOCALE) as T) : defaultValue);
  },
  reset() {
    const theme = base.getItem('theme');
    base.reset();
    if (theme !== undefined) base.setItem('theme', theme);
  },
};
