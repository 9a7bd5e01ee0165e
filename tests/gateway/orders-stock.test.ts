import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { orderTools, ordersEnv } from '../support/orders';

/**
 * Stock that never counts units already sold: until an order reaches the client's `orders_release_on` (or is
 * cancelled), its units are taken from Hiper's stock in every stock write of the synchronisation, never below 0.
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

describe('a stock run during a sale', () => {
  it('does not put back units sold and not yet out of Hiper’s stock, and releases them at the NF-e', async () => {
    const c = await tools.clientWithCatalogue();
    expect(c.shirt.variant.stock).toBe(10);
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant, quantity: 3 }] });
    const oversold = c.store.seedOrder({ lines: [{ variant: c.blue.variant, quantity: 5 }] });
    await tools.webhook(c.storeId, 'order/paid', order.id);
    await tools.webhook(c.storeId, 'order/paid', oversold.id);
    await tools.waitForOrder(c.id, order.id, ['sent']);
    await tools.waitForOrder(c.id, oversold.id, ['sent']);

    // Hiper's figures move (its stock push), still counting the units sold: the store is written less those.
    c.account.setStock(c.shirt.hiper.id, 10);
    c.account.setStock(c.blue.hiper.id, 3);
    expect((await tools.syncNow(c.id, 'stock')).state).toBe('succeeded');
    expect(c.store.variant(c.shirt.variant.id)!.stock).toBe(7);
    expect(c.store.variant(c.blue.variant.id)!.stock).toBe(0);

    // The NF-e is out: Hiper has taken the units out of its own stock, and the order reserves nothing more.
    // The two orders reached Hiper in either order: the NF-e is of the first one's.
    const [invoiced] = c.account.ordersNumbered(order.number);
    c.account.addOrderEvent(invoiced.id, 3, { chaveDocumentoFiscal: '4'.repeat(44) });
    await tools.pollStatus();
    expect((await tools.orderOf(c.id, order.id)).state).toBe('invoiced');
    c.account.setStock(c.shirt.hiper.id, 7);
    expect((await tools.syncNow(c.id, 'stock')).state).toBe('succeeded');
    expect(c.store.variant(c.shirt.variant.id)!.stock).toBe(7);
  });

  it('releases at processed for a client that says Hiper takes the units out then, and on a cancellation', async () => {
    const c = await tools.clientWithCatalogue({ orders_release_on: 'processed' });
    const order = c.store.seedOrder({ lines: [{ variant: c.black.variant, quantity: 2 }] });
    await tools.webhook(c.storeId, 'order/paid', order.id);
    await tools.waitForOrder(c.id, order.id, ['sent']);
    c.account.setStock(c.black.hiper.id, 4);
    await tools.syncNow(c.id, 'stock');
    expect(c.store.variant(c.black.variant.id)!.stock).toBe(2);

    c.account.setOrderSituation(c.account.orders[0].id, 2);
    await tools.pollStatus();
    expect((await tools.orderOf(c.id, order.id)).state).toBe('processed');
    c.account.setStock(c.black.hiper.id, 2);
    await tools.syncNow(c.id, 'stock');
    expect(c.store.variant(c.black.variant.id)!.stock).toBe(2);

    const cancelled = c.store.seedOrder({ lines: [{ variant: c.shirt.variant, quantity: 4 }] });
    await tools.webhook(c.storeId, 'order/paid', cancelled.id);
    await tools.waitForOrder(c.id, cancelled.id, ['sent']);
    c.store.changeOrder(cancelled.id, { status: 'cancelled' });
    await tools.webhook(c.storeId, 'order/cancelled', cancelled.id);
    await tools.waitForOrder(c.id, cancelled.id, ['cancelled']);
    c.account.setStock(c.shirt.hiper.id, 10);
    await tools.syncNow(c.id, 'stock');
    expect(c.store.variant(c.shirt.variant.id)!.stock).toBe(10);
  });
});
