import { describe, expect, it } from 'vitest';
import { orderSuite } from '../support/orders';

/**
 * What goes back to the store as Nuvemshop's newer pages say it must: every buyer notified through `tracking_info`, a
 * fulfillment order that refuses left for a person and not asked again, one NF-e list per order whoever wrote it, a
 * cancellation that is a request, and no order watched for ever.
 */
const suite = orderSuite();

const KEY = '42241112345678000190550010000001231000001234';
const XML = 'https://nfe.example/42241112345678000190550010000001231000001234.xml';

async function sentOrder(options: { locations?: string[]; shippingType?: 'ship' | 'pickup' | 'non-shippable' } = {}) {
  const c = await suite.tools.clientWithCatalogue();
  const order = c.store.seedOrder({
    lines: [{ variant: c.shirt.variant }, { variant: c.blue.variant }],
    shape: '2025-03',
    ...options,
  });
  await suite.tools.webhook(c.storeId, 'order/paid', order.id);
  await suite.tools.waitForOrder(c.id, order.id, ['sent']);
  return { c, order, hiperOrder: c.account.ordersNumbered(order.number)[0] };
}

const patches = (storeId: number) =>
  suite.nuvemshop.requestsOf(storeId).filter((r) => r.route === 'PATCH /orders/{id}/fulfillment-orders/{fo_id}').length;

describe('the shipment', () => {
  it('notifies the buyer of each fulfillment order through tracking_info', async () => {
    const { c, order, hiperOrder } = await sentOrder({ locations: ['Loja', 'Depósito'] });
    c.account.addOrderEvent(hiperOrder.id, 4);
    await suite.tools.pollStatus();
    expect((await suite.tools.orderOf(c.id, order.id)).state).toBe('shipped');
    expect(c.store.fulfillmentOrders.get(order.id)!.map((f) => [f.status, f.notified])).toEqual([
      ['DISPATCHED', true],
      ['DISPATCHED', true],
    ]);
  });

  it('a pickup fulfillment order that refuses: the state kept, the refusal shown, not asked again', async () => {
    const { c, order, hiperOrder } = await sentOrder({ locations: ['Loja', 'Depósito'], shippingType: 'pickup' });
    c.account.addOrderEvent(hiperOrder.id, 4);
    await suite.tools.pollStatus();
    const row = await suite.tools.orderOf(c.id, order.id);
    expect(row.state).toBe('sent');
    expect(row.last_error).toMatch(/^A Nuvemshop recusou marcar como enviado: .*\(Loja\): HTTP 400/);
    const asked = patches(c.storeId);
    expect(asked).toBe(2);
    await suite.tools.pollStatus();
    await suite.tools.pollStatus();
    expect(patches(c.storeId)).toBe(asked);
  });
});

describe('the NF-e', () => {
  it('is appended to the order’s list written by another app, with PUT; never a second list, even run twice', async () => {
    const { c, order, hiperOrder } = await sentOrder();
    const theirs = { key: '35241199999999000199550010000000011000000011', link: 'https://outro.example/1.xml' };
    c.store.addMetafield({
      namespace: 'nfe',
      key: 'list',
      value: JSON.stringify([theirs]),
      owner_resource: 'Order',
      owner_id: order.id,
    });
    c.account.addOrderEvent(hiperOrder.id, 3, { chaveDocumentoFiscal: KEY, urlArquivoXml: XML });
    await suite.tools.pollStatus();
    expect((await suite.tools.orderOf(c.id, order.id)).state).toBe('invoiced');
    const lists = c.store.metafields.filter((m) => m.owner_id === order.id && m.key === 'list');
    expect(lists).toHaveLength(1);
    const [first] = c.store.fulfillmentOrders.get(order.id)!;
    expect(JSON.parse(lists[0].value)).toEqual([theirs, { key: KEY, link: XML, fulfillment_order_id: first.id }]);
    expect(suite.nuvemshop.requestsOf(c.storeId).filter((r) => r.route === 'PUT /metafields/{id}')).toHaveLength(1);

    // A pass that died after writing, before saving the key: the list already holds ours, nothing written again.
    await suite.t.sql(`update orders set state = 'sent', nfe_key = null where nuvemshop_order_id = $1`, [order.id]);
    await suite.tools.pollStatus();
    expect(JSON.parse(c.store.metafields.find((m) => m.id === lists[0].id)!.value)).toHaveLength(2);
    expect(c.store.metafields.filter((m) => m.owner_id === order.id && m.key === 'list')).toHaveLength(1);
    expect(c.store.metafields.filter((m) => m.owner_id === order.id && m.key === 'key')).toHaveLength(1);
  });
});

describe('a cancellation', () => {
  it('refused by Hiper in a 2xx: not cancelled, the refusal in last_error', async () => {
    const { c, order, hiperOrder } = await sentOrder();
    c.account.refuseCancels = ['Pedido já faturado'];
    c.store.changeOrder(order.id, { status: 'cancelled', payment_status: 'refunded' });
    await suite.tools.webhook(c.storeId, 'order/cancelled', order.id);
    await suite.tools.settled();
    const row = await suite.tools.orderOf(c.id, order.id);
    expect(row.state).toBe('sent');
    expect(row.last_error).toBe('Hiper recusou o cancelamento: Pedido já faturado');
    expect(row.cancel_refused).toBe(true);
    expect(hiperOrder.cancelado).toBe(false);
    // Among the orders that wait for a person: filtered so through REST and GraphQL (the dashboard's count).
    const other = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    await suite.tools.webhook(c.storeId, 'order/paid', other.id);
    await suite.tools.waitForOrder(c.id, other.id, ['sent']);
    const refused = await suite.t.request('GET', `/api/v1/orders/?client_id=${c.id}&cancel_refused=true`, {
      token: suite.su,
    });
    expect(refused.body.data.map((o: { id: string }) => o.id)).toEqual([row.id]);
    const counted = await suite.t.graphql(
      `query ($client: ID!) { _allOrdersMeta(filter: { client_id: $client, cancel_refused: true }) { count } }`,
      { client: c.id },
      suite.su,
    );
    expect(counted.body.data._allOrdersMeta.count).toBe(1);
    const wrong = await suite.t.request('GET', `/api/v1/orders/?cancel_refused=maybe`, { token: suite.su });
    expect(wrong.status).toBe(422);
  });

  it('accepted is confirmed by Hiper’s events; an NF-e reported instead is put before staff', async () => {
    const { c, order, hiperOrder } = await sentOrder();
    c.store.changeOrder(order.id, { status: 'cancelled', payment_status: 'refunded' });
    // Hiper takes the request but has not processed it: its event 99 comes later, or an NF-e instead.
    hiperOrder.cancelado = false;
    suite.hiper.inject({
      method: 'PUT',
      path: /^\/pedido-de-venda\/cancelar\//,
      status: 200,
      body: { errors: [], message: 'Cancelamento recebido e em processamento.' },
    });
    await suite.tools.webhook(c.storeId, 'order/cancelled', order.id);
    await suite.tools.waitForOrder(c.id, order.id, ['cancelled']);
    c.account.addOrderEvent(hiperOrder.id, 3, { chaveDocumentoFiscal: KEY, urlArquivoXml: XML });
    await suite.tools.pollStatus();
    const row = await suite.tools.orderOf(c.id, order.id);
    expect(row.state).toBe('cancelled');
    expect(row.last_error).toBe(`Cancelado na loja, mas o Hiper emitiu a NF-e ${KEY}: trate no Hiper`);
    // Then left: no more reads of its events.
    const reads = () =>
      suite.hiper.requests.filter((r) => r.path === `/pedido-de-venda/eventos/${hiperOrder.id}`).length;
    const before = reads();
    await suite.tools.pollStatus();
    expect(reads()).toBe(before);
  });
});

describe('the watch', () => {
  it('reads an order’s events at most 30 days after it was sent, then leaves it, saying so', async () => {
    const { c, order, hiperOrder } = await sentOrder();
    await suite.t.sql(`update orders set sent_at = now() - interval '31 days' where nuvemshop_order_id = $1`, [
      order.id,
    ]);
    const reads = () =>
      suite.hiper.requests.filter((r) => r.path === `/pedido-de-venda/eventos/${hiperOrder.id}`).length;
    const before = reads();
    await suite.tools.pollStatus();
    expect(reads()).toBe(before);
    const row = await suite.tools.orderOf(c.id, order.id);
    expect(row.state).toBe('sent');
    expect(row.last_error).toBe('Acompanhado por 30 dias depois do envio: os eventos do Hiper não são mais lidos');
  });
});
