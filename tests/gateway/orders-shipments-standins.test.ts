import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NuvemshopClient } from '../../gateway/platforms/nuvemshop.client';
import { startNuvemshopApi, type NuvemshopApiStandIn, type StandInStore } from '../support/standins/nuvemshop-api';

/**
 * The stand-in store's fulfillment orders, as Nuvemshop makes them with each order: one location when one can ship it
 * all, else split by the locations' priority, whole lines first; numbered from 1; served in the older and the 2025-03
 * shapes; and their PATCH, as strict as the 2025-03 page.
 */
let nuvemshop: NuvemshopApiStandIn;
let nextStore = 9400;
const USER_AGENT = 'Sistema de Integracao (admin@example.com)';

beforeAll(async () => {
  nuvemshop = await startNuvemshopApi({ bucket: { size: 400, drainPerSecond: 400 } });
});
afterAll(async () => {
  await nuvemshop?.close();
});

/** A store with a shop (priority 0) and a warehouse (1), and two products whose stock is set per location. */
function store() {
  const id = nextStore++;
  const s = nuvemshop.addStore(id);
  s.locations[0].name = 'Loja';
  const warehouse = s.addLocation('Depósito');
  const shirt = s.seedProduct({ name: 'Camiseta', variants: [{ sku: '1001', price: '50.00', stock: 0 }] }).variants[0];
  const shoe = s.seedProduct({ name: 'Tênis', variants: [{ sku: '1002', price: '200.00', stock: 0 }] }).variants[0];
  const api = new NuvemshopClient({ baseUrl: nuvemshop.url, userAgent: USER_AGENT, timeoutMs: 5000 }).store(
    id,
    s.token,
  );
  return { id, s, api, shop: s.locations[0], warehouse, shirt, shoe };
}

const stock = (s: StandInStore, variantId: number, levels: Record<string, number>) => {
  for (const level of s.variant(variantId)!.inventory_levels) level.stock = levels[level.location_id] ?? 0;
};

describe('the stand-in’s fulfillment orders', () => {
  it('ship from one location when one can ship every line, even one of lower priority', async () => {
    const { s, api, shop, warehouse, shirt, shoe } = store();
    stock(s, shirt.id, { [shop.id]: 5, [warehouse.id]: 5 });
    stock(s, shoe.id, { [shop.id]: 0, [warehouse.id]: 2 });
    const order = s.seedOrder({ lines: [{ variant: shirt, quantity: 2 }, { variant: shoe }] });
    const fos = await api.listFulfillmentOrders(order.id);
    expect(fos).toHaveLength(1);
    expect(fos[0]).toMatchObject({ number: '1', status: 'UNPACKED', assigned_location: { id: warehouse.id } });
  });

  it('split by priority, whole lines first, when no one location can ship it all', async () => {
    const { s, api, shop, warehouse, shirt, shoe } = store();
    stock(s, shirt.id, { [shop.id]: 3, [warehouse.id]: 0 });
    stock(s, shoe.id, { [shop.id]: 1, [warehouse.id]: 4 });
    const order = s.seedOrder({
      lines: [
        { variant: shirt, quantity: 2 },
        { variant: shoe, quantity: 3 },
      ],
      freights: [12.5, 7.5],
    });
    const fos = (await api.listFulfillmentOrders(order.id)) as any[];
    expect(fos.map((fo) => [fo.number, fo.assigned_location.id, fo.assigned_location.name])).toEqual([
      ['1', shop.id, 'Loja'],
      ['2', warehouse.id, 'Depósito'],
    ]);
    const [shirtLine, shoeLine] = order.products;
    expect(fos.map((fo) => fo.line_items.map((i: any) => [i.order_line_item_id, i.quantity]))).toEqual([
      [[String(shirtLine.id), 2]],
      [[String(shoeLine.id), 3]],
    ]);
    expect(fos.map((fo) => fo.shipping.consumer_cost)).toEqual([
      { value: 12.5, currency: 'BRL' },
      { value: 7.5, currency: 'BRL' },
    ]);
    expect(order.shipping_cost_customer).toBe('20.00');
  });

  it('split a line no location holds whole over the locations by priority', async () => {
    const { s, api, shop, warehouse, shirt } = store();
    stock(s, shirt.id, { [shop.id]: 2, [warehouse.id]: 3 });
    const order = s.seedOrder({ lines: [{ variant: shirt, quantity: 4 }] });
    const fos = (await api.listFulfillmentOrders(order.id)) as any[];
    expect(fos.map((fo) => [fo.assigned_location.id, fo.line_items[0].quantity])).toEqual([
      [shop.id, 2],
      [warehouse.id, 2],
    ]);
  });

  it('are served in the 2025-03 shape with an order of that shape, and embedded with aggregates', async () => {
    const { id, s, api, shop, warehouse, shirt, shoe } = store();
    stock(s, shirt.id, { [shop.id]: 1 });
    stock(s, shoe.id, { [warehouse.id]: 1 });
    const order = s.seedOrder({ lines: [{ variant: shirt }, { variant: shoe }], shape: '2025-03' });
    const [first] = (await api.listFulfillmentOrders(order.id)) as any[];
    expect(first.assigned_location).toEqual({ location_id: shop.id, name: 'Loja' });
    expect(first.line_items[0]).toMatchObject({
      external_id: String(order.products[0].id),
      quantity: 1,
      variant: { variant_id: String(shirt.id) },
      unit_price: { value: 50, currency: 'BRL' },
    });
    expect(first.line_items[0]).not.toHaveProperty('order_line_item_id');
    const embedded = await fetch(`${nuvemshop.url}/${id}/orders/${order.id}?aggregates=fulfillment_orders`, {
      headers: { 'User-Agent': USER_AGENT, Authentication: `bearer ${s.token}` },
    });
    const body = await embedded.json();
    expect(body.fulfillment_orders.map((fo: any) => fo.id)).toEqual(
      s.fulfillmentOrders.get(order.id)!.map((fo) => fo.id),
    );
    expect(body).not.toHaveProperty('shipping_cost_customer');
  });

  it('take tracking_info with notify_customer inside it, and refuse what the workflow forbids', async () => {
    const { s, api, shop, warehouse, shirt, shoe } = store();
    stock(s, shirt.id, { [shop.id]: 1 });
    stock(s, shoe.id, { [warehouse.id]: 1 });
    const order = s.seedOrder({ lines: [{ variant: shirt }, { variant: shoe }] });
    const [first, second] = s.fulfillmentOrders.get(order.id)!;
    const patch = (foId: string, body: unknown) =>
      api.updateFulfillmentOrder(order.id, foId, body as Parameters<typeof api.updateFulfillmentOrder>[2]);
    // A top-level notify_customer is no field: nobody is notified.
    await patch(first.id, { status: 'PACKED', notify_customer: true });
    expect(first).toMatchObject({ status: 'PACKED' });
    expect(first.notified).toBeUndefined();
    await expect(patch(first.id, { assigned_location: { location_id: warehouse.id } })).rejects.toThrow(/HTTP 400/);
    await patch(first.id, {
      status: 'DISPATCHED',
      tracking_info: { code: 'BR1', url: 'https://rastreio.example/BR1', notify_customer: true },
    });
    expect(first).toMatchObject({ status: 'DISPATCHED', notified: true, tracking_info: { code: 'BR1' } });
    await expect(patch(first.id, { status: 'UNPACKED' })).rejects.toThrow(/HTTP 400/);
    await expect(
      patch(second.id, { status: 'DISPATCHED', tracking_info: { code: null, url: null, notify_customer: 'yes' } }),
    ).rejects.toThrow(/HTTP 400/);
    expect(second.status).toBe('UNPACKED');
    // Reassigned while not packed; then the order is cancelled and its shipments take no other status.
    await patch(second.id, { assigned_location: { location_id: shop.id } });
    expect(second.assigned_location.id).toBe(shop.id);
    await api.cancelOrder(order.id, { reason: 'other', email: false, restock: true });
    await expect(patch(second.id, { status: 'DISPATCHED' })).rejects.toThrow(/HTTP 400/);
    await expect(patch('01NOTASHIPMENT', { status: 'PACKED' })).rejects.toThrow(/HTTP 404/);
  });
});
