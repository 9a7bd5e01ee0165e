import { createHash } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import {
  clientResource,
  DEFAULT_PAYMENT_IDS,
  storeConnectionOf,
  type ClientEntity,
  isConnected,
} from '../clients/client.resource';
import { entityFor } from '../kit/entity';
import { LocationCatalogues } from '../locations/location-catalogue';
import { HiperKeyRefused, HiperNotReached } from '../platforms/hiper.client';
import { type NuvemshopClient, type NuvemshopStoreClient } from '../platforms/nuvemshop.client';
import { PermissionMissing } from '../platforms/nuvemshop.errors';
import { type NuvemshopOrder } from '../platforms/nuvemshop.shapes';
import { permissionMissingText } from '../platforms/nuvemshop-scopes';
import { PlatformError, staffTextOf } from '../platforms/platform-call';
import type { JobQueue } from '../queue/queue';
import { AnswerJournal } from './answer-journal';
import { cancelSalesOrder } from './hiper-cancel';
import { isHiperOrderId, notAHiperOrderId } from './hiper-order-id';
import { CANCEL_REFUSED, judgeOrderAnswer } from './order-answer';
import { consumerCostCents, mapOrder, type HiperSalesOrderBody, type Mapping } from './order-mapping';
import { moveOrder, orderRow, type OrderRow } from './order-rows';
import { accountOfRow, clientAccount, hiperOf, type SalesAccount } from './shipment-accounts';
import { mapShipment } from './shipment-mapping';
import { ShipmentPlanner, type ShipmentPlan } from './shipment-planner';
import { orderNotes } from '../../schema/staff-notes';

/** Hiper's answer said nothing was created because it was busy: the job tries again later. */
export class HiperBusy extends PlatformError {
  constructor() {
    super('Hiper answered 429: nothing was created; tried again later', true, 429);
  }
}

const isStoreCancelled = (order: NuvemshopOrder) =>
  order.status === 'cancelled' || order.payment_status === 'voided' || order.payment_status === 'refunded';

/**
 * A client's payment map: the default when unset. Stored as an object; JSON text (the column's shape before it was
 * jsonb) is still read as the JSON it is. Only whole numbers count as Hiper ids.
 */
function paymentIdsOf(value: unknown): Record<string, number> {
  let map = value;
  if (typeof map === 'string') {
    try {
      map = JSON.parse(map);
    } catch {
      map = null;
    }
  }
  if (!map || typeof map !== 'object' || Array.isArray(map)) return { ...DEFAULT_PAYMENT_IDS };
  return Object.fromEntries(
    Object.entries(map as Record<string, unknown>).filter(([, id]) => Number.isInteger(id)) as [string, number][],
  );
}

/** What a client sends as `Marketplace` (required of establishments in Santa Catarina), when it has it. */
const marketplaceOf = (client: ClientEntity) =>
  client.hiperMarketplaceCnpj
    ? { cnpj: String(client.hiperMarketplaceCnpj), name: String(client.hiperMarketplaceName ?? '') }
    : null;

/** The texts `q` matches: the number, the buyer and the SKUs. */
const searchTextOf = (order: NuvemshopOrder) =>
  [order.number, order.customer?.name ?? order.contact_name, ...(order.products ?? []).map((p) => p.sku)]
    .filter((v) => v !== null && v !== undefined && v !== '')
    .join(' ');

/** A sales order's digest: the same data mapped again gives the same body, so the same digest. */
const digestOf = (body: HiperSalesOrderBody) => createHash('sha256').update(JSON.stringify(body)).digest('hex');

/**
 * The freight of an order the newer Order API serves without `shipping_cost_customer`: the sum of its fulfillment
 * orders' `shipping.consumer_cost` (embedded when the order was read with them, else read). A store that will not let
 * them be read (no `read_fulfillment_orders`) leaves the freight unknown: the order waits, the scope named, rather than
 * going to Hiper without its freight.
 */
async function freightOnFulfillmentOrders(
  store: NuvemshopStoreClient,
  order: NuvemshopOrder,
): Promise<{ cents?: number; hold?: string }> {
  if (order.shipping_cost_customer !== undefined && order.shipping_cost_customer !== null) return {};
  let fulfillmentOrders = order.fulfillment_orders;
  try {
    fulfillmentOrders ??= await store.listFulfillmentOrders(order.id);
  } catch (error) {
    if (!(error instanceof PermissionMissing)) throw error;
    return { hold: holdFreight(error.scope ?? 'read_fulfillment_orders') };
  }
  return { cents: fulfillmentOrders.reduce((sum, fo) => sum + consumerCostCents(fo.shipping), 0) };
}

/** Why an order whose freight cannot be read waits. */
export const holdFreight = (scope: string) =>
  `Frete não lido: ${permissionMissingText([scope])} (reinstale o app na loja para concedê-la e use Reenviar)`;

/**
 * One store order's way into Hiper: read from the store, mapped, and sent exactly once. `sending` is committed before
 * the POST and Hiper's id saved with its answer; a send that may have reached Hiper makes the order `uncertain`, and
 * nothing here ever sends an uncertain order again (staff choose).
 */
export class OrderSender {
  /** Hiper's ids kept until the orders' rows hold them. */
  readonly answers: AnswerJournal;
  /** Orders of each client this process is working on now. */
  private readonly working = new Map<string, number>();
  /** Which shipment a row of a store with several locations sends, and where. */
  private readonly shipments: ShipmentPlanner;

  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
    private readonly nuvemshop: NuvemshopClient,
    private readonly jobs: JobQueue,
    private readonly log: Logger,
  ) {
    this.answers = new AnswerJournal(orm, config.ORDERS_ANSWERS_DIR, log);
    this.shipments = new ShipmentPlanner(orm, config, jobs, new LocationCatalogues(orm));
  }

  /**
   * The `order` job: brings the row up to date with the store, and acts on what it then says. With `fair` (the job's
   * way) an order whose client already has its share of this process's slots, or whose store's bucket would keep it
   * waiting, is queued again for a moment later and frees its slot, so one store never holds up another's orders.
   */
  async process(
    orderId: string,
    { send = true, fair = false }: { send?: boolean; fair?: boolean } = {},
  ): Promise<Record<string, unknown>> {
    const em = this.orm.em.fork();
    const row = await orderRow(em, orderId);
    if (!row) return { skipped: 'the order is gone' };
    const client = await em.findOne(entityFor(clientResource), { id: row.client_id });
    if (!client || !isConnected(client)) return { skipped: 'the client is not connected to both platforms' };
    if (row.state === 'sending' || row.state === 'uncertain') return { skipped: `the order is ${row.state}` };
    const connection = storeConnectionOf(client);
    if (fair) {
      const wait = this.nuvemshop.bucket(connection.storeId).expectedWaitMs();
      const busy = (this.working.get(row.client_id) ?? 0) >= this.config.ORDERS_PER_CLIENT_CONCURRENCY;
      if (busy || wait > this.config.ORDERS_BUCKET_WAIT_MS) {
        const seconds = Math.min(300, Math.max(1, Math.ceil(wait / 1000)));
        await this.jobs.send('order', { orderId }, { singletonKey: orderId, startAfterSeconds: seconds });
        return { deferred: busy ? 'the client has its share of the slots' : `the store's bucket: ${seconds} s` };
      }
    }
    this.working.set(row.client_id, (this.working.get(row.client_id) ?? 0) + 1);
    try {
      return await this.bringUpToDate(em, row, client, connection, send);
    } finally {
      const left = (this.working.get(row.client_id) ?? 1) - 1;
      if (left > 0) this.working.set(row.client_id, left);
      else this.working.delete(row.client_id);
    }
  }

  private async bringUpToDate(
    em: EntityManager,
    row: OrderRow,
    client: ClientEntity,
    connection: ReturnType<typeof storeConnectionOf>,
    send: boolean,
  ): Promise<Record<string, unknown>> {
    const store = this.nuvemshop.store(connection.storeId, connection.storeToken!);
    // A row to send reads its order's fulfillment orders with it: its shipments and the newer API's freight are there.
    const order = await store.getOrder(Number(row.nuvemshop_order_id), {
      fulfillmentOrders: row.state === 'received' || row.state === 'held',
    });
    if (!order) {
      // A signed event naming an order the store does not have: nothing of it is kept but the webhook's own row.
      if (row.state === 'received' && !row.hiper_order_id) {
        await em.execute(`delete from orders where id = ? and state = 'received' and hiper_order_id is null`, [row.id]);
        return { removed: 'not in the store' };
      }
      await moveOrder(em, row.id, { last_error: orderNotes.not_in_store });
      return { skipped: 'not in the store' };
    }
    const fields = {
      number: order.number,
      payment_status: order.payment_status,
      customer_name: (order.customer?.name ?? order.contact_name ?? null)?.slice(0, 255) ?? null,
      store_status: order.status,
      placed_at: order.created_at ? new Date(order.created_at.replace(/\+0000$/, 'Z')) : null,
      search_text: searchTextOf(order),
    };
    // A shipment's row carries its own share of the total (set where its shipment is read).
    await moveOrder(em, row.id, { ...fields, ...(row.fulfillment_order_id ? {} : { total: order.total }) });
    const cancelled = isStoreCancelled(order);
    const clientKey = connection.hiperKey!;
    switch (row.state) {
      case 'received':
      case 'held': {
        if (cancelled) {
          await moveOrder(em, row.id, { state: 'cancelled' }, orderNotes.cancelled_before_send, ['received', 'held']);
          return { cancelled: true };
        }
        const enabledAt = client.ordersEnabledAt ? new Date(client.ordersEnabledAt) : null;
        const placed = new Date(order.created_at.replace(/\+0000$/, 'Z'));
        // Store dates are whole seconds: an order placed in the second orders were turned on counts as after.
        if (!client.ordersEnabled || !enabledAt || placed.getTime() < Math.floor(enabledAt.getTime() / 1000) * 1000) {
          await moveOrder(em, row.id, { last_error: orderNotes.placed_before_orders_on });
          return { skipped: 'placed before orders were turned on' };
        }
        const links = await this.links(em, row.client_id, order);
        // A store with several locations: the row is one of the order's shipments (split into them the first time).
        const planned = await this.shipments.plan(
          em,
          row,
          order,
          store,
          { id: row.client_id, key: clientKey },
          links,
          fields,
        );
        if (planned && 'skip' in planned) return { skipped: planned.skip };
        if (planned && 'gone' in planned) {
          await moveOrder(em, row.id, { last_error: orderNotes.shipment_gone });
          return { skipped: 'the shipment is no longer in the store' };
        }
        const payable = ['paid', ...(client.ordersSendOn === 'authorized' ? ['authorized'] : [])];
        if (!payable.includes(order.payment_status)) return { waiting: `payment ${order.payment_status}` };
        if (planned && 'hold' in planned) {
          await moveOrder(em, row.id, { state: 'held', hold_reason: planned.hold }, planned.hold, ['received', 'held']);
          return { held: planned.hold };
        }
        const plan = planned?.plan;
        const account = plan?.account ?? clientAccount(row.client_id, clientKey);
        const mapped = plan
          ? await this.mapShipment(order, plan, client, links)
          : await this.mapWhole(store, order, client, links);
        if ('hold' in mapped || !('body' in mapped.mapping)) {
          const reason = 'hold' in mapped ? mapped.hold : mapped.mapping.holds.join('; ');
          const lines = 'hold' in mapped ? undefined : mapped.mapping.lines;
          await moveOrder(em, row.id, { state: 'held', hold_reason: reason, ...(lines ? { lines } : {}) }, reason, [
            'received',
            'held',
          ]);
          return { held: reason };
        }
        const { mapping } = mapped;
        if (!send) {
          await moveOrder(em, row.id, { lines: mapping.lines });
          return { ready: true };
        }
        // Refused by Hiper and mapped from the same data since: only staff's "Reenviar" posts it again.
        if (row.state === 'held' && row.refused_digest === digestOf(mapping.body)) {
          return { held: 'unchanged since Hiper refused it' };
        }
        return this.send(em, row, account, mapping.body, mapping.lines);
      }
      case 'sent':
      case 'processed':
        if (cancelled) return this.cancelInHiper(em, row, await accountOfRow(em, row, clientKey));
        return { unchanged: row.state };
      case 'invoiced':
      case 'shipped':
        if (order.payment_status === 'refunded' || order.payment_status === 'voided') {
          await moveOrder(em, row.id, { last_error: orderNotes.refunded_after_nfe }, orderNotes.refunded_after_nfe);
        }
        return { unchanged: row.state };
      case 'cancelled': {
        // Paid again in the store after a cancellation: shown to staff rather than left diverging from the store.
        const payable = ['paid', ...(client.ordersSendOn === 'authorized' ? ['authorized'] : [])];
        if (cancelled || !payable.includes(order.payment_status)) return { unchanged: row.state };
        const reason = row.hiper_order_id ? orderNotes.reopened_after_cancel : orderNotes.reopened_before_send;
        await moveOrder(em, row.id, { state: 'held', hold_reason: reason }, reason, ['cancelled']);
        return { held: reason };
      }
      default:
        return { unchanged: row.state };
    }
  }

  /** The order as one sales order into the client's own account (a store with one location), as before. */
  private async mapWhole(
    store: NuvemshopStoreClient,
    order: NuvemshopOrder,
    client: ClientEntity,
    links: Map<number, string>,
  ): Promise<{ mapping: Mapping } | { hold: string }> {
    const freight = await freightOnFulfillmentOrders(store, order);
    const mapping = mapOrder(order, {
      links,
      freightCents: freight.cents,
      paymentIds: paymentIdsOf(client.ordersPaymentIds),
      marketplace: marketplaceOf(client),
    });
    if (freight.hold) {
      return { mapping: { lines: mapping.lines, holds: [freight.hold, ...mapping.holds] } };
    }
    return { mapping };
  }

  /** One shipment as the sales order of the account that ships it. */
  private async mapShipment(
    order: NuvemshopOrder,
    plan: ShipmentPlan,
    client: ClientEntity,
    links: Map<number, string>,
  ): Promise<{ mapping: Mapping } | { hold: string }> {
    const ids = await this.shipments.accountIds(plan);
    if ('hold' in ids) return ids;
    return {
      mapping: mapShipment(order, plan.shipments, plan.shipment, {
        links,
        accountIds: ids.ids,
        locationName: plan.account.locationName,
        paymentIds: paymentIdsOf(client.ordersPaymentIds),
        marketplace: marketplaceOf(client),
      }),
    };
  }

  /** The Hiper id each of the order's variants was linked to (a variant adopted without one has none). */
  private async links(em: EntityManager, clientId: string, order: NuvemshopOrder): Promise<Map<number, string>> {
    const variants = [...new Set((order.products ?? []).map((p) => Number(p.variant_id)))];
    if (variants.length === 0) return new Map();
    const rows = (await em.execute(
      `select nuvemshop_variant_id, hiper_id from product_links
        where client_id = ? and nuvemshop_variant_id in (${variants.map(() => '?').join(', ')})`,
      [clientId, ...variants],
    )) as { nuvemshop_variant_id: string | number; hiper_id: string }[];
    return new Map(
      rows.filter((r) => !r.hiper_id.startsWith('nuvemshop:')).map((r) => [Number(r.nuvemshop_variant_id), r.hiper_id]),
    );
  }

  /** The one POST of an order: `sending` committed first, its outcome saved with Hiper's answer. */
  private async send(
    em: EntityManager,
    row: OrderRow,
    account: SalesAccount,
    body: HiperSalesOrderBody,
    lines: unknown,
  ): Promise<Record<string, unknown>> {
    const hiper = hiperOf(this.orm, this.config, account);
    try {
      // The token first: a refused key or an unreachable Hiper here has sent nothing.
      await hiper.token();
    } catch (error) {
      if (error instanceof HiperKeyRefused) {
        const reason = account.own
          ? orderNotes.location_key_refused(account.locationName ?? '?')
          : orderNotes.hiper_key_refused;
        await moveOrder(em, row.id, { state: 'held', hold_reason: reason, lines }, reason, ['received', 'held']);
        return { held: reason };
      }
      throw error;
    }
    const claimed = await moveOrder(
      em,
      row.id,
      {
        state: 'sending',
        sending_since: new Date(),
        hold_reason: null,
        last_error: null,
        lines,
        hiper_number: body.numeroPedidoDeVenda,
      },
      orderNotes.sending,
      ['received', 'held'],
    );
    if (!claimed) return { skipped: 'another worker took it' };
    let answer: { status: number; body: unknown };
    try {
      answer = await hiper.authorized('POST', '/pedido-de-venda/', body);
    } catch (error) {
      if (error instanceof HiperNotReached) {
        const reason = orderNotes.hiper_not_connected;
        await moveOrder(em, row.id, { state: 'held', hold_reason: reason, sending_since: null }, reason, ['sending']);
        return { held: reason };
      }
      const reason = orderNotes.may_exist(staffTextOf(error));
      await moveOrder(em, row.id, { state: 'uncertain', last_error: reason, sending_since: null }, reason, ['sending']);
      this.log.warn({ order: row.id }, 'order send uncertain: no answer from Hiper');
      return { uncertain: reason };
    }
    const verdict = judgeOrderAnswer(answer.status, answer.body);
    switch (verdict.kind) {
      case 'sent': {
        const note = verdict.warning
          ? orderNotes.received_with_warning(verdict.id, verdict.warning)
          : orderNotes.received_by_hiper(verdict.id);
        const saved = await this.answers.keep({
          orderId: row.id,
          hiperOrderId: verdict.id,
          note,
          at: new Date().toISOString(),
        });
        return saved ? { sent: verdict.id } : { sent: verdict.id, saving: 'the database could not be reached yet' };
      }
      case 'uncertain':
        await moveOrder(
          em,
          row.id,
          { state: 'uncertain', last_error: verdict.reason, sending_since: null },
          verdict.reason,
          ['sending'],
        );
        return { uncertain: verdict.reason };
      case 'busy':
        await moveOrder(em, row.id, { state: 'received', sending_since: null }, orderNotes.hiper_busy, ['sending']);
        throw new HiperBusy();
      case 'refused': {
        // A refusal with its reasons: nothing was created.
        const reason = verdict.reason.slice(0, 1000);
        await moveOrder(
          em,
          row.id,
          { state: 'held', hold_reason: reason, sending_since: null, refused_digest: digestOf(body) },
          reason,
          ['sending'],
        );
        return { held: reason };
      }
    }
  }

  /** A store cancellation, refund or void after sending: Hiper is asked to cancel its sales order. */
  private async cancelInHiper(
    em: EntityManager,
    row: OrderRow,
    account: SalesAccount,
  ): Promise<Record<string, unknown>> {
    if (!isHiperOrderId(row.hiper_order_id)) {
      const reason = orderNotes.cancelled_without_id(notAHiperOrderId(row.hiper_order_id));
      await moveOrder(em, row.id, { last_error: reason }, reason);
      return { failed: 'no Hiper id' };
    }
    // A cancellation is a request: accepted with an empty `errors`, and confirmed later by Hiper's events.
    const answer = await cancelSalesOrder(hiperOf(this.orm, this.config, account), row.hiper_order_id);
    if (answer.asked) {
      await moveOrder(
        em,
        row.id,
        { state: 'cancelled', cancel_requested_at: new Date(), last_error: null, cancel_refused: false },
        orderNotes.cancelled_after_send,
        ['sent', 'processed'],
      );
      return { cancelled: true };
    }
    const reason = `${CANCEL_REFUSED}: ${answer.refused}`;
    await moveOrder(em, row.id, { last_error: reason, cancel_refused: true }, reason);
    return { failed: answer.refused };
  }
}
