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

/** Loads a list screen's code (once: the browser keeps the module), noting the screen once it is there. */
export const loadListScreen = (name: ListScreenName): Promise<{ default: ComponentType }> =>
  loaders[name]().then((module) => {
    loaded[name] = module.default;
    return module;
  });

/** The list screen, if its code has already loaded. */
export const loadedListScreen = (name: ListScreenName): ComponentType | undefined => loaded[name];
