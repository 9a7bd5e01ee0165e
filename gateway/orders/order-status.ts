import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { clientResource, storeConnectionOf, type ClientEntity } from '../resources/client.resource';
import { entityFor } from '../resources/entity';
import { HiperClient } from '../sync/hiper.client';
import { hiperTokenStore } from '../sync/hiper-token-store';
import { NuvemshopRefused, type NuvemshopClient, type NuvemshopStoreClient } from '../sync/nuvemshop.client';
import { PlatformError } from '../sync/platform-call';
import { isConnected } from '../sync/sync-runner';
import { hiperOrderPath, isHiperOrderId, notAHiperOrderId } from './hiper-order-id';
import { moveOrder } from './order-rows';

/** One event of a Hiper sales order. */
interface HiperEvent {
  chaveDocumentoFiscal?: string | null;
  codigoDoTipoDeEvento?: number;
  observacao?: string | null;
  urlArquivoXml?: string | null;
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

interface Watched {
  id: string;
  client_id: string;
  nuvemshop_order_id: string;
  state: 'sent' | 'processed' | 'invoiced';
  hiper_order_id: string;
  hiper_code: string | null;
  nfe_key: string | null;
  last_error: string | null;
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
    const watched = (await em.execute(
      `select id, client_id, nuvemshop_order_id, state, hiper_order_id, hiper_code, nfe_key, last_error from orders
        where state in ('sent', 'processed', 'invoiced') and hiper_order_id is not null order by sent_at`,
    )) as Watched[];
    const clients = new Map<string, ClientEntity | null>();
    const limit = pLimit(AT_ONCE);
    const outcome: Record<string, number> = { read: 0, failed: 0 };
    await Promise.all(
      watched.map((order) =>
        limit(async () => {
          if (!clients.has(order.client_id)) {
            clients.set(order.client_id, await em.fork().findOne(entityFor(clientResource), { id: order.client_id }));
          }
          const client = clients.get(order.client_id);
          if (!client || !isConnected(client)) return;
          try {
            await this.follow(em.fork(), order, client);
            outcome.read++;
          } catch (error) {
            // Read again at the next poll.
            outcome.failed++;
            this.log.warn({ order: order.id, err: { message: (error as Error).message } }, 'order status not read');
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
    const hiper = HiperClient.fromConfig(
      this.config,
      connection.hiperKey!,
      hiperTokenStore(this.orm, order.client_id, connection.hiperKey!),
    );
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

    if (said.cancelado || events.some((e) => e.codigoDoTipoDeEvento === CANCELLED)) {
      if (client.ordersCancelInStore) {
        try {
          await store.cancelOrder(orderId, { reason: 'other', email: false, restock: true });
        } catch (error) {
          // Already cancelled in the store: nothing more to do there.
          if (!(error instanceof NuvemshopRefused && error.status === 422)) throw error;
        }
      }
      await moveOrder(
        em,
        order.id,
        { state: 'cancelled' },
        client.ordersCancelInStore ? 'Cancelado no Hiper: cancelado na loja' : 'Cancelado no Hiper',
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
        'Hiper processou o pedido com erro';
      await moveOrder(em, order.id, { state: 'rejected', last_error: reason }, reason, ['sent', 'processed']);
      return;
    }
    let state = order.state;
    if (state === 'sent' && said.codigoDaSituacaoDeProcessamento === PROCESSED) {
      await moveOrder(em, order.id, { state: 'processed' }, 'Processado pelo Hiper', ['sent']);
      state = 'processed';
    }
    const invoice = events.find((e) => e.codigoDoTipoDeEvento === NFE_ISSUED && e.chaveDocumentoFiscal);
    if (invoice && !order.nfe_key && state !== 'invoiced') {
      await this.writeInvoice(store, orderId, invoice.chaveDocumentoFiscal!, invoice.urlArquivoXml ?? null);
      await moveOrder(
        em,
        order.id,
        { state: 'invoiced', nfe_key: invoice.chaveDocumentoFiscal },
        `NF-e ${invoice.chaveDocumentoFiscal} escrita na loja`,
        ['sent', 'processed'],
      );
    }
    if (events.some((e) => e.codigoDoTipoDeEvento === HANDED_TO_CARRIER)) {
      await this.fulfil(store, orderId);
      await moveOrder(em, order.id, { state: 'shipped' }, 'Entregue à transportadora: enviado na loja', [
        'sent',
        'processed',
        'invoiced',
      ]);
    }
  }

  /**
   * The NF-e in both documented forms: keys `key` and `link`, and key `list` (one entry per fulfillment order). Each
   * `POST /metafields` makes a new metafield, so those of this NF-e already on the order (a pass that died before the
   * key was saved wrote them) are read first, and only the missing ones written.
   */
  private async writeInvoice(store: NuvemshopStoreClient, orderId: number, key: string, link: string | null) {
    const owner = { owner_resource: 'Order' as const, owner_id: orderId, namespace: 'nfe' };
    const present = await store.listOrderMetafields(orderId, 'nfe');
    const has = (name: string, holds: (value: string) => boolean) =>
      present.some((m) => m.key === name && holds(String(m.value)));
    if (!has('key', (value) => value === key)) {
      await store.createMetafield({ ...owner, key: 'key', value: key, description: 'Chave da NFe' });
    }
    if (link && !has('link', (value) => value === link)) {
      await store.createMetafield({ ...owner, key: 'link', value: link, description: 'Link da NFe' });
    }
    if (has('list', (value) => value.includes(key))) return;
    const fulfillments = await store.listFulfillmentOrders(orderId).catch(() => []);
    const list = (fulfillments.length ? fulfillments : [null]).map((fo) => ({
      key,
      link,
      ...(fo ? { fulfillment_order_id: fo.id } : {}),
    }));
    await store.createMetafield({ ...owner, key: 'list', value: JSON.stringify(list) });
  }

  /** Fulfilled in the store: per fulfillment order where it has several locations, else the order itself. */
  private async fulfil(store: NuvemshopStoreClient, orderId: number) {
    const locations = await store.listLocations();
    if (Array.isArray(locations) && locations.length > 1) {
      for (const fo of await store.listFulfillmentOrders(orderId)) {
        if (['DISPATCHED', 'DELIVERED', 'CANCELLED'].includes(fo.status)) continue;
        await store.updateFulfillmentOrder(orderId, fo.id, { status: 'DISPATCHED', notify_customer: true });
      }
      return;
    }
    try {
      await store.fulfilOrder(orderId, { notify_customer: true });
    } catch (error) {
      if (!(error instanceof NuvemshopRefused && error.status === 422)) throw error;
    }
  }
}
