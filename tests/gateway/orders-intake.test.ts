import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { orderTools, ordersEnv } from '../support/orders';

/**
 * A store's orders into its Hiper: a real gateway with its pg-boss workers on a real PostgreSQL, against the Hiper and
 * Nuvemshop stand-ins; orders announced by signed webhooks or found by the sweep.
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

describe('a paid order', () => {
  it('reaches Hiper once, field by field, from a signed order/paid answered at once', async () => {
    const c = await tools.clientWithCatalogue();
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
    expect(await tools.webhook(c.storeId, 'order/paid', order.id)).toBe(200);
    expect(Date.now() - started).toBeLessThan(3000);

    const sent = await tools.waitForOrder(c.id, order.id, ['sent']);
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
    expect(await tools.webhook(c.storeId, 'order/paid', order.id)).toBe(200);
    expect(await tools.webhook(c.storeId, 'order/updated', order.id)).toBe(200);
    await tools.settled();
    expect(c.account.orders).toHaveLength(1);
    const list = await t.request('GET', `/api/v1/orders/?client_id=${c.id}`, { token: su });
    expect(list.body.count).toBe(1);
    const one = await t.request('GET', `/api/v1/orders/${sent.id}`, { token: su });
    expect(one.status).toBe(200);
    expect(one.body.history.map((h: any) => h.state)).toEqual(['received', 'sending', 'sent']);
  });
});
