import { QueryClient } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { prefetchesSettled, seedListPages } from './dataProvider/load';
import { listScreensLoaded } from './lists';

/**
 * How long the app's first render waits for a list page the start has asked for (preload.ts) and not yet received.
 * An answer a moment away is worth waiting for: the screen then appears with its rows, instead of placeholder rows
 * drawn and replaced at once (a whole second render). A slower answer gets the placeholders.
 */
const FIRST_PAGE_WAIT_MS = 300;

const queryClient = new QueryClient();

function render() {
  // The list page the start already has: the list's first pass shows its rows (load.ts).
  seedListPages(queryClient);
  const root = createRoot(document.getElementById('root')!);
  // As a transition, React renders the app in slices of a few milliseconds, between which the browser can answer
  // input and paint: the first render of a whole screen (frame, list, rows) is no single long task.
  startTransition(() =>
    root.render(
      <StrictMode>
        <App queryClient={queryClient} />
      </StrictMode>,
    ),
  );
}

// The opened list screen's code (asked for by the start script with the app's: preload.ts) is waited for as well: the
// app cannot draw that screen without it, and would otherwise draw the frame first and the list a turn later.
void Promise.all([
  Promise.race([prefetchesSettled(), new Promise((resolve) => setTimeout(resolve, FIRST_PAGE_WAIT_MS))]),
  listScreensLoaded(),
]).then(render);
