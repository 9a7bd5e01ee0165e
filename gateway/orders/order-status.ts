import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { clientResource, storeConnectionOf, type ClientEntity, isConnected } from '../clients/client.resource';
import { entityFor } from '../kit/entity';
import { type NuvemshopClient, type NuvemshopStoreClient } from '../platforms/nuvemshop.client';
import { NuvemshopRefused, PermissionMissing } from '../platforms/nuvemshop.errors';
import { permissionMissingText } from '../platforms/nuvemshop-scopes';
import { PlatformError } from '../platforms/platform-call';
import { hiperOrderPath, isHiperOrderId, notAHiperOrderId } from './hiper-order-id';
import { moveOrder } from './order-rows';
import { accountOfRow, hiperOf } from './shipment-accounts';
import { rowsOfOrder } from './shipment-rows';
import { orderNotes } from '../../schema/staff-notes';

/** One event of a Hiper sales order. */
interface HiperEvent {
  chaveDocumentoFiscal?: string | null;
  codigoDoTipoDeEvento?: number;
  observacao?: string | null;
  urlArquivoXml?: string | null;
}

/** The invoices of an NF-e `list` metafield's value (a JSON array), whoever wrote it; nothing readable: none. */
function invoicesOf(value: unknown): { key?: unknown; link?: unknown; fulfillment_order_id?: unknown }[] {
  try {
    const parsed: unknown = JSON.parse(String(value));
    return Array.isArray(parsed) ? parsed.filter((entry) => entry && typeof entry === 'object') : [];
  } catch {
    return [];
  }
}

/** `pedido-de-venda/eventos/{id}`: where a sales order stands in Hiper. */
interface HiperOrderStatus {
  cancelado?: boolean;
  codigoDaSituacaoDeProcessamento?: number;
  codigoDoPedidoDeVenda?: string | null;
  eventos?: HiperEvent[] | null;
  message?: string | null;
}

const NFE_ISSUED = 3;
const HANDED_TO_CARRIER = 4;
const CANCELLED = 99;
const PROCESSED = 2;
const PROCESSED_WITH_ERROR = 3;

/** Orders read at once by one process. */
const AT_ONCE = 4;
/** Orders of one client read by one poll, those read longest ago first: one client's thousands delay no other. */
const PER_CLIENT = 50;
/** How long after it was sent an order's events are read. */
const WATCHED_DAYS = 30;
export const NO_LONGER_WATCHED = orderNotes.no_longer_watched(WATCHED_DAYS);

interface Watched {
  id: string;
  client_id: string;
  nuvemshop_order_id: string;
  state: 'sent' | 'processed' | 'invoiced' | 'cancelled';
  hiper_order_id: string;
  hiper_code: string | null;
  nfe_key: string | null;
  fulfil_refused_at: Date | null;
  last_error: string | null;
  /** The shipment it is (a store with several locations), and our row of its location. */
  fulfillment_order_id: string | null;
  location_id: string | null;
}

/**
 * Hiper back to the store: every order sent and not finished has its events read; the NF-e is written to the order as
 * metafields in both documented forms (`invoiced`), the hand-over to the carrier fulfils it (per fulfillment order
 * where the store has several locations, `shipped`), Hiper's cancellation cancels it in the store when the client
 * wants it, and situation 3 makes it `rejected`.
 */
export class OrderStatus {
  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
    private readonly nuvemshop: NuvemshopClient,
    private readonly log: Logger,
  ) {}

  async poll(): Promise<Record<string, unknown>> {
    const em = this.orm.em.fork();
    // Past WATCHED_DAYS an order is left, and says so.
    await em.execute(
      `update orders set last_error = ?, updated_at = now(),
          history = history || jsonb_build_array(jsonb_build_object('at', now(), 'state', state::text, 'note', ?::text))
        where (state in ('sent', 'processed', 'invoiced') or cancel_requested_at is not null)
          and sent_at < now() - make_interval(days => ?) and last_error is distinct from ?`,
      [NO_LONGER_WATCHED, NO_LONGER_WATCHED, WATCHED_DAYS, NO_LONGER_WATCHED],
    );
    // Sent and not finished (or cancelled at our request, until Hiper confirms it), read at most WATCHED_DAYS after
    // the send, PER_CLIENT of each client a poll, those read longest ago first.
    const watched = (await em.execute(
      `select id, client_id, nuvemshop_order_id, state, hiper_order_id, hiper_code, nfe_key, fulfil_refused_at, last_error,
              fulfillment_order_id, location_id
         from (select o.*, row_number() over (partition by client_id order by status_read_at nulls first, sent_at) as turn
                 from orders o
                where (state in ('sent', 'processed', 'invoiced') or (state = 'cancelled' and cancel_requested_at is not null))
                  and hiper_order_id is not null and sent_at >= now() - make_interval(days => ?)) as w
        where turn <= ? order by status_read_at nulls first, sent_at`,
      [WATCHED_DAYS, PER_CLIENT],
    )) as Watched[];
    const clients = new Map<string, ClientEntity | null>();
    const limit = pLimit(AT_ONCE);
    const outcome: Record<string, number> = { read: 0, failed: 0 };
    // The shipments of one store order one after another: they write to the same order (its one NF-e list).
    const byStoreOrder = new Map<string, Watched[]>();
    for (const order of watched) {
      const key = `${order.client_id} ${order.nuvemshop_order_id}`;
      byStoreOrder.set(key, [...(byStoreOrder.get(key) ?? []), order]);
    }
    await Promise.all(
      [...byStoreOrder.values()].map((rows) =>
        limit(async () => {
          for (const order of rows) {
            if (!clients.has(order.client_id)) {
              clients.set(order.client_id, await em.fork().findOne(entityFor(clientResource), { id: order.client_id }));
            }
            const client = clients.get(order.client_id);
            if (!client || !isConnected(client)) return;
            try {
              await moveOrder(em.fork(), order.id, { status_read_at: new Date() });
              await this.follow(em.fork(), order, client);
              outcome.read++;
            } catch (error) {
              // Read again at the next poll.
              outcome.failed++;
              this.log.warn({ order: order.id, err: { message: (error as Error).message } }, 'order status not read');
            }
          }
        }),
      ),
    );
    return outcome;
  }

  private async follow(em: EntityManager, order: Watched, client: ClientEntity): Promise<void> {
    if (!isHiperOrderId(order.hiper_order_id)) {
      // Kept from before ids were checked: never put in a path (`..` would read another of Hiper's addresses).
      const why = notAHiperOrderId(order.hiper_order_id);
      if (order.last_error !== why) await moveOrder(em, order.id, { last_error: why }, why);
      return;
    }
    const connection = storeConnectionOf(client);
    // A shipment's sales order is in the Hiper account of its location.
    const hiper = hiperOf(this.orm, this.config, await accountOfRow(em, order, connection.hiperKey!));
    const { status, body } = await hiper.authorized(
      'GET',
      hiperOrderPath('/pedido-de-venda/eventos/', order.hiper_order_id),
    );
    if (status < 200 || status >= 300) throw new PlatformError(`Hiper answered HTTP ${status}`, status >= 500);
    const said = (body ?? {}) as HiperOrderStatus;
    const events = Array.isArray(said.eventos) ? said.eventos : [];
    if (!order.hiper_code && said.codigoDoPedidoDeVenda) {
      await moveOrder(em, order.id, { hiper_code: said.codigoDoPedidoDeVenda, hiper_events_seen: events.length });
    }
    const store = this.nuvemshop.store(connection.storeId, connection.storeToken!);
    const orderId = Number(order.nuvemshop_order_id);

    if (order.state === 'cancelled') return this.confirmCancel(em, order, said, events);
    if (said.cancelado || events.some((e) => e.codigoDoTipoDeEvento === CANCELLED)) {
      if (order.fulfillment_order_id) return this.cancelledShipment(em, store, order, client);
      if (client.ordersCancelInStore) await cancelInStore(store, orderId);
      await moveOrder(
        em,
        order.id,
        { state: 'cancelled' },
        client.ordersCancelInStore ? orderNotes.cancelled_in_hiper_and_store : orderNotes.cancelled_in_hiper,
        ['sent', 'processed', 'invoiced'],
      );
      return;
    }
    if (said.codigoDaSituacaoDeProcessamento === PROCESSED_WITH_ERROR) {
      const reason =
        (typeof said.message === 'string' && said.message) ||
        events
          .map((e) => e.observacao)
          .filter(Boolean)
          .at(-1) ||
        orderNotes.processed_with_error;
      await moveOrder(em, order.id, { state: 'rejected', last_error: reason }, reason, ['sent', 'processed']);
      return;
    }
    let state = order.state;
    if (state === 'sent' && said.codigoDaSituacaoDeProcessamento === PROCESSED) {
      await moveOrder(em, order.id, { state: 'processed' }, orderNotes.processed, ['sent']);
      state = 'processed';
    }
    const invoice = events.find((e) => e.codigoDoTipoDeEvento === NFE_ISSUED && e.chaveDocumentoFiscal);
    if (invoice && !order.nfe_key && state !== 'invoiced') {
      await this.writeInvoice(
        store,
        orderId,
        invoice.chaveDocumentoFiscal!,
        invoice.urlArquivoXml ?? null,
        order.fulfillment_order_id,
      );
      await moveOrder(
        em,
        order.id,
        { state: 'invoiced', nfe_key: invoice.chaveDocumentoFiscal },
        orderNotes.invoice_written(invoice.chaveDocumentoFiscal!),
        ['sent', 'processed'],
      );
    }
    if (events.some((e) => e.codigoDoTipoDeEvento === HANDED_TO_CARRIER) && !order.fulfil_refused_at) {
      const refusal = order.fulfillment_order_id
        ? await this.dispatch(store, orderId, order.fulfillment_order_id)
        : await this.fulfil(store, orderId);
      if (refusal) {
        // The store will say the same next time: left as it is for a person, and not asked again.
        await moveOrder(em, order.id, { last_error: refusal, fulfil_refused_at: new Date() }, refusal);
        return;
      }
      await moveOrder(em, order.id, { state: 'shipped' }, orderNotes.shipped, ['sent', 'processed', 'invoiced']);
    }
  }

  /**
   * One shipment's sales order cancelled in Hiper: the shipment is cancelled; the store order only when the client wants
   * it and every shipment of the order is cancelled (the last one to be, whichever that is, sees the others cancelled).
   */
  private async cancelledShipment(
    em: EntityManager,
    store: NuvemshopStoreClient,
    order: Watched,
    client: ClientEntity,
  ) {
    const moved = await moveOrder(em, order.id, { state: 'cancelled' }, orderNotes.cancelled_in_hiper, [
      'sent',
      'processed',
      'invoiced',
    ]);
    if (!moved || !client.ordersCancelInStore) return;
    const rows = await rowsOfOrder(em, order.client_id, order.nuvemshop_order_id);
    if (!rows.every((row) => row.state === 'cancelled')) {
      await moveOrder(em, order.id, {}, orderNotes.cancelled_in_hiper_one_shipment);
      return;
    }
    await cancelInStore(store, Number(order.nuvemshop_order_id));
    await moveOrder(em, order.id, {}, orderNotes.cancelled_in_hiper_every_shipment);
  }

  /**
   * One shipment handed to the carrier: its fulfillment order dispatched, the buyer notified (a field of
   * `tracking_info`). Answers the store's refusal, as staff read it, as `fulfil` does.
   */
  private async dispatch(store: NuvemshopStoreClient, orderId: number, fulfillmentOrderId: string) {
    try {
      await store.updateFulfillmentOrder(orderId, fulfillmentOrderId, {
        status: 'DISPATCHED',
        tracking_info: { code: null, url: null, notify_customer: true },
      });
    } catch (error) {
      if (error instanceof PermissionMissing) return notDispatched(error);
      if (!(error instanceof PlatformError) || ![400, 422].includes(error.status ?? 0)) throw error;
      const said = error instanceof NuvemshopRefused ? error.detail : undefined;
      return `${NOT_DISPATCHED}: ${fulfillmentOrderId}: HTTP ${error.status}${said ? ` ${said}` : ''}`.slice(0, 2000);
    }
    return undefined;
  }

  /**
   * An order cancelled at our request: Hiper's event 99 (or `cancelado`) confirms it and ends the watch; an NF-e or a
   * hand-over Hiper reports instead is put before staff, since the goods may be on their way.
   */
  private async confirmCancel(em: EntityManager, order: Watched, said: HiperOrderStatus, events: HiperEvent[]) {
    if (said.cancelado || events.some((e) => e.codigoDoTipoDeEvento === CANCELLED)) {
      await moveOrder(em, order.id, { cancel_requested_at: null }, orderNotes.cancel_confirmed);
      return;
    }
    const invoice = events.find((e) => e.codigoDoTipoDeEvento === NFE_ISSUED && e.chaveDocumentoFiscal);
    const handed = events.some((e) => e.codigoDoTipoDeEvento === HANDED_TO_CARRIER);
    if (!invoice && !handed) return;
    const why = handed
      ? orderNotes.cancel_after_shipping
      : orderNotes.cancel_after_invoice(invoice!.chaveDocumentoFiscal!);
    await moveOrder(em, order.id, { last_error: why, cancel_requested_at: null }, why);
  }

  /**
   * The NF-e in both documented forms: keys `key` and `link`, and key `list` (one entry per fulfillment order). Each
   * `POST /metafields` makes a new metafield, so those of this NF-e already on the order (a pass that died before the
   * key was saved wrote them) are read first, and only the missing ones written. A shipment's NF-e is its own entry
   * `{key, link, fulfillment_order_id}` appended to the order's one list, and, as readers of `key` and `link` take
   * one of each, written to those only when the order has none yet (the first shipment invoiced).
   */
  private async writeInvoice(
    store: NuvemshopStoreClient,
    orderId: number,
    key: string,
    link: string | null,
    shipment: string | null,
  ) {
    const owner = { owner_resource: 'Order' as const, owner_id: orderId, namespace: 'nfe' };
    const present = await store.listOrderMetafields(orderId, 'nfe');
    const has = (name: string, holds: (value: string) => boolean) =>
      present.some((m) => m.key === name && holds(String(m.value)));
    const legacy = !shipment || !present.some((m) => m.key === 'key' || m.key === 'link');
    if (legacy && !has('key', (value) => value === key)) {
      await store.createMetafield({ ...owner, key: 'key', value: key, description: 'Chave da NFe' });
    }
    if (legacy && link && !has('link', (value) => value === link)) {
      await store.createMetafield({ ...owner, key: 'link', value: link, description: 'Link da NFe' });
    }
    const lists = present.filter((m) => m.key === 'list');
    if (lists.some((m) => invoicesOf(m.value).some((entry) => entry.key === key))) return;
    const fulfillments = shipment ? [{ id: shipment }] : await store.listFulfillmentOrders(orderId).catch(() => []);
    const ours = (fulfillments.length ? fulfillments : [null]).map((fo) => ({
      key,
      link,
      ...(fo ? { fulfillment_order_id: fo.id } : {}),
    }));
    // One list per order, whoever wrote it first: ours is appended to it ("responsibility of invoice producers to
    // make sure this format is maintained").
    const [list] = lists;
    if (list) {
      await store.updateMetafield(list.id, { value: JSON.stringify([...invoicesOf(list.value), ...ours]) });
      return;
    }
    await store.createMetafield({ ...owner, key: 'list', value: JSON.stringify(ours) });
  }

  /**
   * Fulfilled in the store, the buyer notified: per fulfillment order where it has several locations (the notification
   * a field of `tracking_info`), else the order itself; a store whose locations cannot be read (no `read_locations`)
   * counts as one. Answers the store's refusal, as staff read it, when it cannot be marked so (a pickup or
   * non-shippable fulfillment order: 400; a scope missing: 403, the scope named).
   */
  private async fulfil(store: NuvemshopStoreClient, orderId: number): Promise<string | undefined> {
    const locations = await store.listLocations().catch(unlessPermission);
    if (Array.isArray(locations) && locations.length > 1) {
      const fulfillmentOrders = await store.listFulfillmentOrders(orderId).catch(unlessPermission);
      if (fulfillmentOrders instanceof PermissionMissing) return notDispatched(fulfillmentOrders);
      const refused: string[] = [];
      for (const fo of fulfillmentOrders) {
        if (['DISPATCHED', 'DELIVERED', 'CANCELLED'].includes(fo.status)) continue;
        try {
          await store.updateFulfillmentOrder(orderId, fo.id, {
            status: 'DISPATCHED',
            tracking_info: { code: null, url: null, notify_customer: true },
          });
        } catch (error) {
          // Every other fulfillment order would be refused alike.
          if (error instanceof PermissionMissing) return notDispatched(error);
          if (!(error instanceof PlatformError) || ![400, 422].includes(error.status ?? 0)) throw error;
          const said = error instanceof NuvemshopRefused ? error.detail : undefined;
          const place = fo.assigned_location?.name ? ` (${fo.assigned_location.name})` : '';
          refused.push(`${fo.id}${place}: HTTP ${error.status}${said ? ` ${said}` : ''}`);
        }
      }
      return refused.length ? `${NOT_DISPATCHED}: ${refused.join('; ')}`.slice(0, 2000) : undefined;
    }
    try {
      await store.fulfilOrder(orderId, { notify_customer: true });
    } catch (error) {
      if (error instanceof PermissionMissing) return notDispatched(error);
      if (!(error instanceof NuvemshopRefused && error.status === 422)) throw error;
    }
    return undefined;
  }
}

const NOT_DISPATCHED = orderNotes.not_dispatched;

/** The store order cancelled (`restock: true` gives each location its units back); one cancelled already is left. */
async function cancelInStore(store: NuvemshopStoreClient, orderId: number) {
  try {
    await store.cancelOrder(orderId, { reason: 'other', email: false, restock: true });
  } catch (error) {
    // Already cancelled in the store: nothing more to do there.
    if (!(error instanceof NuvemshopRefused && error.status === 422)) throw error;
  }
}

/** A refusal for a scope, as staff read it: the scope named, and how it is granted. */
const notDispatched = (refusal: PermissionMissing) =>
  `${NOT_DISPATCHED}: ${permissionMissingText([refusal.scope ?? 'desconhecida'])} (reinstale o app na loja para concedê-la)`;

/** A call's answer, or its refusal for a scope (what lacks it does without); any other failure thrown on. */
function unlessPermission(error: unknown): PermissionMissing {
  if (error instanceof PermissionMissing) return error;
  throw error;
}
