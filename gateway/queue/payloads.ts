/**
 * Every queue and the data its jobs carry. A job's data is stored in PostgreSQL (pg-boss's `job` table) until it is
 * archived and deleted, and shown to superusers: it holds addresses and ids, never a password, token or mail body.
 * Work the product adds later (store synchronisation, say) adds its queue here and its definition in gateway/jobs/workers.ts.
 */
/**
 * Where a run's next step starts. A client with locations reads its locations' own accounts first (`locations`: the
 * location being read, `from` its cursor), then the catalogue's account (`catalogue`, the default: Hiper's position
 * `from`, the stored cursor unless given, `skip` products of that page already written), then writes the levels left
 * (`rest`: checking every product, `part: 'sweep'`, after a product id, or the changed SKUs after a SKU).
 */
export interface SyncPosition {
  stage?: 'locations' | 'catalogue' | 'rest';
  from?: number;
  skip?: number;
  location?: string;
  part?: 'sweep' | 'changed';
  after?: string;
}

export interface JobPayloads {
  /** One email to one person, rendered and sent by the worker. */
  mail: MailJob;
  /** Deletes expired rate-limit counters and old authorization codes; runs on a schedule. */
  'prune-tables': Record<string, never>;
  /**
   * One step of a store synchronisation run, from where the last one stopped (`SyncPosition`). A step tried again
   * because a platform could not be reached carries its `attempt` (2 onwards) and when the first failed; one tried
   * again after a failure of its own, what makes that failure the same (`failure`).
   */
  sync: { runId: string; attempt?: number; failingSince?: string; failure?: string } & SyncPosition;
  /** Queue a run of their kind for every connected client. */
  'sync-catalogue-schedule': Record<string, never>;
  'sync-stock-schedule': Record<string, never>;
  'sync-full-schedule': Record<string, never>;
  /** Queue a reconciliation (a run of kind `reconcile`) for every connected client. */
  reconcile: Record<string, never>;
  /** Ask every suspended client's store whether it works again. */
  'sync-suspended-check': Record<string, never>;
  /** A webhook Nuvemshop delivered, recorded in `webhook_events`, to act on. */
  webhook: { id: string };
  /** A client was archived: the app's webhooks for its store are deleted at Nuvemshop (one job per client at a time). */
  'client-archived': { clientId: string };
  /**
   * A client's store locations read into its rows: asked by staff ("Ler estoques da loja", which also registers the
   * location webhooks), or by a location webhook (one queued per client and trigger at a time).
   */
  'locations-read': { clientId: string; trigger: 'staff' | 'webhook' };
  /** After an app install: the store's record read, the app's webhooks registered. */
  'store-install': { storeId: number };
  /** One store order: read from the store, mapped, and sent to Hiper once (one job queued per order at a time). */
  order: { orderId: string };
  /** A client's orders were turned on: the order webhooks its store lacks are registered (one job per client at a time). */
  'orders-webhooks': { clientId: string };
  /** One client's sweep: its store's orders updated since the last one. */
  'orders-sweep': { clientId: string };
  /** Queue a sweep for every client with orders on. */
  'orders-sweep-schedule': Record<string, never>;
  /** Orders left `sending` by a process that died become `uncertain`. */
  'orders-watch': Record<string, never>;
  /** Hiper's events read for every order sent and not finished. */
  'orders-status': Record<string, never>;
  /** Every client's health worked out again, and the alerts it calls for queued; runs on a schedule. */
  'client-health': Record<string, never>;
  /** The daily digest of every client not "Em dia", one mail per user who receives alerts. */
  'health-digest': Record<string, never>;
  /** An alert, a recovery or the digest posted to ALERT_WEBHOOK_URL, signed; the body is made when it is sent. */
  'alert-webhook': { event: 'alert' | 'recovered' | 'digest'; clientId?: string; codes?: string[] };
}

export type QueueName = keyof JobPayloads;

/** `email` is always the recipient, so a list of mail jobs can show it without knowing each kind. */
export type MailJob =
  /** A password recovery link for `email`, if it belongs to an active account (the worker looks it up). */
  | { kind: 'password-recovery'; email: string }
  /** Welcome to an account a superuser created, with the login address. */
  | { kind: 'new-account'; email: string }
  /** Sent to the address an account had before its email was changed to `newEmail`. */
  | { kind: 'email-changed'; email: string; newEmail: string }
  /** A client's health calls for a person (`codes`: the reasons alerted), to a user who receives alerts. */
  | { kind: 'health-alert'; email: string; clientId: string; codes: string[] }
  /** A client alerted about is back below the alert level. */
  | { kind: 'health-recovered'; email: string; clientId: string }
  /** The daily digest of every client not "Em dia". */
  | { kind: 'health-digest'; email: string };

export type MailKind = MailJob['kind'];
