import { lazy, startTransition, useEffect, useState, type ComponentType, type ReactNode } from 'react';

/**
 * What the first screen can draw a moment after its rows. The app's first render holds the whole first screen (in
 * slices: start.tsx), and every component in it delays the rows that come with it. Controls nobody can reach for in
 * the first tenth of a second (the sidebar's entries, a row's menu button, the pagination below the table) are drawn
 * once the browser has painted the rows, as a transition too, in space that does not move them; from then on they
 * render at once, like everything else.
 */

// Production builds only, as the deferred tooltips (vite.config.mts): in development and in the unit tests everything
// renders at once. The browser tests run the build.
let painted = !import.meta.env.PROD;
const waiting = new Set<() => void>();

/** Calls `callback` once the browser has painted the app (or has had half a second to), and from then on at once. */
function afterFirstPaint(callback: () => void): () => void {
  if (painted) {
    callback();
    return () => undefined;
  }
  if (!waiting.size) {
    const done = () => {
      if (painted) return;
      painted = true;
      for (const waiter of waiting) waiter();
      waiting.clear();
    };
    // The frame after the first commit has been drawn once its animation-frame callbacks end; a hidden page draws
    // no frames, hence the timeout.
    requestAnimationFrame(() => setTimeout(done, 0));
    setTimeout(done, 500);
  }
  waiting.add(callback);
  return () => waiting.delete(callback);
}

/** Whether the app has been painted once; the component renders again when it has. */
export function usePainted(): boolean {
  const [ready, setReady] = useState(painted);
  useEffect(() => (ready ? undefined : afterFirstPaint(() => startTransition(() => setReady(true)))), [ready]);
  return ready;
}

/** `children` once the app has been painted, nothing until then. */
export function AfterFirstPaint({ children }: { children: ReactNode }) {
  return usePainted() ? children : null;
}

/**
 * A module the first screen does not draw (a dialog, say), kept out of its code: fetched once the app has been painted,
 * so that it is there by the time anyone opens what it draws, or at once by whatever draws it sooner. Its components
 * are React.lazy ones, drawn inside a Suspense boundary.
 */
export function afterFirstPaintModule<M>(load: () => Promise<M>) {
  let loading: Promise<M> | undefined;
  const get = () =>
    (loading ??= load().catch((error: unknown) => {
      // A failed fetch (the network, a deploy in between) is tried again by the next one who asks.
      loading = undefined;
      throw error;
    }));
  return {
    /** One of the module's components. */
    component: <P extends object>(pick: (module: M) => ComponentType<P>) =>
      lazy(() => get().then((module) => ({ default: pick(module) }))),
    /** Fetches the module once the app has been painted. */
    usePreload: () => {
      const painted = usePainted();
      useEffect(() => {
        if (painted) get().catch(() => undefined);
      }, [painted]);
    },
  };
}
