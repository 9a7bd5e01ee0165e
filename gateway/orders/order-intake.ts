import { createHash } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { ApiError } from '../errors';
import type { JobQueue } from '../queue/queue';
import {
  clientResource,
  missingConnection,
  notConnectedMessage,
  storeConnectionOf,
  isConnected,
} from '../clients/client.resource';
import { entityFor } from '../kit/entity';
import { storeClient, type RecordDelivery } from '../clients/store-connection';
import type { NuvemshopClient, NuvemshopStoreClient } from '../platforms/nuvemshop.client';
import { upsertOrder } from './order-rows';
import { orderNotes, webhookNotes } from '../../schema/staff-notes';

/** The order events registered beside the app's own, for clients with orders on. */
export const ORDER_EVENTS = ['order/created', 'order/paid', 'order/updated', 'order/cancelled'] as const;
export type OrderEventName = (typeof ORDER_EVENTS)[number];
export const isOrderEvent = (event: string): event is OrderEventName =>
  (ORDER_EVENTS as readonly string[]).includes(event);

/** The sweep reads back this far before its last one, for orders whose update landed while it ran. */
const SWEEP_OVERLAP_MS = 5 * 60 * 1000;

/**
 * An order webhook, recorded with its order's row in the transaction `em` is in, and the order's job queued in it:
 * nothing is lost between the answer and the work, and a repeated or late delivery meets the same row. The client is
 * read, never locked, so the answer does not wait on a synchronisation. `record`
 * is handed the verdict (the webhook service keeps it as the delivery's row, unless it is a repeat or past the day's
 * cap); the job is queued either way.
 */
export async function recordOrderWebhook(
  em: EntityManager,
  jobs: JobQueue,
  delivery: { storeId: number; orderId: number; event: OrderEventName; record: RecordDelivery },
): Promise<void> {
  const client = await storeClient(em, delivery.storeId);
  const verdict = !client
    ? ({ outcome: 'ignored', note: webhookNotes.no_client } as const)
    : !client.ordersEnabled
      ? ({ outcome: 'ignored', note: webhookNotes.orders_off } as const)
      : ({ outcome: 'handled', note: webhookNotes.order_queued(delivery.orderId) } as const);
  await delivery.record({ clientId: client?.id ?? null, ...verdict });
  if (verdict.outcome !== 'handled') return;
  const order = await upsertOrder(em, client!.id, delivery.orderId, orderNotes.received_by_webhook(delivery.event));
  // An order of a store with several locations has a row per shipment: each is brought up to date.
  for (const row of order.rows) await jobs.send('order', { orderId: row.id }, { em, singletonKey: row.id });
}

/**
 * The safety net under the webhooks: each client with orders on is asked for the orders updated since its last sweep,
 * and every one found meets its row (made if missing) and its job. Also where order webhooks are registered.
 */
export class OrderSweep {
  private readonly webhookUrl: string;

  constructor(
    private readonly orm: MikroORM,
    private readonly jobs: JobQueue,
    private readonly nuvemshop: NuvemshopClient,
    config: Pick<Config, 'PUBLIC_URL'>,
    private readonly log: Logger,
  ) {
    this.webhookUrl = `${config.PUBLIC_URL.replace(/\/+$/, '')}/api/v1/webhooks/nuvemshop`;
  }

  /** Staff ask for a sweep now: 202, or 409 naming what the client lacks to be swept, as a sync's refusal does. */
  async request(clientId: string): Promise<{ message: string }> {
    const client = await this.orm.em.fork().findOne(entityFor(clientResource), { id: clientId });
    if (!client) throw new ApiError(404, clientResource.messages.notFound);
    if (!isConnected(client)) throw new ApiError(409, notConnectedMessage(missingConnection(client)));
    await this.jobs.send('orders-sweep', { clientId }, { singletonKey: clientId });
    return { message: 'Sweep queued' };
  }

  /** Queues a sweep of every connected client with orders on. */
  async queueAll(): Promise<Record<string, unknown>> {
    const clients = await this.orm.em.fork().find(entityFor(clientResource), { ordersEnabled: true });
    let queued = 0;
    for (const client of clients.filter(isConnected)) {
      await this.jobs.send('orders-sweep', { clientId: String(client.id) }, { singletonKey: String(client.id) });
      queued++;
    }
    return { queued };
  }

  /** One client's sweep: webhooks registered if need be, then the orders updated since the last sweep. */
  async sweep(clientId: string): Promise<Record<string, unknown>> {
    const em = this.orm.em.fork();
    const client = await em.findOne(entityFor(clientResource), { id: clientId });
    if (!client || !isConnected(client) || !client.ordersEnabled || !client.ordersEnabledAt) {
      return { skipped: 'orders are off or the client is not connected' };
    }
    const connection = storeConnectionOf(client);
    const store = this.nuvemshop.store(connection.storeId, connection.storeToken!);
    const registered = await this.ensureWebhooks(clientId, store, connection.storeToken!, false);
    const [state] = (await em.execute(`select swept_until from order_clients where client_id = ?`, [clientId])) as {
      swept_until: Date | null;
    }[];
    const enabledAt = new Date(client.ordersEnabledAt);
    const since = state?.swept_until ? new Date(state.swept_until) : enabledAt;
    // The first sweep starts when orders were turned on; later ones a little before the last one ended.
    const from = new Date(Math.max(enabledAt.getTime() - 1000, since.getTime() - SWEEP_OVERLAP_MS));
    const to = new Date();
    let seen = 0;
    let queued = 0;
    const met = new Set<number>();
    for await (const page of store.ordersUpdated(from, to)) {
      for (const order of page) {
        if (met.has(order.id)) continue;
        met.add(order.id);
        seen++;
        const placed = Date.parse(String(order.created_at).replace(/\+0000$/, 'Z'));
        if (placed < Math.floor(enabledAt.getTime() / 1000) * 1000) continue;
        await em.transactional(async (tx) => {
          const found = await upsertOrder(tx, clientId, order.id, orderNotes.found_by_sweep);
          // An order waiting (received, held) is looked at again; one sent is looked at when the store cancelled it.
          // Each of its rows (one per shipment in a store with several locations) on its own.
          const cancelled =
            order.status === 'cancelled' || order.payment_status === 'voided' || order.payment_status === 'refunded';
          const refunded = order.payment_status === 'voided' || order.payment_status === 'refunded';
          for (const row of found.rows) {
            if (
              found.created ||
              row.state === 'received' ||
              row.state === 'held' ||
              (cancelled && (row.state === 'sent' || row.state === 'processed')) ||
              // Paid again after a cancellation: the job shows it to staff.
              (!cancelled &&
                row.state === 'cancelled' &&
                (order.payment_status === 'paid' || order.payment_status === 'authorized')) ||
              (refunded && (row.state === 'invoiced' || row.state === 'shipped'))
            ) {
              await this.jobs.send('order', { orderId: row.id }, { em: tx, singletonKey: row.id });
              queued++;
            }
          }
        });
      }
    }
    await em.execute(`update order_clients set swept_until = ? where client_id = ?`, [to, clientId]);
    this.log.info({ client: clientId, seen, queued }, 'orders swept');
    return { seen, queued, registered, from: from.toISOString(), to: to.toISOString() };
  }

  /**
   * Orders were just turned on: the order events the store lacks are registered now, not at its first sweep (the
   * store's list is read whatever was registered before, so a webhook deleted meanwhile comes back).
   */
  async registerWebhooks(clientId: string): Promise<Record<string, unknown>> {
    const client = await this.orm.em.fork().findOne(entityFor(clientResource), { id: clientId });
    if (!client || !isConnected(client) || !client.ordersEnabled) {
      return { skipped: 'orders are off or the client is not connected' };
    }
    const connection = storeConnectionOf(client);
    const store = this.nuvemshop.store(connection.storeId, connection.storeToken!);
    return { registered: await this.ensureWebhooks(clientId, store, connection.storeToken!, true) };
  }

  /**
   * The order events registered at PUBLIC_URL, once per store token (a new install deletes the app's webhooks at
   * Nuvemshop's side and brings a new token) unless `always`: listed first, so none twice. The client's row of
   * `order_clients` is locked meanwhile, so a sweep and orders turned on at once never both create them.
   */
  private ensureWebhooks(
    clientId: string,
    store: NuvemshopStoreClient,
    token: string,
    always: boolean,
  ): Promise<string[]> {
    const mark = createHash('sha256').update(`${token} ${this.webhookUrl}`).digest('hex');
    return this.orm.em.fork().transactional(async (em) => {
      await em.execute(`insert into order_clients (client_id) values (?) on conflict do nothing`, [clientId]);
      const [state] = (await em.execute(`select webhooks_for from order_clients where client_id = ? for update`, [
        clientId,
      ])) as { webhooks_for: string | null }[];
      if (!always && state?.webhooks_for === mark) return [];
      const registered = await registerOrderWebhooks(store, this.webhookUrl);
      await em.execute(`update order_clients set webhooks_for = ? where client_id = ?`, [mark, clientId]);
      return registered;
    });
  }
}

/** Registers the order events at `url` that the store does not have yet; answers those registered. */
export async function registerOrderWebhooks(store: NuvemshopStoreClient, url: string): Promise<string[]> {
  const existing = await store.listWebhooks();
  const registered: string[] = [];
  for (const event of ORDER_EVENTS) {
    if (existing.some((webhook) => webhook.event === event && webhook.url === url)) continue;
    await store.createWebhook({ event, url });
    registered.push(event);
  }
  return registered;
}
