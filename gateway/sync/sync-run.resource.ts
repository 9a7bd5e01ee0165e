import type { SyncErrorCode } from '../platforms/platform-call';
import { datetime, id, int, json, reference, state } from '../kit/field';
import { Resource } from '../kit/resource';
import type { PublicOf } from '../kit/field';
import type { EntityOf } from '../kit/entity';

export const SYNC_KINDS = ['catalogue', 'stock', 'full', 'reconcile'] as const;
export const SYNC_TRIGGERS = ['schedule', 'manual', 'webhook'] as const;
export const SYNC_RUN_STATES = ['queued', 'running', 'succeeded', 'partial', 'failed'] as const;

export type SyncKind = (typeof SYNC_KINDS)[number];
export type SyncTrigger = (typeof SYNC_TRIGGERS)[number];
export type SyncRunState = (typeof SYNC_RUN_STATES)[number];

/** How many product errors a run keeps: the first ones, enough to see what went wrong. */
export const MAX_RUN_ERRORS = 50;

/**
 * One error a run keeps: the Hiper product (empty for the run's own), its SKU, a stable English `message`, its `code`,
 * and in `detail` the platform's own words when it gave any.
 */
export interface SyncRunError {
  hiper_id: string;
  sku: string | null;
  message: string;
  code: SyncErrorCode;
  detail?: string;
  /** The location's name, for an error of one location (a SKU its Hiper account does not know). */
  location?: string;
}

/** While a step waits to try a platform again: why (as an error says it), the next attempt, and when it comes. */
export interface SyncRunWaiting {
  code: SyncErrorCode;
  message: string;
  /** The attempt to come (2 onwards) of `attempts`. */
  attempt: number;
  attempts: number;
  /** ISO 8601 UTC. */
  retry_at: string;
}

const count = (description: string) =>
  int({ min: 0, max: 2 ** 31 - 1, default: 0, readOnly: true, listed: true, description });

/** One synchronisation of one client, Hiper → Nuvemshop: what started it, how it went, and its counts. */
export const syncRunResource = new Resource(
  'SyncRun',
  {
    id: id(),
    client_id: reference('client', 'Client', { readOnly: true, filterable: true, listed: true, onDelete: 'restrict' }),
    kind: state(SYNC_KINDS, {
      readOnly: true,
      listed: true,
      description: 'catalogue, stock, full (from cursor 0) or reconcile (the store compared with Hiper)',
      tones: { catalogue: 'neutral', stock: 'neutral', full: 'neutral', reconcile: 'neutral' },
    }),
    trigger: state(SYNC_TRIGGERS, {
      readOnly: true,
      description: 'What queued it',
      tones: { schedule: 'neutral', manual: 'neutral', webhook: 'neutral' },
    }),
    state: state(SYNC_RUN_STATES, {
      default: 'queued',
      readOnly: true,
      listed: true,
      filterable: true,
      tones: { queued: 'neutral', running: 'info', succeeded: 'success', partial: 'warning', failed: 'error' },
    }),
    queued_at: datetime({ readOnly: true, listed: true, sortable: true }),
    started_at: datetime({ nullable: true, readOnly: true }),
    finished_at: datetime({ nullable: true, readOnly: true, listed: true }),
    created: count('Products created in the store'),
    updated: count('Products changed in the store'),
    unchanged: count('Products read with nothing to write'),
    failed: count('Products that could not be written'),
    requests: int({ min: 0, max: 2 ** 31 - 1, default: 0, readOnly: true, description: 'Calls made to Nuvemshop' }),
    errors: json({
      readOnly: true,
      listed: true,
      description: 'The first 50 errors: [{hiper_id, sku, message, code, detail?, location?}]',
    }),
    waiting: json({
      nullable: true,
      readOnly: true,
      listed: true,
      description:
        'While a step waits to try a platform again: {code, message, attempt, attempts, retry_at}; null otherwise',
    }),
  },
  {
    operations: ['list', 'get'],
    screen: 'sincronizacoes',
    title: 'kind',
    menu: 15,
    icon: 'List',
    description: 'One synchronisation of a client, Hiper → Nuvemshop, newest first',
  },
);

export type SyncRunPublic = PublicOf<typeof syncRunResource.fields>;
/** A run as the ORM holds it. */
export type SyncRunEntity = EntityOf<typeof syncRunResource>;
