import { describe, expect, it } from 'vitest';
import { deliverWebhook } from '../support/standins/nuvemshop-api';
import { APP_SECRET, orderSuite } from '../support/orders';

/**
 * Signed webhooks are stored within bounds: a body repeated within minutes is recorded once, a store's rows of a day
 * stop at a cap (the rest answered 200 and counted on the "Webhooks por dia" screen), a store no client has records a
 * few; an order's delivery, recorded or not, still has its order looked at.
 */
const PER_STORE_DAY = 12;
const UNKNOWN_PER_DAY = 3;
const suite = orderSuite({
  env: {
    WEBHOOK_SIGNED_PER_STORE_DAY: String(PER_STORE_DAY),
    WEBHOOK_SIGNED_UNKNOWN_STORE_PER_DAY: String(UNKNOWN_PER_DAY),
  },
});
const APP = '/api/v1/webhooks/nuvemshop';

/** Posts a body signed with the app's secret, as Nuvemshop does; answers the status. */
const deliver = (payload: Record<string, unknown>) => deliverWebhook(`${suite.t.url}${APP}`, payload, APP_SECRET);

const rowsOf = async (storeId: number) =>
  (await suite.t.sql<{ n: number }>(`select count(*)::int as n from webhook_events where store_id = $1`, [storeId]))[0]
    .n;

/** The store's day as staff read it (the "Webhooks por dia" screen's list, through REST). */
async function dayOf(storeId: number) {
  const list = await suite.t.request('GET', '/api/v1/webhook-days/?limit=1000', { token: suite.su });
  expect(list.status).toBe(200);
  return (list.body.data as { store_id: number; recorded: number; dropped: number; day: string }[]).find(
    (d) => d.store_id === storeId,
  );
}

/** Times the store was asked for one order (what the order's job reads). */
const readsOf = (storeId: number, orderId: number) =>
  suite.nuvemshop.requestsOf(storeId).filter((r) => r.method === 'GET' && r.path === `/orders/${orderId}`).length;

describe('one signed delivery sent many times', () => {
  it('is answered 200 each time, recorded once, and its order sent once', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    const body = { store_id: c.storeId, event: 'order/paid', id: order.id };
    const answers = await Promise.all(Array.from({ length: 40 }, () => deliver(body)));
    expect(answers).toEqual(Array(40).fill(200));
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    await suite.tools.settled();
    expect(await rowsOf(c.storeId)).toBe(1);
    expect(c.account.orders).toHaveLength(1);
    expect(await dayOf(c.storeId)).toMatchObject({ recorded: 1, dropped: 0 });
  });
});

describe('two order/updated for one order a second apart', () => {
  it('record one row and still have the order read again: the second change is acted on', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }], payment_status: 'pending' });
    const updated = { store_id: c.storeId, event: 'order/updated', id: order.id };
    expect(await deliver(updated)).toBe(200);
    await suite.tools.settled();
    expect(await suite.tools.orderOf(c.id, order.id)).toMatchObject({ state: 'received', payment_status: 'pending' });
    expect(readsOf(c.storeId, order.id)).toBe(1);

    // A second change a second later: Nuvemshop sends the very same body.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    c.store.changeOrder(order.id, { payment_status: 'paid' });
    expect(await deliver(updated)).toBe(200);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    expect(readsOf(c.storeId, order.id)).toBeGreaterThanOrEqual(2);
    expect(c.account.orders).toHaveLength(1);
    expect(await rowsOf(c.storeId)).toBe(1);
  });
});

describe('a store’s day past its cap', () => {
  it('answers 200, records no more rows, counts the dropped ones where staff see them, and still works the order', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }], payment_status: 'pending' });
    // Distinct signed bodies (an extra field makes each its own), as many as the cap.
    const updated = (n: number) => ({ store_id: c.storeId, event: 'order/updated', id: order.id, n });
    for (let n = 0; n < PER_STORE_DAY; n++) expect(await deliver(updated(n))).toBe(200);
    await suite.tools.settled();
    expect(await rowsOf(c.storeId)).toBe(PER_STORE_DAY);

    // Past the cap the order is paid: its delivery gets no row, and the order is sent all the same.
    c.store.changeOrder(order.id, { payment_status: 'paid' });
    expect(await deliver(updated(PER_STORE_DAY))).toBe(200);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    const more = await Promise.all(Array.from({ length: 9 }, (_, i) => deliver(updated(PER_STORE_DAY + 1 + i))));
    expect(more).toEqual(Array(9).fill(200));
    // A dropped body sent again within the window is the same delivery, not one more dropped.
    expect(await deliver(updated(PER_STORE_DAY))).toBe(200);
    await suite.tools.settled();
    expect(await rowsOf(c.storeId)).toBe(PER_STORE_DAY);
    expect(c.account.orders).toHaveLength(1);
    const day = await dayOf(c.storeId);
    expect(day).toMatchObject({ recorded: PER_STORE_DAY, dropped: 10, day: new Date().toISOString().slice(0, 10) });

    // GraphQL (the admin's door) reads the same figure.
    const gql = await suite.t.graphql(`{ allWebhookDays(perPage: 1000) { store_id recorded dropped } }`, {}, suite.su);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.allWebhookDays.find((d: { store_id: number }) => d.store_id === c.storeId)).toEqual({
      store_id: c.storeId,
      recorded: PER_STORE_DAY,
      dropped: 10,
    });
  });
});

describe('signed deliveries for a store no client has', () => {
  it('record one row for a replayed body and at most the few of the day for distinct ones', async () => {
    const storeId = 990_001;
    const replayed = { store_id: storeId, event: 'order/paid', id: 77 };
    const replays = await Promise.all(Array.from({ length: 60 }, () => deliver(replayed)));
    expect(replays).toEqual(Array(60).fill(200));
    expect(await rowsOf(storeId)).toBe(1);
    const [row] = await suite.t.sql<{ outcome: string; note: string }>(
      `select outcome, note from webhook_events where store_id = $1`,
      [storeId],
    );
    expect(row).toEqual({ outcome: 'ignored', note: 'Nenhum cliente tem esta loja' });

    const distinct = await Promise.all(
      Array.from({ length: 20 }, (_, i) => deliver({ store_id: storeId, event: 'order/updated', id: 100 + i })),
    );
    expect(distinct).toEqual(Array(20).fill(200));
    // An app event of that store counts against the same few.
    expect(await deliver({ store_id: storeId, event: 'app/uninstalled', id: 1 })).toBe(200);
    expect(await rowsOf(storeId)).toBe(UNKNOWN_PER_DAY);
    expect(await dayOf(storeId)).toMatchObject({ recorded: UNKNOWN_PER_DAY, dropped: 21 - (UNKNOWN_PER_DAY - 1) });
  });
});
