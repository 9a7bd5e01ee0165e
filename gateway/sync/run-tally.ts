import type { SyncRunError } from './sync-run.resource';

/** Per-job tallies, added to the run's counts as products are written. */
export interface Tally {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  errors: SyncRunError[];
}

export const emptyTally = (): Tally => ({ created: 0, updated: 0, unchanged: 0, failed: 0, errors: [] });
