import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HiperClient, HiperNotReached } from '../../gateway/platforms/hiper.client';
import { NuvemshopClient } from '../../gateway/platforms/nuvemshop.client';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';

/** The platform clients' order calls against stand-ins no kinder than the documentation. */
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;
const USER_AGENT = 'Sistema de Integracao (admin@example.com)';
let nextStore = 9100;

beforeAll(async () => {
  [hiper, nuvemshop] = await Promise.all([
    startHiper(),
    startNuvemshopApi({ bucket: { size: 400, drainPerSecond: 400 } }),
  ]);
});
afterAll(async () => {
  await Promise.all([hiper?.close(), nuvemshop?.close()]);
});

const storeClient = (maxQueryResults?: number) => {
  const id = nextStore++;
  const store = nuvemshop.addStore(id);
  const client = new NuvemshopClient({
    baseUrl: nuvemshop.url,
    userAgent: USER_AGENT,
    timeoutMs: 5000,
    maxQueryResults,
  });
  return { id, store, api: client.store(id, store.token) };
};

describe('Nuvemshop’s orders', () => {
  it('are read by update window, split in halves where a window would pass the result cap', async () => {
    const { id, store, api } = storeClient(400);
    // Updated over the last 50 seconds: Nuvemshop's dates are whole seconds.
    const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
    const now = Date.now();
    for (let i = 0; i < 1000; i++) store.seedOrder({ lines: [{ variant: 1 }], updated_at: at(now - i * 50) });
    const seen = new Set<number>();
    for await (const page of api.ordersUpdated(new Date(Date.now() - 60_000), new Date(Date.now() + 1000), 200)) {
      for (const order of page) seen.add(order.id);
    }
    expect(seen.size).toBe(1000);
    const queries = nuvemshop.requestsOf(id).filter((r) => r.route === 'GET /orders');
    expect(queries.every((r) => Number(r.query.page) * Number(r.query.per_page) <= 400)).toBe(true);
    expect(queries.every((r) => r.status === 200)).toBe(true);
  });

  it('refuse a query past the cap, per_page above 200, a second cancel and an invalid reason', async () => {
    const { id, store, api } = storeClient();
    const order = store.seedOrder({ lines: [{ variant: 1 }] });
    const headers = {
      'User-Agent': USER_AGENT,
      Authentication: `bearer ${store.token}`,
      'Content-Type': 'application/json',
    };
    const big = await fetch(`${nuvemshop.url}/${id}/orders?per_page=250`, { headers });
    expect(big.status).toBe(422);
    const reason = await fetch(`${nuvemshop.url}/${id}/orders/${order.id}/cancel`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ reason: 'changed my mind' }),
    });
    expect(reason.status).toBe(422);
    await api.cancelOrder(order.id, { reason: 'other', email: false, restock: true });
    expect(store.order(order.id)).toMatchObject({ status: 'cancelled', cancel_reason: 'other' });
    await expect(api.cancelOrder(order.id, { reason: 'other', email: false, restock: true })).rejects.toThrow(
      /already cancelled/,
    );
  });

  it('take the NF-e as metafields on an existing order, and fulfil per fulfillment order', async () => {
    const { store, api } = storeClient();
    const order = store.seedOrder({ lines: [{ variant: 1 }, { variant: 2 }], locations: ['Loja', 'CD'] });
    await api.createMetafield({
      namespace: 'nfe',
      key: 'key',
      value: '4'.repeat(44),
      owner_resource: 'Order',
      owner_id: order.id,
    });
    await expect(
      api.createMetafield({ namespace: 'nfe', key: 'key', value: 'x', owner_resource: 'Order', owner_id: 1 }),
    ).rejects.toThrow(/HTTP 404/);
    // A second POST of the same key is a second metafield; the order's are read back by namespace.
    await api.createMetafield({
      namespace: 'nfe',
      key: 'key',
      value: '4'.repeat(44),
      owner_resource: 'Order',
      owner_id: order.id,
    });
    await api.createMetafield({
      namespace: 'other',
      key: 'key',
      value: 'y',
      owner_resource: 'Order',
      owner_id: order.id,
    });
    const read = await api.listOrderMetafields(order.id, 'nfe');
    expect(read.map((m) => [m.namespace, m.key, m.owner_id])).toEqual([
      ['nfe', 'key', order.id],
      ['nfe', 'key', order.id],
    ]);
    const fos = await api.listFulfillmentOrders(order.id);
    expect(fos).toHaveLength(2);
    for (const fo of fos) {
      await api.updateFulfillmentOrder(order.id, fo.id, {
        status: 'DISPATCHED',
        tracking_info: { code: 'BR123', url: null, notify_customer: true },
      });
      expect(store.fulfillmentOrders.get(order.id)!.find((f) => f.id === fo.id)!.notified).toBe(true);
    }
    expect(store.order(order.id)!.shipping_status).toBe('fulfilled');
    await expect(
      api.updateFulfillmentOrder(order.id, fos[0].id, {
        status: 'SENT',
        tracking_info: { code: null, url: null, notify_customer: true },
      }),
    ).rejects.toThrow(/HTTP 422/);
  });
});

describe('Hiper’s sales orders', () => {
  it('accept an order of the account’s products, refuse one with errors, and answer its events and cancel', async () => {
    const account = hiper.addAccount();
    const product = account.add({ nome: 'Camiseta', preco: 10 });
    const client = new HiperClient({ baseUrl: hiper.url, key: account.key, timeoutMs: 2000 });
    const body = {
      cliente: {
        documento: '52998224725',
        email: 'a@b.c',
        inscricaoEstadual: '',
        nomeDoCliente: 'A',
        nomeFantasia: '',
      },
      enderecoDeCobranca: {
        bairro: 'C',
        cep: '88010000',
        codigoIbge: 4205407,
        complemento: '',
        logradouro: 'R',
        numero: '1',
      },
      enderecoDeEntrega: {
        bairro: 'C',
        cep: '88010000',
        codigoIbge: 4205407,
        complemento: '',
        logradouro: 'R',
        numero: '1',
      },
      itens: [{ produtoId: product.id, quantidade: 2, precoUnitarioBruto: 10, precoUnitarioLiquido: 10 }],
      meiosDePagamento: [{ idMeioDePagamento: 12, parcelas: 1, valor: 25 }],
      numeroPedidoDeVenda: '100',
      observacaoDoPedidoDeVenda: '',
      valorDoFrete: 5,
    };
    const accepted = await client.authorized('POST', '/pedido-de-venda/', body);
    expect(accepted).toEqual({
      status: 200,
      body: { id: account.orders[0].id, errors: [], message: 'Pedido recebido e em processamento.' },
    });
    const refused = await client.authorized('POST', '/pedido-de-venda/', {
      ...body,
      itens: [{ ...body.itens[0], produtoId: 'x' }],
    });
    expect(refused.status).toBe(400);
    expect((refused.body as any).errors).toEqual(['Produto x não encontrado']);
    // A repeated number is taken as a new order (the worst case, the default).
    await client.authorized('POST', '/pedido-de-venda/', body);
    expect(account.ordersNumbered('100')).toHaveLength(2);

    account.addOrderEvent(account.orders[0].id, 3, {
      chaveDocumentoFiscal: '4'.repeat(44),
      urlArquivoXml: 'https://x/nfe.xml',
    });
    const events = await client.authorized('GET', `/pedido-de-venda/eventos/${account.orders[0].id}`);
    expect(events.body).toMatchObject({
      cancelado: false,
      codigoDaSituacaoDeProcessamento: 1,
      codigoDoPedidoDeVenda: 'LV00000000001',
      eventos: [{ codigoDoTipoDeEvento: 1 }, { codigoDoTipoDeEvento: 3, chaveDocumentoFiscal: '4'.repeat(44) }],
    });
    const cancelled = await client.authorized('PUT', `/pedido-de-venda/cancelar/${account.orders[0].id}`);
    expect(cancelled.body).toEqual({ errors: [], message: 'Cancelamento recebido e em processamento.' });
    expect(account.orders[0].cancelado).toBe(true);
  });

  it('a Hiper that cannot be reached is told apart from one that does not answer', async () => {
    const account = hiper.addAccount();
    // A port nothing listens on: the connection is refused.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const down = new HiperClient({ baseUrl: `http://127.0.0.1:${port}/api/v1`, key: account.key, timeoutMs: 500 });
    await expect(down.authorized('GET', '/pedido-de-venda/eventos/x')).rejects.toBeInstanceOf(HiperNotReached);
    const slow = new HiperClient({ baseUrl: hiper.url, key: account.key, timeoutMs: 500 });
    await slow.token();
    hiper.inject({ path: /^\/pedido-de-venda/, delayMs: 2000 });
    const error = await slow.authorized('GET', '/pedido-de-venda/eventos/x').catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(HiperNotReached);
    expect((error as Error).message).toBe('Hiper did not answer in time');
  });
});
