import { z } from 'zod';
import { SYNC_KINDS } from './sync-run.resource';

/** `POST /clients/{id}/sync`: which run (a catalogue run unless told). */
export const SyncRequest = z.object({ kind: z.enum(SYNC_KINDS).default('catalogue') }).meta({ id: 'SyncRequest' });
