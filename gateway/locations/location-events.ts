import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../queue/queue';
import { storeClient, type RecordDelivery } from '../clients/store-connection';
import type { NuvemshopStoreClient } from '../platforms/nuvemshop.client';
import { webhookNotes } from '../../schema/staff-notes';

/**
 * The store's location events, registered beside the app's own when the store grants `read_locations`: each is only a
 * reason to read the store's locations again (the body names a location, never its state).
 */
export const LOCATION_EVENTS = ['location/created', 'location/updated', 'location/deleted'] as const;
export type LocationEventName = (typeof LOCATION_EVENTS)[number];
export const isLocationEvent = (event: string): event is LocationEventName =>
  (LOCATION_EVENTS as readonly string[]).includes(event);

/**
 * A location webhook, in the transaction `em` is in: recorded `recorded` (its read marks it handled), and a read of
 * the client's locations queued, one at a time per client. The client is read, never locked, so the answer does not
 * wait on a synchronisation. `record` is handed the verdict (the webhook service keeps it as the delivery's row, unless
 * it is a repeat or past the day's cap); the read is queued either way, and covers it (it reads the store as it is
 * when it runs).
 */
export async function recordLocationWebhook(
  em: EntityManager,
  jobs: JobQueue,
  delivery: { storeId: number; record: RecordDelivery },
): Promise<void> {
  const client = await storeClient(em, delivery.storeId);
  await delivery.record(
    client
      ? { clientId: client.id, outcome: 'recorded', note: null }
      : { clientId: null, outcome: 'ignored', note: webhookNotes.no_client },
  );
  if (client)
    await jobs.send(
      'locations-read',
      { clientId: client.id, trigger: 'webhook' },
      { em, singletonKey: `${client.id} webhook` },
    );
}

/** Registers the location events at `url` that the store does not have yet; answers those registered. */
export async function registerLocationWebhooks(store: NuvemshopStoreClient, url: string): Promise<string[]> {
  const existing = await store.listWebhooks();
  const registered: string[] = [];
  for (const event of LOCATION_EVENTS) {
    if (existing.some((webhook) => webhook.event === event && webhook.url === url)) continue;
    await store.createWebhook({ event, url });
    registered.push(event);
  }
  return registered;
}
