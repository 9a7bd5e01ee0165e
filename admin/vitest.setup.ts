import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadAllLabels } from './src/labels';

// A screen drawn by react-admin takes its lazily loaded parts and a few renders to show its rows: on a machine busy
// with other work that can take longer than Testing Library's 1 s default for `findBy…`, with nothing wrong.
configure({ asyncUtilTimeout: 5000 });

// Every resource's texts, as the app has them once its sidebar is drawn.
await loadAllLabels();

afterEach(() => {
  cleanup();
  localStorage.clear();
});
