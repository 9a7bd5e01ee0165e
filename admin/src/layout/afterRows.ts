import { useEffect, useState } from 'react';
import { prefetchesSettled } from '../dataProvider/load';
import { loadAllLabels, loadLabels } from '../labels';
import { whenIdle } from './idle';

/**
 * What the first rows do not need (the sidebar's entries' texts, a row menu's links to other lists, the toasts' code),
 * loaded once the rows the start asked for are in: fetched before them, it would only delay them. Whether it has come;
 * the component renders again when it has.
 */
let shown: Promise<void> | undefined;

/**
 * Settles once the rows the start asked for are in and the browser is idle (they are drawn), or at a person's first
 * press of a pointer or a key, whichever comes first: what waits for it is there by the time anyone reaches for it.
 */
const rowsShown = (): Promise<void> =>
  (shown ??= new Promise<void>((resolve) => {
    const go = () => resolve();
    void prefetchesSettled().then(() => whenIdle(go));
    for (const type of ['pointerdown', 'keydown']) document.addEventListener(type, go, { once: true, capture: true });
  }));

export function useLoadedAfterRows(load: () => Promise<unknown>, key: string): boolean {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    let live = true;
    void rowsShown()
      .then(load)
      .then(() => live && setLoaded(true));
    return () => {
      live = false;
    };
    // `key` names what `load` loads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return loaded;
}

/** Every resource's texts (the sidebar names each resource as its labels do), once the first rows are in. */
export const useAllLabels = (): boolean => useLoadedAfterRows(loadAllLabels, '*');

/** These screens' texts (the lists a row menu opens), once the first rows are in. */
export const useLabelsOf = (screens: readonly string[]): boolean =>
  useLoadedAfterRows(() => Promise.all(screens.map(loadLabels)), screens.join(','));
