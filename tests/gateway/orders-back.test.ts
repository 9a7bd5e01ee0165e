import { describe, expect, it } from 'vitest';
import { orderSuite } from '../support/orders';

/** Hiper back to the store: the NF-e, the shipment, and cancellations both ways. Against the stand-ins. */
const suite = orderSuite();

const KEY = '42241112345678000190550010000001231000001234';
const XML = 'https://nfe.example/42241112345678000190550010000001231000001234.xml';

async function sentOrder(flags: Record<string, unknown> = {}, locations?: string[]) {
  const c = await suite.tools.clientWithCatalogue(flags);
  const order = c.store.seedOrder({
    lines: [{ variant: c.shirt.variant }, { variant: c.blue.variant }],
    ...(locations ? { locations } : {}),
  });
  await suite.tools.webhook(c.storeId, 'order/paid', order.id);
  await suite.tools.waitForOrder(c.id, order.id, ['sent']);
  return { c, order, hiperOrder: c.account.orders[0] };
}

describe('the NF-e and the shipment', () => {
  it('write the NF-e in both documented forms (invoiced), then fulfil the order (shipped)', async () => {
    const { c, order, hiperOrder } = await sentOrder();
    c.account.setOrderSituation(hiperOrder.id, 2);
    await suite.tools.pollStatus();
    expect(await suite.tools.orderOf(c.id, order.id)).toMatchObject({
      state: 'processed',
      hiper_code: hiperOrder.codigo,
    });

    c.account.addOrderEvent(hiperOrder.id, 3, {
      chaveDocumentoFiscal: KEY,
      urlArquivoXml: XML,
      tipoDocumentoFiscal: 'NFe',
    });
    await suite.tools.pollStatus();
    expect(await suite.tools.orderOf(c.id, order.id)).toMatchObject({ state: 'invoiced', nfe_key: KEY });
    const fo = c.store.fulfillmentOrders.get(order.id)![0];
    expect(c.store.metafields.map((m) => [m.namespace, m.key, m.value, m.owner_resource, m.owner_id])).toEqual([
      ['nfe', 'key', KEY, 'Order', order.id],
      ['nfe', 'link', XML, 'Order', order.id],
      ['nfe', 'list', JSON.stringify([{ key: KEY, link: XML, fulfillment_order_id: fo.id }]), 'Order', order.id],
    ]);

    c.account.addOrderEvent(hiperOrder.id, 4);
    await suite.tools.pollStatus();
    expect((await suite.tools.orderOf(c.id, order.id)).state).toBe('shipped');
    expect(c.store.order(order.id)!.shipping_status).toBe('fulfilled');
    expect(c.store.orderActions).toEqual([{ orderId: order.id, action: 'fulfill', body: { notify_customer: true } }]);
    // Nothing is written twice on the next reads.
    await suite.tools.pollStatus();
    expect(c.store.metafields).toHaveLength(3);
  });

  it('a pass that died after writing the NF-e to the store, before saving its key, writes nothing twice', async () => {
    const { c, order, hiperOrder } = await sentOrder();
    c.account.addOrderEvent(hiperOrder.id, 3, { chaveDocumentoFiscal: KEY, urlArquivoXml: XML });
    await suite.tools.pollStatus();
    const invoiced = await suite.tools.orderOf(c.id, order.id);
    expect(invoiced).toMatchObject({ state: 'invoiced', nfe_key: KEY });
    const written = structuredClone(c.store.metafields);
    expect(written.map((m) => m.key)).toEqual(['key', 'link', 'list']);

    // The row as a process killed after its metafields were written leaves it: not invoiced, no NF-e key.
    const crashed = () => suite.t.sql(`update orders set state = 'sent', nfe_key = null where id = $1`, [invoiced.id]);
    await crashed();
    const mark = suite.nuvemshop.requestsOf(c.storeId).length;
    await suite.tools.pollStatus();
    expect(await suite.tools.orderOf(c.id, order.id)).toMatchObject({ state: 'invoiced', nfe_key: KEY });
    expect(c.store.metafields).toEqual(written);
    const routes = suite.nuvemshop
      .requestsOf(c.storeId)
      .slice(mark)
      .map((r) => r.route);
    expect(routes).toEqual(['GET /metafields/orders']);

    // Killed after the first two: only the list is written.
    c.store.metafields = c.store.metafields.filter((m) => m.key !== 'list');
    await crashed();
    await suite.tools.pollStatus();
    expect(await suite.tools.orderOf(c.id, order.id)).toMatchObject({ state: 'invoiced', nfe_key: KEY });
    const keys = c.store.metafields.filter((m) => m.owner_id === order.id).map((m) => m.key);
    expect(keys).toEqual(['key', 'link', 'list']);
    expect(c.store.metafields.find((m) => m.key === 'list')!.value).toBe(written[2].value);
  });

  it('fulfil each fulfillment order where the store has several locations', async () => {
    const { c, order, hiperOrder } = await sentOrder({}, ['Loja', 'Centro de distribuição']);
    c.account.addOrderEvent(hiperOrder.id, 3, { chaveDocumentoFiscal: KEY, urlArquivoXml: XML });
    c.account.addOrderEvent(hiperOrder.id, 4);
    await suite.tools.pollStatus();
    expect((await suite.tools.orderOf(c.id, order.id)).state).toBe('shipped');
    const fos = c.store.fulfillmentOrders.get(order.id)!;
    expect(fos.map((f) => [f.status, f.notified])).toEqual([
      ['DISPATCHED', true],
      ['DISPATCHED', true],
    ]);
    const list = JSON.parse(c.store.metafields.find((m) => m.key === 'list')!.value);
    expect(list.map((e: any) => e.fulfillment_order_id)).toEqual(fos.map((f) => f.id));
    expect(c.store.orderActions.filter((a) => a.action === 'fulfill')).toEqual([]);
  });
});

describe('cancellations', () => {
  it('Hiper’s cancellation cancels the store order when the client wants it, and only then', async () => {
    const wants = await sentOrder();
    const doesNot = await sentOrder({ orders_cancel_in_store: false });
    wants.c.account.addOrderEvent(wants.hiperOrder.id, 99);
    doesNot.c.account.addOrderEvent(doesNot.hiperOrder.id, 99);
    await suite.tools.pollStatus();
    expect((await suite.tools.orderOf(wants.c.id, wants.order.id)).state).toBe('cancelled');
    expect((await suite.tools.orderOf(doesNot.c.id, doesNot.order.id)).state).toBe('cancelled');
    expect(wants.c.store.order(wants.order.id)!.status).toBe('cancelled');
    expect(wants.c.store.orderActions).toEqual([
      { orderId: wants.order.id, action: 'cancel', body: { reason: 'other', email: false, restock: true } },
    ]);
    expect(doesNot.c.store.order(doesNot.order.id)!.status).toBe('open');
  });

  it('a store cancellation after sending asks Hiper to cancel; Hiper’s 99 then cancels nothing more in the store', async () => {
    const { c, order, hiperOrder } = await sentOrder();
    c.store.changeOrder(order.id, { status: 'cancelled', payment_status: 'refunded' });
    await suite.tools.webhook(c.storeId, 'order/cancelled', order.id);
    await suite.tools.waitForOrder(c.id, order.id, ['cancelled']);
    expect(hiperOrder.cancelRequests).toBe(1);
    expect(hiperOrder.cancelado).toBe(true);
    await suite.tools.pollStatus();
    expect(c.store.orderActions).toEqual([]);
  });

  it('a refund after the NF-e sends nothing to Hiper and says so', async () => {
    const { c, order, hiperOrder } = await sentOrder();
    c.account.addOrderEvent(hiperOrder.id, 3, { chaveDocumentoFiscal: KEY, urlArquivoXml: XML });
    await suite.tools.pollStatus();
    c.store.changeOrder(order.id, { payment_status: 'refunded' });
    await suite.tools.webhook(c.storeId, 'order/updated', order.id);
    await suite.tools.settled();
    expect(await suite.tools.orderOf(c.id, order.id)).toMatchObject({
      state: 'invoiced',
      last_error: 'Reembolsado na loja depois da NF-e: trate no Hiper',
    });
    expect(hiperOrder.cancelRequests).toBe(0);
  });

  it('situation 3 makes the order rejected, which staff may resend', async () => {
    const { c, order, hiperOrder } = await sentOrder();
    c.account.setOrderSituation(hiperOrder.id, 3);
    await suite.tools.pollStatus();
    const rejected = await suite.tools.orderOf(c.id, order.id);
    expect(rejected.state).toBe('rejected');
    expect(rejected.last_error).toBeTruthy();
    const resent = await suite.t.request('POST', `/api/v1/orders/${rejected.id}/resend`, { token: suite.su });
    expect(resent.status).toBe(202);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    expect(c.account.orders).toHaveLength(2);
  });
});
