import { afterEach, describe, expect, it } from 'vitest';
import { orderSuite } from '../support/orders';
import {
  clientWithTwoLocations,
  rowsOf,
  salesOrdersOf,
  stockAt,
  twoShipmentOrder,
  waitForShipments,
} from '../support/shipments';

/**
 * Each shipment of an order into the Hiper account of the location that ships it, exactly once: one order row per
 * shipment (the row made when the order was first seen becoming the first's), `{number}-{k}` among several, each
 * shipment's own lines, freight and payment share, and every guarantee of an order row held per shipment.
 */
const suite = orderSuite();
const SALES_ORDER = /^\/pedido-de-venda\/?$/;

afterEach(() => {
  suite.hiper.clearFaults();
  suite.hiper.intercept(null);
});

const cents = (value: unknown) => Math.round(Number(value) * 100);

describe('an order the store ships from two locations', () => {
  it('goes into each location’s Hiper account, numbered {number}-{k}, with its own lines, freight and share', async () => {
    const c = await clientWithTwoLocations(suite);
    const order = twoShipmentOrder(c, { discount: '10.00' });
    expect(await suite.tools.webhook(c.storeId, 'order/created', order.id)).toBe(200);
    const [intake] = await rowsOf(suite, c.id, order);
    expect(await suite.tools.webhook(c.storeId, 'order/paid', order.id)).toBe(200);
    const rows = await waitForShipments(suite, c.id, order, 2, ['sent']);
    const [first, second] = c.store.fulfillmentOrders.get(order.id)!;

    // The row made when the order was first seen is the first shipment's.
    expect(rows[0].id).toBe(intake.id);
    expect(rows.map((r) => [r.fulfillment_order_id, r.location_id, r.number])).toEqual([
      [first.id, c.shopRow, order.number],
      [second.id, c.farRow, order.number],
    ]);
    expect(rows.map((r) => r.lines)).toEqual([
      [{ sku: c.shirt.variant.sku, name: 'Camiseta', quantity: 2, price: '50.00', hiper_id: c.shirt.hiper.id }],
      [expect.objectContaining({ sku: c.blue.variant.sku, quantity: 1, price: '200.00', hiper_id: c.blue.hiper.id })],
    ]);

    // The shop's shipment in the client's own account, the warehouse's in its own, with that account's product ids.
    const [shopSale] = salesOrdersOf(c.account, order);
    const [farSale] = salesOrdersOf(c.warehouse, order);
    expect(salesOrdersOf(c.account, order)).toHaveLength(1);
    expect(salesOrdersOf(c.warehouse, order)).toHaveLength(1);
    expect(shopSale.body.numeroPedidoDeVenda).toBe(`${order.number}-1`);
    expect(farSale.body.numeroPedidoDeVenda).toBe(`${order.number}-2`);
    expect(shopSale.body.itens.map((i: any) => [i.produtoId, i.quantidade])).toEqual([[c.shirt.hiper.id, 2]]);
    expect(farSale.body.itens.map((i: any) => [i.produtoId, i.quantidade])).toEqual([[c.warehouseIds.blue, 1]]);
    expect([shopSale.body.valorDoFrete, farSale.body.valorDoFrete]).toEqual([12, 8]);
    expect(rows.map((r) => r.hiper_order_id)).toEqual([shopSale.id, farSale.id]);

    // The discount spread over every line of both: the shares make the order's total to the cent.
    const shares = [shopSale, farSale].map((sale) => cents(sale.body.meiosDePagamento[0].valor));
    expect(shares[0] + shares[1]).toBe(cents(order.total));
    for (const sale of [shopSale, farSale]) {
      const lines = sale.body.itens.reduce(
        (sum: number, i: any) => sum + cents(i.precoUnitarioLiquido) * i.quantidade,
        0,
      );
      expect(lines + cents(sale.body.valorDoFrete)).toBe(cents(sale.body.meiosDePagamento[0].valor));
    }
    expect(rows.map((r) => cents(r.total))).toEqual(shares);
  });

  it('a store with several locations shipping from one: the order’s own number, its shipment on the row', async () => {
    const c = await clientWithTwoLocations(suite);
    stockAt(c.store, c.shirt.variant.id, { [c.far.id]: 5 });
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant, quantity: 2 }], shape: '2025-03' });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const [row] = await waitForShipments(suite, c.id, order, 1, ['sent']);
    const [fo] = c.store.fulfillmentOrders.get(order.id)!;
    expect(row).toMatchObject({ fulfillment_order_id: fo.id, location_id: c.farRow, total: order.total });
    const [sale] = salesOrdersOf(c.warehouse, order);
    expect(sale.body).toMatchObject({ numeroPedidoDeVenda: String(order.number), valorDoFrete: 15 });
    expect(sale.body.itens[0].produtoId).toBe(c.warehouseIds.shirt);
    expect(salesOrdersOf(c.account, order)).toHaveLength(0);
  });

  it('is split once and sent once per shipment, however often its webhooks and the sweep meet it', async () => {
    const c = await clientWithTwoLocations(suite);
    const order = twoShipmentOrder(c);
    await Promise.all(
      ['order/created', 'order/paid', 'order/paid', 'order/updated', 'order/paid'].map((event) =>
        suite.tools.webhook(c.storeId, event, order.id),
      ),
    );
    await suite.tools.sweepNow(c.id);
    await Promise.all(['order/paid', 'order/updated'].map((event) => suite.tools.webhook(c.storeId, event, order.id)));
    await suite.tools.sweepNow(c.id);
    const rows = await waitForShipments(suite, c.id, order, 2, ['sent']);
    await suite.tools.settled();
    expect(await rowsOf(suite, c.id, order)).toHaveLength(2);
    expect(new Set(rows.map((r) => r.fulfillment_order_id)).size).toBe(2);
    expect(salesOrdersOf(c.account, order)).toHaveLength(1);
    expect(salesOrdersOf(c.warehouse, order)).toHaveLength(1);
  });

  it('reads each shipment’s order with its fulfillment orders in one request; a store refusing that asks apart', async () => {
    const c = await clientWithTwoLocations(suite);
    const order = twoShipmentOrder(c);
    const mark = suite.nuvemshop.requestsOf(c.storeId).length;
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await waitForShipments(suite, c.id, order, 2, ['sent']);
    await suite.tools.settled();
    const reads = suite.nuvemshop
      .requestsOf(c.storeId)
      .slice(mark)
      .filter((r) => r.route?.startsWith('GET /orders/{id}'));
    expect(reads.map((r) => r.route)).not.toContain('GET /orders/{id}/fulfillment-orders');
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect(read.query.aggregates).toBe('fulfillment_orders');

    // A store answering 403 to the embedded read: the plain read and the list apart, no scope said to be missing.
    const other = twoShipmentOrder(c);
    const before = suite.nuvemshop.requestsOf(c.storeId).length;
    suite.nuvemshop.inject({ method: 'GET', path: `/orders/${other.id}`, store: c.storeId, status: 403 });
    await suite.tools.webhook(c.storeId, 'order/paid', other.id);
    await waitForShipments(suite, c.id, other, 2, ['sent']);
    const asked = suite.nuvemshop.requestsOf(c.storeId).slice(before);
    expect(asked.filter((r) => r.status === 403).map((r) => r.query.aggregates)).toEqual(['fulfillment_orders']);
    expect(asked.map((r) => r.route)).toContain('GET /orders/{id}/fulfillment-orders');
    expect(salesOrdersOf(c.account, other)).toHaveLength(1);
    expect(salesOrdersOf(c.warehouse, other)).toHaveLength(1);
    const [client] = await suite.t.sql<{ nuvemshop_missing_scopes: string | null }>(
      `select nuvemshop_missing_scopes from clients where id = $1`,
      [c.id],
    );
    expect(client.nuvemshop_missing_scopes).toBeNull();
  });

  it('a SKU the warehouse’s Hiper does not have holds that shipment alone, saying so; Reenviar sends it once added', async () => {
    const c = await clientWithTwoLocations(suite);
    stockAt(c.store, c.shirt.variant.id, { [c.shop.id]: 10 });
    stockAt(c.store, c.black.variant.id, { [c.far.id]: 10 });
    // The warehouse's grade removed in its Hiper: its variations go with it.
    c.warehouse.remove(c.warehouse.product(c.warehouseIds.black).produtoPrimarioId);
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }, { variant: c.black.variant }] });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await suite.tools.settled();
    const rows = await waitForShipments(suite, c.id, order, 2, ['sent', 'held']);
    expect(rows.map((r) => r.state)).toEqual(['sent', 'held']);
    expect(rows[1].hold_reason).toBe(`Produto sem cadastro no Hiper do estoque Depósito Sul: ${c.black.variant.sku}`);
    expect(salesOrdersOf(c.warehouse, order)).toHaveLength(0);

    const again = c.warehouse.add({
      nome: 'Tênis preto',
      preco: 200,
      variacao: [
        { codigo: c.black.hiper.codigo, nomeVariacaoA: 'Preto', tipoVariacaoA: 'Cor', quantidadeEmEstoque: 2 },
      ],
    });
    expect((await suite.t.request('POST', `/api/v1/orders/${rows[1].id}/resend`, { token: suite.su })).status).toBe(
      202,
    );
    await waitForShipments(suite, c.id, order, 2, ['sent']);
    const [sale] = salesOrdersOf(c.warehouse, order);
    expect(sale.body.itens[0].produtoId).toBe(again.variacao![0].id);
    expect(salesOrdersOf(c.account, order)).toHaveLength(1);
  });

  it('a warehouse key Hiper refuses holds its shipment, naming the location', async () => {
    const c = await clientWithTwoLocations(suite);
    suite.hiper.refuseKey(c.warehouse.key);
    const order = twoShipmentOrder(c);
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await suite.tools.settled();
    const rows = await waitForShipments(suite, c.id, order, 2, ['sent', 'held']);
    expect(rows.map((r) => r.state)).toEqual(['sent', 'held']);
    expect(rows[1].hold_reason).toBe(
      'Chave do Hiper do estoque Depósito Sul recusada pelo Hiper: corrija-a em Estoques e use Reenviar.',
    );
  });

  it('a shipment whose send may have reached Hiper waits, uncertain, alone; Já está no Hiper settles it', async () => {
    const c = await clientWithTwoLocations(suite);
    const order = twoShipmentOrder(c);
    // The warehouse's sales order is made, and its answer lost.
    let posts = 0;
    suite.hiper.intercept((request, phase) => {
      if (phase === 'received' && request.method === 'POST' && SALES_ORDER.test(request.path)) posts++;
    });
    suite.hiper.inject({ method: 'POST', path: SALES_ORDER, status: 503, afterServing: true, times: 1 });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await suite.tools.settled();
    const rows = await waitForShipments(suite, c.id, order, 2, ['sent', 'uncertain']);
    const uncertain = rows.find((r) => r.state === 'uncertain')!;
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(1);
    // Never sent again by itself, whatever meets it.
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await suite.tools.sweepNow(c.id);
    expect(posts).toBe(2);
    const account = uncertain.location_id === c.farRow ? c.warehouse : c.account;
    const [made] = salesOrdersOf(account, order);
    const marked = await suite.t.request('POST', `/api/v1/orders/${uncertain.id}/mark-sent`, {
      token: suite.su,
      json: { hiper_order_id: made.id },
    });
    expect(marked.status).toBe(200);
    await waitForShipments(suite, c.id, order, 2, ['sent']);
    expect(salesOrdersOf(c.account, order)).toHaveLength(1);
    expect(salesOrdersOf(c.warehouse, order)).toHaveLength(1);
  });

  it('a client with one location keeps one row per order, sent whole into its own account as before', async () => {
    const c = await suite.tools.clientWithCatalogue();
    await suite.t.sql(
      `insert into locations (id, client_id, nuvemshop_location_id, name, is_default, created_at, updated_at)
       values (gen_random_uuid(), $1, $2, 'Loja', true, now(), now())`,
      [c.id, c.store.locations[0].id],
    );
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }, { variant: c.blue.variant }] });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const [row] = await waitForShipments(suite, c.id, order, 1, ['sent']);
    expect(row).toMatchObject({ fulfillment_order_id: null, location_id: null, total: order.total });
    expect(c.account.ordersNumbered(order.number)).toHaveLength(1);
    const routes = suite.nuvemshop.requestsOf(c.storeId).map((r) => r.route);
    expect(routes).not.toContain('GET /orders/{id}/fulfillment-orders');
  });
});
