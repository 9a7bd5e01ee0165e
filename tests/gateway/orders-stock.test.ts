import { describe, expect, it } from 'vitest';
import { orderSuite } from '../support/orders';

/**
 * Stock that never counts units already sold: until an order reaches the client's `orders_release_on` (or is
 * cancelled), its units are taken from Hiper's stock in every stock write of the synchronisation, never below 0.
 */
const suite = orderSuite();

describe('a stock run during a sale', () => {
  it('does not put back units sold and not yet out of Hiper’s stock, and releases them at the NF-e', async () => {
    const c = await suite.tools.clientWithCatalogue();
    expect(c.shirt.variant.stock).toBe(10);
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant, quantity: 3 }] });
    const oversold = c.store.seedOrder({ lines: [{ variant: c.blue.variant, quantity: 5 }] });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await suite.tools.webhook(c.storeId, 'order/paid', oversold.id);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    await suite.tools.waitForOrder(c.id, oversold.id, ['sent']);

    // Hiper's figures move (its stock push), still counting the units sold: the store is written less those.
    c.account.setStock(c.shirt.hiper.id, 10);
    c.account.setStock(c.blue.hiper.id, 3);
    expect((await suite.tools.syncNow(c.id, 'stock')).state).toBe('succeeded');
    expect(c.store.variant(c.shirt.variant.id)!.stock).toBe(7);
    expect(c.store.variant(c.blue.variant.id)!.stock).toBe(0);

    // The NF-e is out: Hiper has taken the units out of its own stock, and the order reserves nothing more.
    // The two orders reached Hiper in either order: the NF-e is of the first one's.
    const [invoiced] = c.account.ordersNumbered(order.number);
    c.account.addOrderEvent(invoiced.id, 3, { chaveDocumentoFiscal: '4'.repeat(44) });
    await suite.tools.pollStatus();
    expect((await suite.tools.orderOf(c.id, order.id)).state).toBe('invoiced');
    c.account.setStock(c.shirt.hiper.id, 7);
    expect((await suite.tools.syncNow(c.id, 'stock')).state).toBe('succeeded');
    expect(c.store.variant(c.shirt.variant.id)!.stock).toBe(7);
  });

  it('releases at processed for a client that says Hiper takes the units out then, and on a cancellation', async () => {
    const c = await suite.tools.clientWithCatalogue({ orders_release_on: 'processed' });
    const order = c.store.seedOrder({ lines: [{ variant: c.black.variant, quantity: 2 }] });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    c.account.setStock(c.black.hiper.id, 4);
    await suite.tools.syncNow(c.id, 'stock');
    expect(c.store.variant(c.black.variant.id)!.stock).toBe(2);

    c.account.setOrderSituation(c.account.orders[0].id, 2);
    await suite.tools.pollStatus();
    expect((await suite.tools.orderOf(c.id, order.id)).state).toBe('processed');
    c.account.setStock(c.black.hiper.id, 2);
    await suite.tools.syncNow(c.id, 'stock');
    expect(c.store.variant(c.black.variant.id)!.stock).toBe(2);

    const cancelled = c.store.seedOrder({ lines: [{ variant: c.shirt.variant, quantity: 4 }] });
    await suite.tools.webhook(c.storeId, 'order/paid', cancelled.id);
    await suite.tools.waitForOrder(c.id, cancelled.id, ['sent']);
    c.store.changeOrder(cancelled.id, { status: 'cancelled' });
    await suite.tools.webhook(c.storeId, 'order/cancelled', cancelled.id);
    await suite.tools.waitForOrder(c.id, cancelled.id, ['cancelled']);
    c.account.setStock(c.shirt.hiper.id, 10);
    await suite.tools.syncNow(c.id, 'stock');
    expect(c.store.variant(c.shirt.variant.id)!.stock).toBe(10);
  });
});
