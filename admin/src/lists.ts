import { lazy, type ComponentType } from 'react';
import type { RaRecord } from 'react-admin';
import { declarations, type ResourceName } from './dataProvider/resourceTypes';
import { loadLabels } from './labels';
import { customScreens, type ScreenModule } from './screens';

const declaredList = () => import('./crud/DeclaredList') as Promise<ScreenModule>;

/**
 * Each list screen's code, by resource name (also its path): a screen of its own (screens.ts) or the declared one.
 * A resource's definition shows it (crud/listScreen.tsx), and a signed-in start fetches the opened one at once
 * (preload.ts).
 */
const loaders = Object.fromEntries(
  declarations.map((d) => {
    const code = customScreens[d.screen] ?? declaredList;
    // The screen's texts come beside its code; those of the lists its row menus open (a client's runs) once its first
    // rows are in (crud/ListRows.tsx).
    return [d.screen, () => Promise.all([code(), loadLabels(d.screen)]).then(([module]) => module)];
  }),
) as Record<ResourceName, () => Promise<ScreenModule>>;

export type ListScreenName = ResourceName;

export const isListScreen = (name: string): name is ListScreenName => Object.hasOwn(loaders, name);

type Screen = ComponentType<{ resource: ResourceName }>;
const loaded: Partial<Record<ListScreenName, Screen>> = {};
const loading = new Set<Promise<unknown>>();

/** Loads a list screen's code (once: the browser keeps the module), noting the screen once it is there. */
export const loadListScreen = (name: ListScreenName): Promise<ScreenModule> => {
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
export const loadedListScreen = (name: ListScreenName): Screen | undefined => loaded[name];

/**
 * What a record's dialog shows under its inputs, by resource (its definition's `options.recordPanel`, resources.ts),
 * its code loaded when a dialog first shows it: a client's last 30 days in charts.
 */
export const recordPanels: Partial<Record<ResourceName, ComponentType<{ record: RaRecord }>>> = {
  clientes: lazy(() => import('./dashboard/ActivityCharts').then((module) => ({ default: module.ClientActivity }))),
};
