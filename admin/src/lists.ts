import type { ComponentType } from 'react';

/**
 * Each list screen's code, by resource name (also its path). A resource's folder shows it (crud/listScreen.tsx), and
 * a signed-in start fetches the opened one at once (preload.ts).
 */
const loaders = {
  items: () => import('./items/ItemList'),
  clientes: () => import('./clients/ClientList'),
  admin: () => import('./users/UserList'),
};

export type ListScreenName = keyof typeof loaders;

export const isListScreen = (name: string): name is ListScreenName => Object.hasOwn(loaders, name);

const loaded: Partial<Record<ListScreenName, ComponentType>> = {};
const loading = new Set<Promise<unknown>>();

/** Loads a list screen's code (once: the browser keeps the module), noting the screen once it is there. */
export const loadListScreen = (name: ListScreenName): Promise<{ default: ComponentType }> => {
  const load = loaders[name]().then((module) => {
    loaded[name] = module.default;
    return module;
  });
  loading.add(load);
  void load.finally(() => loading.delete(load)).catch(() => undefined);
  return load;
};

/** Settles once every list screen's code being loaded has arrived (or failed to). */
export const listScreensLoaded = (): Promise<unknown> => Promise.allSettled([...loading]);

/** The list screen, if its code has already loaded. */
export const loadedListScreen = (name: ListScreenName): ComponentType | undefined => loaded[name];
