import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { clientResource, DEFAULT_PAYMENT_IDS, storeConnectionOf } from '../resources/client.resource';
import { entityFor } from '../resources/entity';
import { HiperClient, HiperKeyRefused, HiperNotReached } from '../sync/hiper.client';
import { hiperTokenStore } from '../sync/hiper-token-store';
import type { NuvemshopClient, NuvemshopOrder } from '../sync/nuvemshop.client';
import { PlatformError } from '../sync/platform-call';
import { isConnected } from '../sync/sync-runner';
import { mapOrder, type HiperSalesOrderBody } from './order-mapping';
import { moveOrder, orderRow, type OrderRow } from './order-rows';

/** Hiper's answer said nothing was created because it was busy: the job tries again later. */
export class HiperBusy extends PlatformError {
  constructor() {
    super('Hiper answered 429: nothing was created; tried again later', true, 429);
  }
}

export const NOT_BEFORE_ORDERS_ON = 'Feito antes de os pedidos serem ligados: não enviado';
export const REFUNDED_AFTER_NFE = 'Reembolsado na loja depois da NF-e: trate no Hiper';

const isStoreCancelled = (order: NuvemshopOrder) =>
  order.status === 'cancelled' || order.payment_status === 'voided' || order.payment_status === 'refunded';

/**
 * A client's payment map: the default when unset; a map typed as text in a form is read as the JSON it is. Only whole
 * numbers count as Hiper ids.
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

/** The texts `q` matches: the number, the buyer and the SKUs. */
const searchTextOf = (order: NuvemshopOrder) =>
  [order.number, order.customer?.name ?? order.contact_name, ...(order.products ?? []).map((p) => p.sku)]
    .filter((v) => v !== null && v !== undefined && v !== '')
    .join(' ');

/** What Hiper said, as staff read it: its `errors`, else its `message`. */
function hiperSaid(body: unknown, status: number): string {
  const { errors, message } = (body && typeof body === 'object' ? body : {}) as { errors?: unknown; message?: unknown };
  const listed = Array.isArray(errors) ? errors.map(String).filter(Boolean) : [];
  if (listed.length > 0) return listed.join('; ');
  if (typeof message === 'string' && message) return message;
  return `Hiper recusou o pedido (HTTP ${status})`;
}

/**
 * One store order's way into Hiper: read from the store, mapped, and sent exactly once. `sending` is committed before
 * the POST and Hiper's id saved with its answer; a send that may have reached Hiper makes the order `uncertain`, and
 * nothing here ever sends an uncertain order again (staff choose).
 */
export class OrderSender {
  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
    private readonly nuvemshop: NuvemshopClient,
    private readonly log: Logger,
  ) {}

  /** The `order` job: brings the row up to date with the store, and acts on what it then says. */
  async process(orderId: string, { send = true }: { send?: boolean } = {}): Promise<Record<string, unknown>> {
    const em = this.orm.em.fork();
    const row = await orderRow(em, orderId);
    if (!row) return { skipped: 'the order is gone' };
    const client = await em.findOne(entityFor(clientResource), { id: row.client_id });
    if (!client || !isConnected(client)) return { skipped: 'the client is not connected to both platforms' };
    if (row.state === 'sending' || row.state === 'uncertain') return { skipped: `the order is ${row.state}` };
    const connection = storeConnectionOf(client);
    const store = this.nuvemshop.store(connection.storeId, connection.storeToken!);
    const order = await store.getOrder(Number(row.nuvemshop_order_id));
    if (!order) {
      await moveOrder(em, row.id, { last_error: 'O pedido não existe na loja' });
      return { skipped: 'not in the store' };
    }
    await moveOrder(em, row.id, {
      number: order.number,
      payment_status: order.payment_status,
      total: order.total,
      customer_name: (order.customer?.name ?? order.contact_name ?? null)?.slice(0, 255) ?? null,
      store_status: order.status,
      placed_at: order.created_at ? new Date(order.created_at.replace(/\+0000$/, 'Z')) : null,
      search_text: searchTextOf(order),
    });
    const cancelled = isStoreCancelled(order);
    switch (row.state) {
      case 'received':
      case 'held': {
        if (cancelled) {
          await moveOrder(em, row.id, { state: 'cancelled' }, 'Cancelado na loja antes do envio: nunca enviado', [
            'received',
            'held',
          ]);
          return { cancelled: true };
        }
        const enabledAt = client.ordersEnabledAt ? new Date(client.ordersEnabledAt) : null;
        const placed = new Date(order.created_at.replace(/\+0000$/, 'Z'));
        // Store dates are whole seconds: an order placed in the second orders were turned on counts as after.
        if (!client.ordersEnabled || !enabledAt || placed.getTime() < Math.floor(enabledAt.getTime() / 1000) * 1000) {
          await moveOrder(em, row.id, { last_error: NOT_BEFORE_ORDERS_ON });
          return { skipped: 'placed before orders were turned on' };
        }
        const payable = ['paid', ...(client.ordersSendOn === 'authorized' ? ['authorized'] : [])];
        if (!payable.includes(order.payment_status)) return { waiting: `payment ${order.payment_status}` };
        const mapping = mapOrder(order, {
          links: await this.links(em, row.client_id, order),
          paymentIds: paymentIdsOf(client.ordersPaymentIds),
          marketplace: client.hiperMarketplaceCnpj
            ? { cnpj: String(client.hiperMarketplaceCnpj), name: String(client.hiperMarketplaceName ?? '') }
            : null,
        });
        if (!('body' in mapping)) {
          const reason = mapping.holds.join('; ');
          await moveOrder(em, row.id, { state: 'held', hold_reason: reason, lines: mapping.lines }, reason, [
            'received',
            'held',
          ]);
          return { held: reason };
        }
        if (!send) {
          await moveOrder(em, row.id, { lines: mapping.lines });
          return { ready: true };
        }
        return this.send(em, row, connection.hiperKey!, mapping.body, mapping.lines);
      }
      case 'sent':
      case 'processed':
        if (cancelled) return this.cancelInHiper(em, row, connection.hiperKey!);
        return { unchanged: row.state };
      case 'invoiced':
      case 'shipped':
        if (order.payment_status === 'refunded' || order.payment_status === 'voided') {
          await moveOrder(em, row.id, { last_error: REFUNDED_AFTER_NFE }, REFUNDED_AFTER_NFE);
        }
        return { unchanged: row.state };
      default:
        return { unchanged: row.state };
    }
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

  private hiper(clientId: string, key: string): HiperClient {
    return HiperClient.fromConfig(this.config, key, hiperTokenStore(this.orm, clientId, key));
  }

  /** The one POST of an order: `sending` committed first, its outcome saved with Hiper's answer. */
  private async send(
    em: EntityManager,
    row: OrderRow,
    key: string,
    body: HiperSalesOrderBody,
    lines: unknown,
  ): Promise<Record<string, unknown>> {
    const hiper = this.hiper(row.client_id, key);
    try {
      // The token first: a refused key or an unreachable Hiper here has sent nothing.
      await hiper.token();
    } catch (error) {
      if (error instanceof HiperKeyRefused) {
        await moveOrder(em, row.id, { state: 'held', hold_reason: error.message, lines }, error.message, [
          'received',
          'held',
        ]);
        return { held: error.message };
      }
      throw error;
    }
    const claimed = await moveOrder(
      em,
      row.id,
      { state: 'sending', sending_since: new Date(), hold_reason: null, last_error: null, lines },
      'Enviando ao Hiper',
      ['received', 'held'],
    );
    if (!claimed) return { skipped: 'another worker took it' };
    let answer: { status: number; body: unknown };
    try {
      answer = await hiper.authorized('POST', '/pedido-de-venda/', body);
    } catch (error) {
      if (error instanceof HiperNotReached) {
        const reason = 'Não foi possível conectar ao Hiper: nada foi enviado';
        await moveOrder(em, row.id, { state: 'held', hold_reason: reason, sending_since: null }, reason, ['sending']);
        return { held: reason };
      }
      const reason = `${error instanceof Error ? error.message : String(error)}: o pedido pode ter sido criado no Hiper`;
      await moveOrder(em, row.id, { state: 'uncertain', last_error: reason, sending_since: null }, reason, ['sending']);
      this.log.warn({ order: row.id }, 'order send uncertain: no answer from Hiper');
      return { uncertain: reason };
    }
    const { status, body: said } = answer;
    const id = (said as { id?: unknown } | undefined)?.id;
    const errors = (said as { errors?: unknown } | undefined)?.errors;
    const hasErrors = Array.isArray(errors) && errors.length > 0;
    if (status >= 200 && status < 300 && typeof id === 'string' && id && !hasErrors) {
      await moveOrder(
        em,
        row.id,
        { state: 'sent', hiper_order_id: id, sent_at: new Date(), sending_since: null },
        `Recebido pelo Hiper (${id})`,
        ['sending'],
      );
      return { sent: id };
    }
    if ((status >= 200 && status < 300 && !hasErrors) || status >= 500 || status === 408) {
      const reason = `Hiper respondeu HTTP ${status} sem o id do pedido: o pedido pode ter sido criado no Hiper`;
      await moveOrder(em, row.id, { state: 'uncertain', last_error: reason, sending_since: null }, reason, ['sending']);
      return { uncertain: reason };
    }
    if (status === 429) {
      await moveOrder(em, row.id, { state: 'received', sending_since: null }, 'Hiper ocupado (429): nada criado', [
        'sending',
      ]);
      throw new HiperBusy();
    }
    // A refusal with its reasons: nothing was created.
    const reason = hiperSaid(said, status).slice(0, 1000);
    await moveOrder(em, row.id, { state: 'held', hold_reason: reason, sending_since: null }, reason, ['sending']);
    return { held: reason };
  }

  /** A store cancellation, refund or void after sending: Hiper is asked to cancel its sales order. */
  private async cancelInHiper(em: EntityManager, row: OrderRow, key: string): Promise<Record<string, unknown>> {
    const { status, body } = await this.hiper(row.client_id, key).authorized(
      'PUT',
      `/pedido-de-venda/cancelar/${encodeURIComponent(row.hiper_order_id ?? '')}`,
    );
    if (status >= 200 && status < 300) {
      await moveOrder(
        em,
        row.id,
        { state: 'cancelled' },
        'Cancelado na loja depois do envio: cancelamento pedido ao Hiper',
        ['sent', 'processed'],
      );
      return { cancelled: true };
    }
    if (status >= 500 || status === 429 || status === 408)
      throw new PlatformError(`Hiper answered HTTP ${status}`, true);
    await moveOrder(em, row.id, { last_error: hiperSaid(body, status) });
    return { failed: status };
  }

  /** Orders left `sending` past any answer's time (their process died) become `uncertain`, never sent again by themselves. */
  async settleAbandoned(): Promise<Record<string, unknown>> {
    const seconds = Math.ceil(this.config.HIPER_TIMEOUT_MS / 1000) * 2 + 30;
    const rows = (await this.orm.em.fork().execute(
      `update orders set state = 'uncertain', sending_since = null, updated_at = now(),
          last_error = 'O envio ao Hiper foi interrompido: o pedido pode ter sido criado no Hiper',
          history = history || jsonb_build_array(jsonb_build_object('at', now(), 'state', 'uncertain',
            'note', 'O envio ao Hiper foi interrompido: o pedido pode ter sido criado no Hiper'))
        where state = 'sending' and sending_since < now() - make_interval(secs => ?) returning id`,
      [seconds],
    )) as { id: string }[];
    return { uncertain: rows.length };
  }
}
