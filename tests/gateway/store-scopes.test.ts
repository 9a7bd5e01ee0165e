import { describe, expect, it } from 'vitest';
import { orderSuite } from '../support/orders';

/**
 * The permissions (scopes) a store grants the app: kept from the install's token answer, learned from a 403 where the
 * token was typed in, shown on the client, and what lacks one does without rather than failing again and again.
 */
const suite = orderSuite();

const client = async (id: string) => {
  const answer = await suite.t.request('GET', `/api/v1/clients/${id}`, { token: suite.su });
  expect(answer.status).toBe(200);
  return answer.body;
};

/** The store's app installed again through `/callback`, granting what the store's token now has. */
async function install(storeId: number) {
  const code = suite.nuvemshop.installCode(storeId);
  const answer = await suite.t.request('POST', '/api/v1/callback/authorize', { json: { code } });
  expect(answer.status).toBe(200);
}

const routeCount = (storeId: number, route: string) =>
  suite.nuvemshop.requestsOf(storeId).filter((r) => r.route === route).length;

describe('the scopes of an install', () => {
  it('keeps the token answer’s scope, names what the store did not grant, and the orders use contact_identification', async () => {
    const c = await suite.tools.clientWithCatalogue();
    c.store.scopes.delete('read_customers');
    await install(c.storeId);

    expect(await client(c.id)).toMatchObject({
      nuvemshop_scopes:
        'read_products,write_products,read_orders,write_orders,read_locations,write_locations,' +
        'read_fulfillment_orders,write_fulfillment_orders',
      nuvemshop_missing_scopes: 'read_customers',
    });
    const graphql = await suite.t.graphql(
      'query($id: ID!) { Client(id: $id) { nuvemshop_scopes nuvemshop_missing_scopes } }',
      { id: c.id },
      suite.su,
    );
    expect(graphql.body.data.Client.nuvemshop_missing_scopes).toBe('read_customers');

    // Served without `customer`: the buyer's document is the order's own.
    const order = c.store.seedOrder({
      lines: [{ variant: c.shirt.variant }],
      contact_identification: '111.444.777-35',
      customer: { id: 1, name: 'Maria', email: 'maria@example.com', identification: '52998224725', phone: null },
    });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    const [sent] = c.account.ordersNumbered(order.number);
    expect(sent.body.cliente.documento).toBe('11144477735');
  });

  it('a token typed in has no scopes known until the store refuses one; a new token forgets them again', async () => {
    const c = await suite.tools.connectedClient();
    expect(await client(c.id)).toMatchObject({ nuvemshop_scopes: null, nuvemshop_missing_scopes: null });
    c.store.scopes.delete('write_products');
    c.account.add({ nome: 'Camiseta', preco: 50, quantidadeEmEstoque: 10 });
    const run = await suite.tools.syncNow(c.id);
    expect(run).toMatchObject({ state: 'failed' });
    expect(run.errors[0]).toMatchObject({ code: 'nuvemshop_permission_missing' });
    expect((await client(c.id)).nuvemshop_missing_scopes).toBe('write_products');

    const retyped = await suite.t.request('PUT', `/api/v1/clients/${c.id}`, {
      token: suite.su,
      json: { nuvemshop_token: suite.nuvemshop.reinstall(c.storeId) },
    });
    expect(retyped.status).toBe(200);
    expect(retyped.body).toMatchObject({ nuvemshop_scopes: null, nuvemshop_missing_scopes: null });
  });
});

describe('what lacks a scope does without', () => {
  async function sentOrder(options: { locations?: string[]; shape?: '2025-03' } = {}) {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }, { variant: c.blue.variant }], ...options });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    return { c, order, hiperOrder: c.account.ordersNumbered(order.number)[0] };
  }

  it('without write_fulfillment_orders the shipment leaves a readable error, is not asked again, and the client names it', async () => {
    const { c, order, hiperOrder } = await sentOrder({ locations: ['Loja', 'Depósito'] });
    c.store.scopes.delete('write_fulfillment_orders');
    c.account.addOrderEvent(hiperOrder.id, 4);
    await suite.tools.pollStatus();
    const row = await suite.tools.orderOf(c.id, order.id);
    expect(row.state).toBe('sent');
    expect(row.last_error).toBe(
      'A Nuvemshop recusou marcar como enviado: Permissão ausente na Nuvemshop: write_fulfillment_orders ' +
        '(reinstale o app na loja para concedê-la)',
    );
    const asked = routeCount(c.storeId, 'PATCH /orders/{id}/fulfillment-orders/{fo_id}');
    expect(asked).toBe(1);
    await suite.tools.pollStatus();
    await suite.tools.pollStatus();
    expect(routeCount(c.storeId, 'PATCH /orders/{id}/fulfillment-orders/{fo_id}')).toBe(asked);
    expect((await client(c.id)).nuvemshop_missing_scopes).toBe('write_fulfillment_orders');
  });

  it('without read_locations the store counts as one location: the order itself is fulfilled', async () => {
    const { c, order, hiperOrder } = await sentOrder({ locations: ['Loja', 'Depósito'] });
    c.store.scopes.delete('read_locations');
    c.store.scopes.delete('write_locations');
    c.account.addOrderEvent(hiperOrder.id, 4);
    await suite.tools.pollStatus();
    expect((await suite.tools.orderOf(c.id, order.id)).state).toBe('shipped');
    expect(routeCount(c.storeId, 'POST /orders/{id}/fulfill')).toBe(1);
    expect((await client(c.id)).nuvemshop_missing_scopes).toBe('read_locations');
  });

  it('a 2025-03 order whose fulfillment orders cannot be read waits, the scope named, and nothing reaches Hiper', async () => {
    const c = await suite.tools.clientWithCatalogue();
    c.store.scopes.delete('read_fulfillment_orders');
    c.store.scopes.delete('write_fulfillment_orders');
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }], shape: '2025-03' });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const row = await suite.tools.waitForOrder(c.id, order.id, ['held']);
    expect(row.hold_reason).toBe(
      'Frete não lido: Permissão ausente na Nuvemshop: read_fulfillment_orders ' +
        '(reinstale o app na loja para concedê-la e use Reenviar)',
    );
    await suite.tools.settled();
    expect(c.account.ordersNumbered(order.number)).toHaveLength(0);
    expect(routeCount(c.storeId, 'GET /orders/{id}/fulfillment-orders')).toBe(1);
    expect((await client(c.id)).nuvemshop_missing_scopes).toBe('read_fulfillment_orders');
  });
});
