import { describe, expect, it } from 'vitest';
import { orderSuite } from '../support/orders';

/**
 * Orders as Nuvemshop's 2025-03 Order API serves them beside the older shape: freight on the fulfillment orders, a
 * company buyer's legal name and state registration, the buyer's document on the order when `customer` is absent.
 */
const suite = orderSuite();
const cents = (value: number) => Math.round(value * 100);

/** The lines' net total plus the freight, in cents: what must equal the order's total. */
const charged = (body: Record<string, any>) =>
  body.itens.reduce((sum: number, i: any) => sum + cents(i.precoUnitarioLiquido) * i.quantidade, 0) +
  cents(body.valorDoFrete);

describe('the freight', () => {
  it.each(['2023', '2025-03'] as const)(
    'is the freight the buyer paid, never folded into the items, in the %s shape',
    async (shape) => {
      const c = await suite.tools.clientWithCatalogue();
      const order = c.store.seedOrder({
        shape,
        lines: [
          { variant: c.shirt.variant, quantity: 2, price: '50.00' },
          { variant: c.blue.variant, quantity: 1, price: '200.00' },
        ],
        discount: '30.00',
        shipping_cost_customer: '25.00',
      });
      expect(order.total).toBe('295.00');
      const served = await fetch(`${suite.nuvemshop.url}/${c.storeId}/orders/${order.id}`, {
        headers: { Authentication: `bearer ${c.store.token}`, 'User-Agent': 'Testes (tests@example.com)' },
      }).then((r) => r.json());
      expect('shipping_cost_customer' in served).toBe(shape === '2023');

      await suite.tools.webhook(c.storeId, 'order/paid', order.id);
      await suite.tools.waitForOrder(c.id, order.id, ['sent']);
      const body = c.account.ordersNumbered(order.number)[0].body;
      expect(body.valorDoFrete).toBe(25);
      expect(body.itens.map((i: any) => i.precoUnitarioLiquido)).toEqual([45, 180]);
      expect(charged(body)).toBe(cents(295));
    },
  );

  it('sums the fulfillment orders of an order split over two locations', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({
      shape: '2025-03',
      locations: ['Loja', 'Depósito Sul'],
      lines: [
        { variant: c.shirt.variant, quantity: 1, price: '50.00' },
        { variant: c.blue.variant, quantity: 1, price: '200.00' },
      ],
      shipping_cost_customer: '20.00',
    });
    // Freight on both: 12.50 and 7.50.
    const [first, second] = c.store.fulfillmentOrders.get(order.id)!;
    first.shipping.consumer_cost.value = 12.5;
    second.shipping.consumer_cost.value = 7.5;
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    const body = c.account.ordersNumbered(order.number)[0].body;
    expect(body.valorDoFrete).toBe(20);
    expect(charged(body)).toBe(cents(Number(order.total)));
  });
});

describe('the buyer', () => {
  it('a company: its legal name, trade name and state registration reach Hiper', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({
      shape: '2025-03',
      lines: [{ variant: c.shirt.variant }],
      customer: null,
      contact_identification: '11.222.333/0001-81',
      contact_name: 'João Compras',
      billing_customer_type: 'company',
      billing_business_name: 'Comercial Exemplo Ltda',
      billing_trade_name: 'Exemplo Materiais',
      billing_state_registration: '251.234.567',
    });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    expect(c.account.ordersNumbered(order.number)[0].body.cliente).toEqual({
      documento: '11222333000181',
      email: 'maria@example.com',
      inscricaoEstadual: '251.234.567',
      nomeDoCliente: 'Comercial Exemplo Ltda',
      nomeFantasia: 'Exemplo Materiais',
    });
  });

  it('a person keeps their name and an empty state registration', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ shape: '2025-03', lines: [{ variant: c.shirt.variant }] });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    expect(c.account.ordersNumbered(order.number)[0].body.cliente).toMatchObject({
      documento: '52998224725',
      inscricaoEstadual: '',
      nomeDoCliente: 'Maria da Silva',
      nomeFantasia: '',
    });
  });

  it('without `customer` (no read_customers scope) the order’s contact_identification is used; none holds it', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const known = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }], customer: null });
    await suite.tools.webhook(c.storeId, 'order/paid', known.id);
    await suite.tools.waitForOrder(c.id, known.id, ['sent']);
    expect(c.account.ordersNumbered(known.number)[0].body.cliente.documento).toBe('52998224725');

    const unknown = c.store.seedOrder({
      lines: [{ variant: c.shirt.variant }],
      customer: null,
      contact_identification: null,
    });
    await suite.tools.webhook(c.storeId, 'order/paid', unknown.id);
    const held = await suite.tools.waitForOrder(c.id, unknown.id, ['held']);
    expect(held.hold_reason).toBe('CPF/CNPJ ausente ou inválido');
  });
});
