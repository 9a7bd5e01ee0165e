import { describe, expect, it } from 'vitest';
import { levelsByName, placeLocations } from '../support/locations';
import { orderSuite } from '../support/orders';

/**
 * Reservations per location: an order's units are held back from the location its shipment is assigned to (an order
 * row without one, at the store's default location) until it is released or cancelled, never below 0; each value
 * written says why, naming the order that reserved or released it.
 */
const suite = orderSuite();

async function movementsOf(clientId: string, sku: string | number, locationId: string) {
  const list = await suite.t.request(
    'GET',
    `/api/v1/stock-movements/?client_id=${clientId}&location_id=${locationId}&sku=${sku}`,
    { token: suite.su },
  );
  expect(list.status, list.text).toBe(200);
  return (list.body.data as any[]).map((m) => [m.value, m.previous, m.reason, m.order_id]);
}

describe('an order at a client with several locations', () => {
  it('holds its units at the location that ships it until it is released or cancelled, never below 0', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const [shop, warehouse] = await placeLocations(suite.t, suite.su, suite.hiper, c, [
      { name: 'Loja', feed: 'client' },
      { name: 'Depósito', feed: 'own', stockOf: (codigo) => (codigo === c.shirt.hiper.codigo ? 6 : 1) },
    ]);
    await suite.tools.syncNow(c.id, 'stock');
    expect(levelsByName(c.store, c.shirt.hiper.codigo)).toEqual({ Loja: 10, Depósito: 6 });

    // A one-location order row (no shipment's location) holds its units at the store's default location.
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant, quantity: 3 }] });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const row = await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    c.account.setStock(c.shirt.hiper.id, 10);
    warehouse.account!.setStock(c.shirt.hiper.codigo, 6);
    await suite.tools.syncNow(c.id, 'stock');
    expect(levelsByName(c.store, c.shirt.hiper.codigo)).toEqual({ Loja: 7, Depósito: 6 });
    expect((await movementsOf(c.id, c.shirt.hiper.codigo, shop.id))[0]).toEqual([7, 10, 'reserved', row.id]);

    // An order shipped from the warehouse (its fulfillment order assigned there): held there, the shop's kept.
    const fromWarehouse = c.store.seedOrder({
      lines: [{ variant: c.shirt.variant, quantity: 3 }],
      locations: [warehouse.name],
    });
    await suite.tools.webhook(c.storeId, 'order/paid', fromWarehouse.id);
    const shipped = await suite.tools.waitForOrder(c.id, fromWarehouse.id, ['sent']);
    expect(shipped.location_id).toBe(warehouse.id);
    c.account.setStock(c.shirt.hiper.id, 10);
    warehouse.account!.setStock(c.shirt.hiper.codigo, 2);
    await suite.tools.syncNow(c.id, 'stock');
    // Never below 0: 2 in the warehouse's Hiper, 3 sold from there.
    expect(levelsByName(c.store, c.shirt.hiper.codigo)).toEqual({ Loja: 7, Depósito: 0 });
    expect((await movementsOf(c.id, c.shirt.hiper.codigo, warehouse.id))[0]).toEqual([0, 6, 'reserved', shipped.id]);

    // Cancelled: the warehouse's units are its own again at its next write.
    c.store.changeOrder(fromWarehouse.id, { status: 'cancelled' });
    await suite.tools.webhook(c.storeId, 'order/cancelled', fromWarehouse.id);
    await suite.tools.waitForOrder(c.id, fromWarehouse.id, ['cancelled']);
    warehouse.account!.setStock(c.shirt.hiper.codigo, 5);
    await suite.tools.syncNow(c.id, 'stock');
    expect(levelsByName(c.store, c.shirt.hiper.codigo)).toEqual({ Loja: 7, Depósito: 5 });
    expect((await movementsOf(c.id, c.shirt.hiper.codigo, warehouse.id))[0]).toEqual([5, 0, 'released', shipped.id]);
  });

  it('releases a location’s units at the client’s release point, the shop keeping its own', async () => {
    const c = await suite.tools.clientWithCatalogue({ orders_release_on: 'processed' });
    const [, warehouse] = await placeLocations(suite.t, suite.su, suite.hiper, c, [
      { name: 'Loja', feed: 'client' },
      { name: 'Depósito', feed: 'own', stockOf: () => 4 },
    ]);
    await suite.tools.syncNow(c.id, 'stock');
    const order = c.store.seedOrder({
      lines: [{ variant: c.blue.variant, quantity: 2 }],
      locations: [warehouse.name],
    });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    warehouse.account!.setStock(warehouse.account!.product(c.blue.hiper.codigo).id, 4);
    c.account.setStock(c.blue.hiper.id, 3);
    await suite.tools.syncNow(c.id, 'stock');
    expect(levelsByName(c.store, c.blue.hiper.codigo)).toEqual({ Loja: 3, Depósito: 2 });

    // Processed by the warehouse's Hiper, which took the units out of its stock.
    warehouse.account!.setOrderSituation(warehouse.account!.orders[0].id, 2);
    await suite.tools.pollStatus();
    expect((await suite.tools.orderOf(c.id, order.id)).state).toBe('processed');
    warehouse.account!.setStock(warehouse.account!.product(c.blue.hiper.codigo).id, 2);
    await suite.tools.syncNow(c.id, 'stock');
    expect(levelsByName(c.store, c.blue.hiper.codigo)).toEqual({ Loja: 3, Depósito: 2 });
  });
});
