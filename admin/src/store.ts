import { localStorageStore, type Store } from 'react-admin';

const base = localStorageStore(undefined, 'SistemaIntegracao');

/** react-admin's preferences in localStorage; the chosen appearance survives a logout. */
export const store: Store = {
  ...base,
  reset() {
    const theme = base.getItem('theme');
    base.reset();
    if (theme !== undefined) base.setItem('theme', theme);
  },
};
