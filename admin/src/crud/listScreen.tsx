import { lazy, useState, type ComponentType } from 'react';
import { loadedListScreen, loadListScreen, type ListScreenName } from '../lists';

/**
 * A resource's list screen, loaded with its first visit. When a signed-in start has already loaded it (preload.ts),
 * it renders in the same pass as the layout rather than suspending for a turn first.
 */
export function listScreen(name: ListScreenName): ComponentType {
  const Lazy = lazy(() => loadListScreen(name));
  return function ListScreen() {
    // Decided once per mount, so a screen never switches from one to the other (which would remount it).
    const [Screen] = useState<ComponentType<{ resource: ListScreenName }>>(() => loadedListScreen(name) ?? Lazy);
    return <Screen resource={name} />;
  };
}
