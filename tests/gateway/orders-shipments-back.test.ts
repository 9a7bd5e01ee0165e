import { describe, expect, it } from 'vitest';
import { orderSuite } from '../support/orders';
import {
  clientWithTwoLocations,
  salesOrdersOf,
  stockAt,
  twoShipmentOrder,
  waitForShipments,
} from '../support/shipments';
import type { StoreOrder } from '../support/standins/nuvemshop-api';

/**
 * Back to the store per shipment: each shipment's NF-e appended to the order's one `nfe` list with its fulfillment
 * order, each dispatch on its own fulfillment order (the buyer notified through `tracking_info`), a store cancellation
 * cancelling every shipment in its own Hiper, and Hiper's cancellation cancelling the store order only once every
 * shipment is cancelled there.
 */
const suite = orderSuite();

const KEYS = ['42241112345678000190550010000001231000001234', '42241112345678000190550010000001241000001241'];
const xml = (key: string) => `https://nfe.example/${key}.xml`;

async function sentShipments(flags: Record<string, unknown> = {}) {
  const c = await clientWithTwoLocations(suite, flags);
  const order = twoShipmentOrder(c);
  await suite.tools.webhook(c.storeId, 'order/paid', order.id);
  const rows = await waitForShipments(suite, c.id, order, 2, ['sent']);
  const [shopSale] = salesOrdersOf(c.account, order);
  const [farSale] = salesOrdersOf(c.warehouse, order);
  return { c, order, rows, sales: [shopSale, farSale], accounts: [c.account, c.warehouse] };
}

const routesOf = (storeId: number, route: string) =>
  suite.nuvemshop.requestsOf(storeId).filter((r) => r.route === route);

describe('a two-shipment order back to the store', () => {
  it('appends each shipment’s NF-e to the order’s one list, then dispatches each fulfillment order', async () => {
    const { c, order, sales, accounts } = await sentShipments();
    const fos = c.store.fulfillmentOrders.get(order.id)!;
    accounts[1].addOrderEvent(sales[1].id, 3, { chaveDocumentoFiscal: KEYS[1], urlArquivoXml: xml(KEYS[1]) });
    await suite.tools.pollStatus();
    accounts[0].addOrderEvent(sales[0].id, 3, { chaveDocumentoFiscal: KEYS[0], urlArquivoXml: xml(KEYS[0]) });
    await suite.tools.pollStatus();
    const rows = await waitForShipments(suite, c.id, order, 2, ['invoiced']);
    expect(rows.map((r) => r.nfe_key)).toEqual(KEYS);
    const lists = c.store.metafields.filter((m) => m.key === 'list');
    expect(lists).toHaveLength(1);
    expect(JSON.parse(lists[0].value)).toEqual([
      { key: KEYS[1], link: xml(KEYS[1]), fulfillment_order_id: fos[1].id },
      { key: KEYS[0], link: xml(KEYS[0]), fulfillment_order_id: fos[0].id },
    ]);
    // The single `key` and `link` readers take one of each: the first NF-e's, never a pair of two.
    expect(c.store.metafields.filter((m) => m.key !== 'list').map((m) => [m.key, m.value])).toEqual([
      ['key', KEYS[1]],
      ['link', xml(KEYS[1])],
    ]);

    accounts[0].addOrderEvent(sales[0].id, 4);
    await suite.tools.pollStatus();
    expect(fos.map((fo) => fo.status)).toEqual(['DISPATCHED', 'UNPACKED']);
    expect(fos[0]).toMatchObject({ notified: true });
    expect(c.store.order(order.id)!.shipping_status).not.toBe('fulfilled');
    accounts[1].addOrderEvent(sales[1].id, 4);
    await suite.tools.pollStatus();
    expect(fos.map((fo) => [fo.status, fo.notified])).toEqual([
      ['DISPATCHED', true],
      ['DISPATCHED', true],
    ]);
    expect(fos.map((fo) => fo.patches)).toEqual([
      [{ status: 'DISPATCHED', tracking_info: { code: null, url: null, notify_customer: true } }],
      [{ status: 'DISPATCHED', tracking_info: { code: null, url: null, notify_customer: true } }],
    ]);
    await waitForShipments(suite, c.id, order, 2, ['shipped']);
    expect(c.store.order(order.id)!.shipping_status).toBe('fulfilled');
    expect(routesOf(c.storeId, 'POST /orders/{id}/fulfill')).toHaveLength(0);
    // Nothing is written twice on the next reads.
    await suite.tools.pollStatus();
    expect(c.store.metafields).toHaveLength(3);
    expect(routesOf(c.storeId, 'PATCH /orders/{id}/fulfillment-orders/{fo_id}')).toHaveLength(2);
  });

  it('one shipment of a store with several locations is dispatched on its fulfillment order, not the order', async () => {
    const c = await clientWithTwoLocations(suite);
    stockAt(c.store, c.shirt.variant.id, { [c.shop.id]: 5 });
    const order: StoreOrder = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await waitForShipments(suite, c.id, order, 1, ['sent']);
    const [sale] = salesOrdersOf(c.account, order);
    c.account.addOrderEvent(sale.id, 4);
    await suite.tools.pollStatus();
    await waitForShipments(suite, c.id, order, 1, ['shipped']);
    expect(c.store.fulfillmentOrders.get(order.id)!.map((fo) => [fo.status, fo.notified])).toEqual([
      ['DISPATCHED', true],
    ]);
    expect(routesOf(c.storeId, 'POST /orders/{id}/fulfill')).toHaveLength(0);
  });

  it('a store cancellation cancels every shipment in its own Hiper, each confirmed by its events', async () => {
    const { c, order, sales, accounts } = await sentShipments();
    c.store.changeOrder(order.id, { status: 'cancelled', cancelled_at: new Date().toISOString() });
    await suite.tools.webhook(c.storeId, 'order/cancelled', order.id);
    const rows = await waitForShipments(suite, c.id, order, 2, ['cancelled']);
    expect(sales.map((sale, k) => accounts[k].order(sale.id).cancelRequests)).toEqual([1, 1]);
    for (const row of rows)
      expect(row.history.at(-1).note).toBe('Cancelado na loja depois do envio: cancelamento pedido ao Hiper');
    await suite.tools.pollStatus();
    const confirmed = await waitForShipments(suite, c.id, order, 2, ['cancelled']);
    for (const row of confirmed) expect(row.history.at(-1).note).toBe('Cancelamento confirmado pelo Hiper');
    expect(c.store.orderActions.filter((a) => a.action === 'cancel')).toEqual([]);
  });

  it('Hiper cancelling one shipment leaves the store order; cancelling every one cancels it, restocking', async () => {
    const { c, order, sales, accounts } = await sentShipments();
    accounts[1].addOrderEvent(sales[1].id, 99);
    await suite.tools.pollStatus();
    let rows = await waitForShipments(suite, c.id, order, 2, ['sent', 'cancelled']);
    expect(rows.map((r) => r.state)).toEqual(['sent', 'cancelled']);
    expect(rows[1].history.at(-1).note).toBe(
      'Cancelado no Hiper: o pedido na loja só é cancelado quando todas as remessas estiverem canceladas no Hiper',
    );
    expect(c.store.order(order.id)!.status).toBe('open');

    accounts[0].addOrderEvent(sales[0].id, 99);
    await suite.tools.pollStatus();
    rows = await waitForShipments(suite, c.id, order, 2, ['cancelled']);
    expect(rows[0].history.at(-1).note).toBe('Cancelado no Hiper, como todas as remessas: cancelado na loja');
    expect(c.store.order(order.id)!.status).toBe('cancelled');
    expect(c.store.orderActions).toEqual([
      { orderId: order.id, action: 'cancel', body: { reason: 'other', email: false, restock: true } },
    ]);
  });

  it('never cancels the store order when the client does not want it, every shipment cancelled or not', async () => {
    const { c, order, sales, accounts } = await sentShipments({ orders_cancel_in_store: false });
    for (const [k, sale] of sales.entries()) accounts[k].addOrderEvent(sale.id, 99);
    await suite.tools.pollStatus();
    await waitForShipments(suite, c.id, order, 2, ['cancelled']);
    expect(c.store.order(order.id)!.status).toBe('open');
    expect(c.store.orderActions).toEqual([]);
  });

  it('a shipment Hiper processed with an error is resent into its own account, its first sales order cancelled there', async () => {
    const { c, order, rows, sales, accounts } = await sentShipments();
    accounts[1].setOrderSituation(sales[1].id, 3);
    await suite.tools.pollStatus();
    await waitForShipments(suite, c.id, order, 2, ['sent', 'rejected']);
    const resent = await suite.t.request('POST', `/api/v1/orders/${rows[1].id}/resend`, { token: suite.su });
    expect(resent.status).toBe(202);
    await waitForShipments(suite, c.id, order, 2, ['sent']);
    expect(accounts[1].order(sales[1].id).cancelRequests).toBe(1);
    expect(salesOrdersOf(c.warehouse, order).map((o) => o.body.numeroPedidoDeVenda)).toEqual([
      `${order.number}-2`,
      `${order.number}-2`,
    ]);
    expect(salesOrdersOf(c.account, order)).toHaveLength(1);
  });
});
