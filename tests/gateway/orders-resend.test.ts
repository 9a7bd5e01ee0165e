import { describe, expect, it } from 'vitest';
import { orderSuite } from '../support/orders';

/**
 * Staff decide before they resend: a rejected order's sales order is cancelled in Hiper before it is sent again (or
 * nothing is resent), "Já está no Hiper" takes Hiper's id and the order is then read like any other, and a Hiper id
 * is an id, never a path. Against the Hiper and Nuvemshop stand-ins.
 */
const suite = orderSuite();

const SALES_ORDER = /^\/pedido-de-venda\/?$/;
const CANCEL = /^\/pedido-de-venda\/cancelar\//;
const KEY = '42241112345678000190550010000001231000001234';

async function rejectedOrder() {
  const c = await suite.tools.clientWithCatalogue();
  const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
  await suite.tools.webhook(c.storeId, 'order/paid', order.id);
  await suite.tools.waitForOrder(c.id, order.id, ['sent']);
  const first = c.account.orders[0];
  c.account.setOrderSituation(first.id, 3);
  await suite.tools.pollStatus();
  const rejected = await suite.tools.orderOf(c.id, order.id);
  expect(rejected.state).toBe('rejected');
  return { c, order, first, rejected };
}

/** An order whose send timed out after Hiper created the sales order. */
async function uncertainOrder() {
  const c = await suite.tools.clientWithCatalogue();
  const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
  suite.hiper.inject({ method: 'POST', path: SALES_ORDER, afterServing: true, delayMs: 4000 });
  await suite.tools.webhook(c.storeId, 'order/paid', order.id);
  const uncertain = await suite.tools.waitForOrder(c.id, order.id, ['uncertain']);
  await suite.tools.settled();
  return { c, order, uncertain };
}

const markSent = (id: string, json?: unknown) =>
  suite.t.request('POST', `/api/v1/orders/${id}/mark-sent`, { token: suite.su, ...(json ? { json } : {}) });

const markSentByGraphql = (id: string, hiperOrderId?: string | null) =>
  suite.t.graphql(
    'mutation ($id: ID!, $h: String) { markOrderSent(id: $id, hiper_order_id: $h) { state hiper_order_id } }',
    { id, h: hiperOrderId },
    suite.su,
  );

describe('Reenviar on a rejected order', () => {
  it('cancels the rejected sales order in Hiper before sending it again: one open sales order remains', async () => {
    const { c, order, first, rejected } = await rejectedOrder();
    const seenBefore = suite.hiper.requests.length;
    const resent = await suite.t.request('POST', `/api/v1/orders/${rejected.id}/resend`, { token: suite.su });
    expect(resent.status, resent.text).toBe(202);
    const sent = await suite.tools.waitForOrder(c.id, order.id, ['sent']);

    const after = suite.hiper.requests.slice(seenBefore);
    const cancelAt = after.findIndex((r) => r.method === 'PUT' && r.path === `/pedido-de-venda/cancelar/${first.id}`);
    const postAt = after.findIndex((r) => r.method === 'POST' && SALES_ORDER.test(r.path));
    expect(cancelAt).toBeGreaterThanOrEqual(0);
    expect(postAt).toBeGreaterThan(cancelAt);
    expect(first.cancelRequests).toBe(1);
    const open = c.account.ordersNumbered(order.number).filter((o) => !o.cancelado);
    expect(open).toHaveLength(1);
    expect(sent.hiper_order_id).toBe(open[0].id);
    const read = await suite.t.request('GET', `/api/v1/orders/${rejected.id}`, { token: suite.su });
    expect(read.body.history.map((h: { note: string }) => h.note)).toContain(
      `Reenviado pela equipe (estava “Rejeitado”): pedido de venda ${first.id} cancelado no Hiper antes`,
    );
  });

  it('resends nothing when Hiper refuses the cancel or cannot be reached, and says why', async () => {
    const { c, first, rejected } = await rejectedOrder();
    suite.hiper.inject({
      method: 'PUT',
      path: CANCEL,
      status: 200,
      body: { errors: ['Pedido de venda já faturado'], message: null },
    });
    const refused = await suite.t.request('POST', `/api/v1/orders/${rejected.id}/resend`, { token: suite.su });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('Hiper refused to cancel the rejected sales order; nothing was resent');
    let now = (await suite.t.request('GET', `/api/v1/orders/${rejected.id}`, { token: suite.su })).body;
    expect(now.state).toBe('rejected');
    expect(now.hiper_order_id).toBe(first.id);
    expect(now.last_error).toBe(
      `Hiper recusou o cancelamento do pedido de venda ${first.id}: Pedido de venda já faturado. Nada foi reenviado`,
    );

    suite.hiper.inject({ method: 'PUT', path: CANCEL, drop: true, times: 5 });
    const unreachable = await suite.t.graphql(
      'mutation ($id: ID!) { resendOrder(id: $id) { state } }',
      { id: rejected.id },
      suite.su,
    );
    expect(unreachable.body.errors[0]).toMatchObject({
      message: 'Could not reach Hiper to cancel the rejected sales order; nothing was resent',
      extensions: { status: 502 },
    });
    suite.hiper.clearFaults();
    now = (await suite.t.request('GET', `/api/v1/orders/${rejected.id}`, { token: suite.su })).body;
    expect(now.state).toBe('rejected');
    expect(now.last_error).toContain('Não foi possível pedir ao Hiper o cancelamento');
    await suite.tools.settled();
    expect(c.account.orders).toHaveLength(1);
    expect(first.cancelado).toBe(false);
  });
});

describe('Já está no Hiper', () => {
  it('asks for Hiper’s id (422 without it, through both doors), then reads the order’s NF-e like any other', async () => {
    const { c, order, uncertain } = await uncertainOrder();
    for (const json of [undefined, {}, { hiper_order_id: null }]) {
      const refused = await markSent(uncertain.id, json);
      expect(refused.status).toBe(422);
      expect(refused.body.detail).toEqual([
        expect.objectContaining({
          type: 'missing',
          loc: ['body', 'hiper_order_id'],
          msg: "Hiper's id of the sales order is required: find the order in Hiper's sales orders by its number",
        }),
      ]);
    }
    const gql = await markSentByGraphql(uncertain.id);
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 422 });
    expect(gql.body.errors[0].extensions.detail[0].msg).toContain("Hiper's id of the sales order is required");
    expect((await suite.tools.orderOf(c.id, order.id)).state).toBe('uncertain');

    const hiperOrder = c.account.orders[0];
    const marked = await markSent(uncertain.id, { hiper_order_id: hiperOrder.id });
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({ state: 'sent', hiper_order_id: hiperOrder.id });
    c.account.addOrderEvent(hiperOrder.id, 3, { chaveDocumentoFiscal: KEY, urlArquivoXml: null });
    await suite.tools.pollStatus();
    expect(await suite.tools.orderOf(c.id, order.id)).toMatchObject({ state: 'invoiced', nfe_key: KEY });
    const already = await markSent(uncertain.id, { hiper_order_id: hiperOrder.id });
    expect(already.status).toBe(409);
  });

  it('refuses what is not an id (a path, a NUL) with a 4xx, and changes nothing', async () => {
    const { c, order, uncertain } = await uncertainOrder();
    const before = (await suite.t.request('GET', `/api/v1/orders/${uncertain.id}`, { token: suite.su })).body;
    for (const bad of ['..', 'a/b', 'a\u0000b', '\u0000', '../../produtos', 'x'.repeat(65), '']) {
      const rest = await markSent(uncertain.id, { hiper_order_id: bad });
      expect(rest.status, JSON.stringify(bad)).toBe(422);
      expect(rest.body.detail[0]).toMatchObject({
        loc: ['body', 'hiper_order_id'],
        msg: "Hiper's id of a sales order is 1 to 64 letters, digits, '-' or '_'",
      });
      const gql = await markSentByGraphql(uncertain.id, bad);
      expect(gql.body.errors[0].extensions, JSON.stringify(bad)).toMatchObject({ status: 422 });
    }
    // A NUL in the order's own id is the caller's mistake too.
    const nulPath = await suite.t.request('POST', '/api/v1/orders/%00/mark-sent', {
      token: suite.su,
      json: { hiper_order_id: 'abc' },
    });
    expect(nulPath.status).toBeGreaterThanOrEqual(400);
    expect(nulPath.status).toBeLessThan(500);
    const after = (await suite.t.request('GET', `/api/v1/orders/${uncertain.id}`, { token: suite.su })).body;
    expect(after).toEqual(before);
    expect((await suite.tools.orderOf(c.id, order.id)).state).toBe('uncertain');
  });
});

describe('a Hiper id kept from before ids were checked', () => {
  it('is never put in a Hiper path: the order is not read, and says why', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const sent = await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    for (const bad of ['..', 'a/b']) {
      await suite.t.sql(`update orders set hiper_order_id = $2 where id = $1`, [sent.id, bad]);
      const seenBefore = suite.hiper.requests.length;
      await suite.tools.pollStatus();
      const asked = suite.hiper.requests.slice(seenBefore).filter((r) => !r.path.startsWith('/auth/'));
      // Other clients' orders are read too; none of these calls is anything but one order's events.
      expect(asked.every((r) => r.method === 'GET' && /^\/pedido-de-venda\/eventos\/[\w-]+$/.test(r.path))).toBe(true);
      const now = await suite.tools.orderOf(c.id, order.id);
      expect(now.state).toBe('sent');
      expect(now.last_error).toBe(
        `O ID no Hiper deste pedido não é um ID válido (${JSON.stringify(bad)}): nada foi pedido ao Hiper`,
      );
    }
  });
});
