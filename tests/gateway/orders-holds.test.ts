import { describe, expect, it } from 'vitest';
import { orderSuite } from '../support/orders';

/**
 * Orders that cannot be sent wait for a person with a reason they can act on; once the store, a link, a setting or
 * Hiper is fixed, "Reenviar" sends them. Against the stand-ins, through REST and GraphQL.
 */
const suite = orderSuite();

const resend = (id: string) => suite.t.request('POST', `/api/v1/orders/${id}/resend`, { token: suite.su });

describe('each hold reason, then fixed and resent', () => {
  it('a CPF whose check digits fail: held, fixed in the store, resent', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    c.store.changeOrder(order.id, {
      customer: { ...order.customer!, identification: '529.982.247-24' },
      contact_identification: '529.982.247-24',
    });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const held = await suite.tools.waitForOrder(c.id, order.id, ['held']);
    expect(held.hold_reason).toBe('CPF/CNPJ ausente ou inválido');
    expect(c.account.orders).toHaveLength(0);

    // Nothing changes by itself: a sweep meets it held again.
    await suite.tools.sweepNow(c.id);
    expect((await suite.tools.orderOf(c.id, order.id)).state).toBe('held');

    // A CNPJ whose check digits hold is as good as a CPF.
    c.store.changeOrder(order.id, { customer: { ...order.customer!, identification: '11.222.333/0001-81' } });
    const answer = await resend(held.id);
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ id: held.id, state: 'received', hold_reason: null });
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    expect(c.account.orders).toHaveLength(1);
    expect(c.account.orders[0].body.cliente.documento).toBe('11222333000181');
  });

  it('a missing CPF is held the same way', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({
      lines: [{ variant: c.shirt.variant }],
      customer: null,
      contact_identification: null,
    });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    expect((await suite.tools.waitForOrder(c.id, order.id, ['held'])).hold_reason).toBe('CPF/CNPJ ausente ou inválido');
  });

  it('a city without an IBGE code: held quoting the order, fixed, resent; accents, case and UF ignored', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({
      lines: [{ variant: c.shirt.variant }],
      shipping_address: { city: 'Cidade Que Não Existe', province: 'SP' },
      billing_address: null,
      billing_city: null,
    });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const held = await suite.tools.waitForOrder(c.id, order.id, ['held']);
    expect(held.hold_reason).toBe('Município sem código IBGE: Cidade Que Não Existe/SP');

    c.store.changeOrder(order.id, {
      shipping_address: { ...order.shipping_address, city: 'sao paulo', province: 'SP' },
    });
    expect((await resend(held.id)).status).toBe(202);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    const body = c.account.orders[0].body;
    // Billing falls back to the shipping address.
    expect(body.enderecoDeEntrega.codigoIbge).toBe(3550308);
    expect(body.enderecoDeCobranca).toEqual(body.enderecoDeEntrega);
  });

  it('a line without a product link holds the order (never dropped), until a run links it', async () => {
    const c = await suite.tools.clientWithCatalogue();
    // A product the store holds under a code Hiper does not have yet.
    const loose = c.store.seedProduct({ name: 'Avulso', variants: [{ sku: '987654', price: '12.00', stock: 3 }] });
    const order = c.store.seedOrder({
      lines: [{ variant: c.shirt.variant }, { variant: loose.variants[0], quantity: 2 }],
    });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const held = await suite.tools.waitForOrder(c.id, order.id, ['held']);
    expect(held.hold_reason).toBe('Produto sem vínculo: 987654');
    expect(held.lines.map((l: any) => [l.sku, l.hiper_id])).toEqual([
      [String(c.shirt.hiper.codigo), c.shirt.hiper.id],
      ['987654', null],
    ]);

    // Hiper gets the product under that code; the next run adopts the store's product and links it.
    const adopted = c.account.add({ codigo: 987654, nome: 'Avulso', preco: 12, quantidadeEmEstoque: 3 });
    expect((await suite.tools.syncNow(c.id)).state).toBe('succeeded');
    expect((await resend(held.id)).status).toBe(202);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    expect(c.account.orders[0].body.itens.map((i: any) => [i.produtoId, i.quantidade])).toEqual([
      [c.shirt.hiper.id, 1],
      [adopted.id, 2],
    ]);
  });

  it('a payment method without a Hiper id: held, mapped in the client, resent (GraphQL)', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({
      lines: [{ variant: c.shirt.variant }],
      payment_details: { method: 'boleto', credit_card_company: null, installments: null },
    });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const held = await suite.tools.waitForOrder(c.id, order.id, ['held']);
    expect(held.hold_reason).toBe('Meio de pagamento sem código no Hiper: boleto');

    const changed = await suite.t.request('PUT', `/api/v1/clients/${c.id}`, {
      token: suite.su,
      json: { orders_payment_ids: { credit_card: 4, debit_card: 5, pix: 12, boleto: 1 } },
    });
    expect(changed.status).toBe(200);
    const answer = await suite.t.graphql(
      'mutation ($id: ID!) { resendOrder(id: $id) { id state hold_reason } }',
      { id: held.id },
      suite.su,
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.resendOrder).toEqual({ id: held.id, state: 'received', hold_reason: null });
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    expect(c.account.orders[0].body.meiosDePagamento).toEqual([{ idMeioDePagamento: 1, parcelas: 1, valor: 65 }]);
  });

  it('a refusal by Hiper with its errors: held with Hiper’s message, nothing created, resent once Hiper accepts', async () => {
    const c = await suite.tools.clientWithCatalogue();
    c.account.refuseOrders = ['Produto inativo no Hiper'];
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const held = await suite.tools.waitForOrder(c.id, order.id, ['held']);
    expect(held.hold_reason).toBe('Produto inativo no Hiper');
    expect(c.account.orders).toHaveLength(0);

    c.account.refuseOrders = null;
    expect((await resend(held.id)).status).toBe(202);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    expect(c.account.orders).toHaveLength(1);
  });
});

describe('the actions’ refusals', () => {
  it('answers 409 to Reenviar on a sent order and to Já está no Hiper on one not uncertain, 404 to an unknown one', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const sent = await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    const again = await resend(sent.id);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('Order cannot be sent in its state');
    const marked = await suite.t.request('POST', `/api/v1/orders/${sent.id}/mark-sent`, { token: suite.su, json: {} });
    expect(marked.status).toBe(409);
    const gql = await suite.t.graphql('mutation ($id: ID!) { resendOrder(id: $id) { id } }', { id: sent.id }, suite.su);
    expect(gql.body.errors[0].message).toBe('Order cannot be sent in its state');
    const unknown = await resend('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe('Order not found');
    expect(c.account.orders).toHaveLength(1);
  });

  it('lists orders by state and finds one by number, buyer or SKU', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({
      lines: [{ variant: c.black.variant }],
      customer: { id: 1, name: 'Joana Prado', email: 'j@example.com', identification: '52998224725', phone: null },
    });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    for (const q of [String(order.number), 'Joana', String(c.black.hiper.codigo)]) {
      const found = await suite.t.request('GET', `/api/v1/orders/?client_id=${c.id}&q=${encodeURIComponent(q)}`, {
        token: suite.su,
      });
      expect(found.body.data.map((o: any) => o.nuvemshop_order_id)).toEqual([order.id]);
    }
    const bySent = await suite.t.request('GET', `/api/v1/orders/?client_id=${c.id}&state=sent`, { token: suite.su });
    expect(bySent.body.count).toBe(1);
    const byHeld = await suite.t.request('GET', `/api/v1/orders/?client_id=${c.id}&state=held`, { token: suite.su });
    expect(byHeld.body.count).toBe(0);
  });
});
