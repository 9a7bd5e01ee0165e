import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { orderTools, ordersEnv } from '../support/orders';

/**
 * A send that may have reached Hiper is never sent again by itself: a timeout or a 5xx after Hiper accepted, a
 * connection cut, a process that died while sending. Staff settle it with "Reenviar" or "Já está no Hiper".
 */
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;
let su: string;
let tools: ReturnType<typeof orderTools>;

beforeAll(async () => {
  [hiper, nuvemshop] = await Promise.all([
    startHiper(),
    startNuvemshopApi({ bucket: { size: 40, drainPerSecond: 40 } }),
  ]);
  t = await startTestGateway(ordersEnv(hiper, nuvemshop));
  su = await t.superuserToken();
  tools = orderTools(t, su, hiper, nuvemshop);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([hiper?.close(), nuvemshop?.close()]);
});

const SALES_ORDER = /^\/pedido-de-venda\/?$/;

describe('a send whose outcome is unknown', () => {
  it('a timeout after Hiper accepted: uncertain, never resent by a webhook or a sweep; Já está no Hiper settles it', async () => {
    const c = await tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    // Hiper creates the order, then answers after the gateway's 1.5 s.
    hiper.inject({ method: 'POST', path: SALES_ORDER, afterServing: true, delayMs: 4000 });
    await tools.webhook(c.storeId, 'order/paid', order.id);
    const uncertain = await tools.waitForOrder(c.id, order.id, ['uncertain']);
    expect(uncertain.last_error).toContain('o pedido pode ter sido criado no Hiper');
    expect(c.account.orders).toHaveLength(1);

    await tools.webhook(c.storeId, 'order/updated', order.id);
    await tools.sweepNow(c.id);
    await tools.settled();
    expect((await tools.orderOf(c.id, order.id)).state).toBe('uncertain');
    expect(c.account.orders).toHaveLength(1);

    const hiperId = c.account.orders[0].id;
    const marked = await t.request('POST', `/api/v1/orders/${uncertain.id}/mark-sent`, {
      token: su,
      json: { hiper_order_id: hiperId },
    });
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({ state: 'sent', hiper_order_id: hiperId });
    expect(marked.body.sent_at).not.toBeNull();
    const again = await t.request('POST', `/api/v1/orders/${uncertain.id}/mark-sent`, { token: su });
    expect(again.status).toBe(409);
    expect(c.account.orders).toHaveLength(1);
  });

  it('a 5xx after Hiper accepted, and a connection cut: uncertain; Reenviar is staff’s choice and sends once more', async () => {
    const c = await tools.clientWithCatalogue();
    const first = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    const second = c.store.seedOrder({ lines: [{ variant: c.blue.variant }] });
    hiper.inject({ method: 'POST', path: SALES_ORDER, afterServing: true, status: 503 });
    await tools.webhook(c.storeId, 'order/paid', first.id);
    await tools.waitForOrder(c.id, first.id, ['uncertain']);
    hiper.inject({ method: 'POST', path: SALES_ORDER, afterServing: true, drop: true });
    await tools.webhook(c.storeId, 'order/paid', second.id);
    const cut = await tools.waitForOrder(c.id, second.id, ['uncertain']);
    await tools.settled();
    expect(c.account.orders).toHaveLength(2);

    // Hiper takes a repeated number as a new order: Reenviar makes a second one, as staff chose.
    const resent = await t.graphql('mutation ($id: ID!) { resendOrder(id: $id) { state } }', { id: cut.id }, su);
    expect(resent.body.data.resendOrder.state).toBe('received');
    await tools.waitForOrder(c.id, second.id, ['sent']);
    expect(c.account.ordersNumbered(second.number)).toHaveLength(2);
  });

  it('a 5xx before anything was created is uncertain too (nothing proves otherwise)', async () => {
    const c = await tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    hiper.inject({ method: 'POST', path: SALES_ORDER, status: 500 });
    await tools.webhook(c.storeId, 'order/paid', order.id);
    await tools.waitForOrder(c.id, order.id, ['uncertain']);
    expect(c.account.orders).toHaveLength(0);
  });

  it('an order a dead process left sending becomes uncertain within two minutes, never sent again', async () => {
    const c = await tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    // Sent, then its row put back as a process killed while sending leaves it.
    await tools.webhook(c.storeId, 'order/paid', order.id);
    const sent = await tools.waitForOrder(c.id, order.id, ['sent']);
    await t.sql(
      `update orders set state = 'sending', sent_at = null, hiper_order_id = null,
         sending_since = now() - interval '10 minutes' where id = $1`,
      [sent.id],
    );
    await tools.webhook(c.storeId, 'order/updated', order.id);
    const settled = await tools.waitForOrder(c.id, order.id, ['uncertain'], 80_000);
    expect(settled.last_error).toBe('O envio ao Hiper foi interrompido: o pedido pode ter sido criado no Hiper');
    expect(c.account.orders).toHaveLength(1);
  }, 100_000);
});
