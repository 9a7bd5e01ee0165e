import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadAllLabels } from './src/labels';

// Every resource's texts, as the app has them once its sidebar is drawn.
await loadAllLabels();

afterEach(() => {
  cleanup();
  localStorage.clear();
});
