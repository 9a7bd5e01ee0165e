import { describe, expect, it } from 'vitest';
import { orderSuite } from '../support/orders';

/**
 * A send that may have reached Hiper is never sent again by itself: a timeout or a 5xx after Hiper accepted, a
 * connection cut, a process that died while sending. Staff settle it with "Reenviar" or "Já está no Hiper".
 */
const suite = orderSuite();

const SALES_ORDER = /^\/pedido-de-venda\/?$/;

describe('a send whose outcome is unknown', () => {
  it('a timeout after Hiper accepted: uncertain, never resent by a webhook or a sweep; Já está no Hiper settles it', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    // Hiper creates the order, then answers after the gateway's 1.5 s.
    suite.hiper.inject({ method: 'POST', path: SALES_ORDER, afterServing: true, delayMs: 4000 });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const uncertain = await suite.tools.waitForOrder(c.id, order.id, ['uncertain']);
    expect(uncertain.last_error).toContain('o pedido pode ter sido criado no Hiper');
    expect(c.account.orders).toHaveLength(1);

    await suite.tools.webhook(c.storeId, 'order/updated', order.id);
    await suite.tools.sweepNow(c.id);
    await suite.tools.settled();
    expect((await suite.tools.orderOf(c.id, order.id)).state).toBe('uncertain');
    expect(c.account.orders).toHaveLength(1);

    // Hiper's id as staff type it is checked the same through both doors: too long is the caller's mistake (422),
    // the order unchanged.
    const tooLong = 'x'.repeat(65);
    const restRefused = await suite.t.request('POST', `/api/v1/orders/${uncertain.id}/mark-sent`, {
      token: suite.su,
      json: { hiper_order_id: tooLong },
    });
    expect(restRefused.status).toBe(422);
    const gqlRefused = await suite.t.graphql(
      'mutation ($id: ID!, $h: String) { markOrderSent(id: $id, hiper_order_id: $h) { id } }',
      { id: uncertain.id, h: tooLong },
      suite.su,
    );
    expect(gqlRefused.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 422 });
    expect((await suite.tools.orderOf(c.id, order.id)).state).toBe('uncertain');

    const hiperId = c.account.orders[0].id;
    const marked = await suite.t.graphql(
      'mutation ($id: ID!, $h: String) { markOrderSent(id: $id, hiper_order_id: $h) { state hiper_order_id } }',
      { id: uncertain.id, h: `  ${hiperId} ` },
      suite.su,
    );
    expect(marked.body.data.markOrderSent).toMatchObject({ state: 'sent', hiper_order_id: hiperId });
    const read = await suite.t.request('GET', `/api/v1/orders/${uncertain.id}`, {
      token: suite.su,
    });
    expect(read.body).toMatchObject({ state: 'sent', hiper_order_id: hiperId });
    expect(read.body.sent_at).not.toBeNull();
    const again = await suite.t.request('POST', `/api/v1/orders/${uncertain.id}/mark-sent`, {
      token: suite.su,
      json: { hiper_order_id: hiperId },
    });
    expect(again.status).toBe(409);
    expect(c.account.orders).toHaveLength(1);
  });

  it('a 5xx after Hiper accepted, and a connection cut: uncertain; Reenviar is staff’s choice and sends once more', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const first = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    const second = c.store.seedOrder({ lines: [{ variant: c.blue.variant }] });
    suite.hiper.inject({ method: 'POST', path: SALES_ORDER, afterServing: true, status: 503 });
    await suite.tools.webhook(c.storeId, 'order/paid', first.id);
    await suite.tools.waitForOrder(c.id, first.id, ['uncertain']);
    suite.hiper.inject({ method: 'POST', path: SALES_ORDER, afterServing: true, drop: true });
    await suite.tools.webhook(c.storeId, 'order/paid', second.id);
    const cut = await suite.tools.waitForOrder(c.id, second.id, ['uncertain']);
    await suite.tools.settled();
    expect(c.account.orders).toHaveLength(2);

    // Hiper takes a repeated number as a new order: Reenviar makes a second one, as staff chose.
    const resent = await suite.t.graphql(
      'mutation ($id: ID!) { resendOrder(id: $id) { state } }',
      { id: cut.id },
      suite.su,
    );
    expect(resent.body.data.resendOrder.state).toBe('received');
    await suite.tools.waitForOrder(c.id, second.id, ['sent']);
    expect(c.account.ordersNumbered(second.number)).toHaveLength(2);
  });

  it('a 5xx before anything was created is uncertain too (nothing proves otherwise)', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    suite.hiper.inject({ method: 'POST', path: SALES_ORDER, status: 500 });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await suite.tools.waitForOrder(c.id, order.id, ['uncertain']);
    expect(c.account.orders).toHaveLength(0);
  });

  it('an order a dead process left sending becomes uncertain within two minutes, never sent again', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    // Sent, then its row put back as a process killed while sending leaves it.
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const sent = await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    await suite.t.sql(
      `update orders set state = 'sending', sent_at = null, hiper_order_id = null,
         sending_since = now() - interval '10 minutes' where id = $1`,
      [sent.id],
    );
    await suite.tools.webhook(c.storeId, 'order/updated', order.id);
    const settled = await suite.tools.waitForOrder(c.id, order.id, ['uncertain'], 80_000);
    expect(settled.last_error).toBe('O envio ao Hiper foi interrompido: o pedido pode ter sido criado no Hiper');
    expect(c.account.orders).toHaveLength(1);
  }, 100_000);
});
