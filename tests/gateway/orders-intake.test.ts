import { describe, expect, it } from 'vitest';
import { deliverWebhook } from '../support/standins/nuvemshop-api';
import { APP_SECRET, orderSuite } from '../support/orders';

/**
 * A store's orders into its Hiper: a real gateway with its pg-boss workers on a real PostgreSQL, against the Hiper and
 * Nuvemshop stand-ins; orders announced by signed webhooks or found by the sweep.
 */
const suite = orderSuite();

describe('a paid order', () => {
  it('reaches Hiper once, field by field, from a signed order/paid answered at once', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({
      lines: [
        { variant: c.shirt.variant, quantity: 2, price: '50.00' },
        { variant: c.blue.variant, quantity: 1, price: '200.00' },
      ],
      discount: '30.00',
      shipping_cost_customer: '15.00',
      payment_details: { method: 'credit_card', credit_card_company: 'visa', installments: '3' },
      note: 'Deixar na portaria',
    });
    expect(order.total).toBe('285.00');

    const started = Date.now();
    expect(await suite.tools.webhook(c.storeId, 'order/paid', order.id)).toBe(200);
    expect(Date.now() - started).toBeLessThan(3000);

    const sent = await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    expect(sent).toMatchObject({
      client_id: c.id,
      number: order.number,
      state: 'sent',
      hold_reason: null,
      payment_status: 'paid',
      total: '285.00',
      customer_name: 'Maria da Silva',
      hiper_order_id: c.account.orders[0].id,
    });
    expect(sent.lines).toEqual([
      { sku: String(c.shirt.hiper.codigo), name: 'Camiseta', quantity: 2, price: '50.00', hiper_id: c.shirt.hiper.id },
      { sku: String(c.blue.hiper.codigo), name: 'Tênis', quantity: 1, price: '200.00', hiper_id: c.blue.hiper.id },
    ]);
    expect(c.account.orders).toHaveLength(1);
    const body = c.account.orders[0].body;
    expect(body).toEqual({
      cliente: {
        documento: '52998224725',
        email: 'maria@example.com',
        inscricaoEstadual: '',
        nomeDoCliente: 'Maria da Silva',
        nomeFantasia: '',
      },
      enderecoDeCobranca: {
        bairro: 'Centro',
        cep: '88010000',
        codigoIbge: 4205407,
        complemento: 'Apto 3',
        logradouro: 'Rua das Palmeiras',
        numero: '120',
      },
      enderecoDeEntrega: {
        bairro: 'Centro',
        cep: '88010000',
        codigoIbge: 4205407,
        complemento: 'Apto 3',
        logradouro: 'Rua das Palmeiras',
        numero: '120',
      },
      // 300.00 gross, 270.00 net: 30.00 off spread in proportion (100 : 200 → 10 : 20).
      itens: [
        { produtoId: c.shirt.hiper.id, quantidade: 2, precoUnitarioBruto: 50, precoUnitarioLiquido: 45 },
        { produtoId: c.blue.hiper.id, quantidade: 1, precoUnitarioBruto: 200, precoUnitarioLiquido: 180 },
      ],
      meiosDePagamento: [{ idMeioDePagamento: 4, parcelas: 3, valor: 285 }],
      numeroPedidoDeVenda: String(order.number),
      observacaoDoPedidoDeVenda: `Nuvemshop #${order.number} (id ${order.id}) — Deixar na portaria`,
      valorDoFrete: 15,
    });

    // Delivered again, and a later order/updated: the same row, nothing sent twice.
    expect(await suite.tools.webhook(c.storeId, 'order/paid', order.id)).toBe(200);
    expect(await suite.tools.webhook(c.storeId, 'order/updated', order.id)).toBe(200);
    await suite.tools.settled();
    expect(c.account.orders).toHaveLength(1);
    const list = await suite.t.request('GET', `/api/v1/orders/?client_id=${c.id}`, { token: suite.su });
    expect(list.body.count).toBe(1);
    const one = await suite.t.request('GET', `/api/v1/orders/${sent.id}`, { token: suite.su });
    expect(one.status).toBe(200);
    expect(one.body.history.map((h: any) => h.state)).toEqual(['received', 'sending', 'sent']);
  });
});

describe('which orders go, and when', () => {
  it('waits while the payment is pending, and sends once it is paid', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }], payment_status: 'pending' });
    expect(await suite.tools.webhook(c.storeId, 'order/created', order.id)).toBe(200);
    await suite.tools.settled();
    expect(await suite.tools.orderOf(c.id, order.id)).toMatchObject({ state: 'received', payment_status: 'pending' });
    expect(c.account.orders).toHaveLength(0);

    c.store.changeOrder(order.id, { payment_status: 'paid' });
    expect(await suite.tools.webhook(c.storeId, 'order/paid', order.id)).toBe(200);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    expect(c.account.orders).toHaveLength(1);
  });

  it('sends an authorized order only for a client that chose authorized', async () => {
    const paidOnly = await suite.tools.clientWithCatalogue();
    const either = await suite.tools.clientWithCatalogue({ orders_send_on: 'authorized' });
    const a = paidOnly.store.seedOrder({ lines: [{ variant: paidOnly.shirt.variant }], payment_status: 'authorized' });
    const b = either.store.seedOrder({ lines: [{ variant: either.shirt.variant }], payment_status: 'authorized' });
    await suite.tools.webhook(paidOnly.storeId, 'order/created', a.id);
    await suite.tools.webhook(either.storeId, 'order/created', b.id);
    await suite.tools.waitForOrder(either.id, b.id, ['sent']);
    await suite.tools.settled();
    expect((await suite.tools.orderOf(paidOnly.id, a.id)).state).toBe('received');
    expect(paidOnly.account.orders).toHaveLength(0);
  });

  it('never sends an order cancelled in the store before it was sent, whatever order its webhooks come in', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    c.store.changeOrder(order.id, { status: 'cancelled', payment_status: 'voided', cancelled_at: order.updated_at });
    // The cancellation's webhook first, then the late order/paid.
    expect(await suite.tools.webhook(c.storeId, 'order/cancelled', order.id)).toBe(200);
    expect(await suite.tools.webhook(c.storeId, 'order/paid', order.id)).toBe(200);
    await suite.tools.waitForOrder(c.id, order.id, ['cancelled']);
    await suite.tools.settled();
    expect((await suite.tools.orderOf(c.id, order.id)).state).toBe('cancelled');
    expect(c.account.orders).toHaveLength(0);
  });

  it('records but does not act on orders of a client whose orders are off', async () => {
    const c = await suite.tools.connectedClient();
    const order = c.store.seedOrder({ lines: [{ variant: 1 }] });
    expect(await suite.tools.webhook(c.storeId, 'order/paid', order.id)).toBe(200);
    const [event] = await suite.t.sql<{ outcome: string; note: string }>(
      `select outcome, note from webhook_events where store_id = $1 and event = 'order/paid'`,
      [c.storeId],
    );
    expect(event).toEqual({ outcome: 'ignored', note: 'Os pedidos estão desligados para este cliente' });
    expect(await suite.tools.orderOf(c.id, order.id)).toBeUndefined();
  });

  it('refuses an unsigned order webhook and one without the order id', async () => {
    const unsigned = await suite.t.request('POST', '/api/v1/webhooks/nuvemshop', {
      json: { store_id: 1, event: 'order/paid', id: 5 },
    });
    expect(unsigned.status).toBe(401);
    const c = await suite.tools.clientWithCatalogue();
    const status = await deliverWebhook(
      `${suite.t.url}/api/v1/webhooks/nuvemshop`,
      { store_id: c.storeId, event: 'order/paid' },
      APP_SECRET,
    );
    expect(status).toBe(422);
  });
});

describe('the sweep', () => {
  it('finds a paid order no webhook announced, registers the order webhooks, and skips orders placed before', async () => {
    const before = await suite.tools.connectedClient();
    const old = before.store.seedOrder({ lines: [{ variant: 1 }] });
    await new Promise((r) => setTimeout(r, 1100));
    const c = await suite.tools.clientWithCatalogue();
    // The same store, its orders turned on now: the order placed before is not sent.
    const turnedOn = await suite.t.request('PUT', `/api/v1/clients/${before.id}`, {
      token: suite.su,
      json: { orders_enabled: true },
    });
    expect(turnedOn.status).toBe(200);
    const read = await suite.t.request('GET', `/api/v1/clients/${before.id}`, { token: suite.su });
    expect(read.body.orders_enabled_at).not.toBeNull();
    const missed = c.store.seedOrder({ lines: [{ variant: c.black.variant, quantity: 2 }] });

    await suite.tools.sweepNow(c.id);
    await suite.tools.sweepNow(before.id);
    const sent = await suite.tools.waitForOrder(c.id, missed.id, ['sent']);
    expect(sent.lines[0]).toMatchObject({ quantity: 2, hiper_id: c.black.hiper.id });
    expect(c.account.orders).toHaveLength(1);
    expect(c.store.webhooks.map((w) => w.event).sort()).toEqual([
      'order/cancelled',
      'order/created',
      'order/paid',
      'order/updated',
    ]);
    expect(c.store.webhooks.every((w) => w.url === 'https://integracao.test/api/v1/webhooks/nuvemshop')).toBe(true);
    expect(await suite.tools.orderOf(before.id, old.id)).toBeUndefined();

    // A second sweep reads from the first one's end (less five minutes): nothing sent again, no webhook twice.
    await suite.tools.sweepNow(c.id);
    expect(c.account.orders).toHaveLength(1);
    expect(c.store.webhooks).toHaveLength(4);
    const sweeps = suite.nuvemshop.requestsOf(c.storeId).filter((r) => r.route === 'GET /orders');
    expect(sweeps.length).toBeGreaterThanOrEqual(2);
    for (const r of sweeps) {
      expect(Number(r.query.per_page)).toBeLessThanOrEqual(200);
      expect(r.query.updated_at_min).toBeDefined();
    }
  });

  it('answers 409 naming what a client lacks to be swept', async () => {
    const bare = await suite.t.request('POST', '/api/v1/clients/', {
      token: suite.su,
      json: { url: 'https://sem-loja.example.com' },
    });
    const asked = await suite.t.request('POST', `/api/v1/clients/${bare.body.id}/orders/sweep`, { token: suite.su });
    expect(asked.status).toBe(409);
    expect(asked.body.detail).toBe('Missing the Hiper token, the Nuvemshop token and the Nuvemshop store id');
  });
});

describe('two stores at once', () => {
  it('sends each store’s orders into its own Hiper, each once', async () => {
    const [a, b] = await Promise.all([suite.tools.clientWithCatalogue(), suite.tools.clientWithCatalogue()]);
    const ordersA = Array.from({ length: 5 }, () => a.store.seedOrder({ lines: [{ variant: a.shirt.variant }] }));
    const ordersB = Array.from({ length: 5 }, () => b.store.seedOrder({ lines: [{ variant: b.blue.variant }] }));
    await Promise.all([
      ...ordersA.map((o) => suite.tools.webhook(a.storeId, 'order/paid', o.id)),
      ...ordersB.map((o) => suite.tools.webhook(b.storeId, 'order/paid', o.id)),
      ...ordersA.map((o) => suite.tools.webhook(a.storeId, 'order/created', o.id)),
    ]);
    for (const o of ordersA) await suite.tools.waitForOrder(a.id, o.id, ['sent']);
    for (const o of ordersB) await suite.tools.waitForOrder(b.id, o.id, ['sent']);
    await suite.tools.settled();
    expect(a.account.orders.map((o) => o.body.numeroPedidoDeVenda).sort()).toEqual(
      ordersA.map((o) => String(o.number)).sort(),
    );
    expect(b.account.orders).toHaveLength(5);
    expect(b.account.orders.every((o) => o.body.itens[0].produtoId === b.blue.hiper.id)).toBe(true);
  });
});
