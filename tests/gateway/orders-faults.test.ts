import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { answerFolder } from '../../gateway/orders/answer-journal';
import { orderSuite } from '../support/orders';

/**
 * An order is never stranded nor sent twice when Hiper or the store misbehave: a job out of attempts holds its order
 * with the reason, an id Hiper gave is proof the order is in Hiper whatever else the answer says, and that id survives
 * a database that cannot take it at that moment.
 */
const answers = mkdtempSync(path.join(os.tmpdir(), 'integracao-answers-'));
const suite = orderSuite({
  env: {
    ORDERS_RETRY_LIMIT: '1',
    ORDERS_RETRY_DELAY_SECONDS: '1',
    ORDERS_CONCURRENCY: '4',
    ORDERS_PER_CLIENT_CONCURRENCY: '2',
    ORDERS_ANSWERS_DIR: answers,
  },
});
const SALES_ORDER = /^\/pedido-de-venda\/?$/;

afterEach(async () => {
  suite.hiper.clearFaults();
  suite.hiper.intercept(null);
  suite.nuvemshop.clearFaults();
  await suite.t.sql(`drop trigger if exists refuse_sent on orders`);
});
afterAll(() => rmSync(answers, { recursive: true, force: true }));

const resend = (id: string) => suite.t.request('POST', `/api/v1/orders/${id}/resend`, { token: suite.su });
const historyNotes = (order: { history: { note: string }[] }) => order.history.map((h) => h.note);
const watchNow = () => suite.t.gateway.services.jobs.send('orders-watch', {});

describe('an order whose job runs out of attempts', () => {
  it('Hiper answering 429 to every try: held with the reason in Portuguese, Reenviar sends it once Hiper accepts', async () => {
    const c = await suite.tools.clientWithCatalogue();
    suite.hiper.inject({ method: 'POST', path: SALES_ORDER, status: 429, times: Infinity, body: { errors: [] } });
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    expect(await suite.tools.webhook(c.storeId, 'order/paid', order.id)).toBe(200);
    const held = await suite.tools.waitForOrder(c.id, order.id, ['held'], 30_000);
    expect(held.hold_reason).toBe(
      'O Hiper respondeu 429 (ocupado) a todas as tentativas: nada foi criado no Hiper. Use Reenviar.',
    );
    expect(c.account.orders).toHaveLength(0);
    suite.hiper.clearFaults();
    expect((await resend(held.id)).status).toBe(202);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    expect(c.account.ordersNumbered(order.number)).toHaveLength(1);
  });

  it('the store’s order unreadable on every try: held, saying the store could not be read', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    suite.nuvemshop.inject({
      store: c.storeId,
      method: 'GET',
      path: `/orders/${order.id}`,
      status: 503,
      times: Infinity,
    });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const held = await suite.tools.waitForOrder(c.id, order.id, ['held'], 60_000);
    expect(held.hold_reason).toMatch(/^Não foi possível ler o pedido na Nuvemshop em nenhuma tentativa/);
    expect(c.account.orders).toHaveLength(0);
  });

  it('a paid order left received with no job is found by the watch and sent', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    // As a job lost with the database leaves it: the row, paid, and no job at all.
    await suite.t.sql(
      `insert into orders (id, client_id, nuvemshop_order_id, state, payment_status, lines, history, received_at,
                           updated_at, created_at)
       values (gen_random_uuid(), $1, $2, 'received', 'paid', '[]', '[]', now() - interval '1 hour',
               now() - interval '1 hour', now() - interval '1 hour')`,
      [c.id, order.id],
    );
    await watchNow();
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    expect(c.account.ordersNumbered(order.number)).toHaveLength(1);
  });
});

describe('an answer carrying an id', () => {
  it('a 2xx with an id and a warning in errors: sent, the warning in its history; nothing resends it', async () => {
    const c = await suite.tools.clientWithCatalogue();
    suite.hiper.inject({
      method: 'POST',
      path: SALES_ORDER,
      afterServing: true,
      status: 200,
      body: (served: any) => ({ ...served, errors: ['Cliente cadastrado sem e-mail'] }),
    });
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const sent = await suite.tools.waitForOrder(c.id, order.id, ['sent', 'held', 'uncertain']);
    expect(sent.state).toBe('sent');
    const [inHiper] = c.account.ordersNumbered(order.number);
    expect(sent.hiper_order_id).toBe(inHiper.id);
    expect(historyNotes(sent)).toContain(
      `Recebido pelo Hiper (${inHiper.id}), com aviso: Cliente cadastrado sem e-mail`,
    );
    await suite.tools.webhook(c.storeId, 'order/updated', order.id);
    await suite.tools.sweepNow(c.id);
    expect(c.account.ordersNumbered(order.number)).toHaveLength(1);
  });

  it('a 409 after Hiper accepted is uncertain; a 429 carrying the id is sent', async () => {
    const c = await suite.tools.clientWithCatalogue();
    suite.hiper.inject({ method: 'POST', path: SALES_ORDER, afterServing: true, status: 409, body: { errors: ['?'] } });
    const first = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    await suite.tools.webhook(c.storeId, 'order/paid', first.id);
    expect((await suite.tools.waitForOrder(c.id, first.id, ['sent', 'held', 'uncertain'])).state).toBe('uncertain');

    suite.hiper.inject({ method: 'POST', path: SALES_ORDER, afterServing: true, status: 429, body: (s: unknown) => s });
    const second = c.store.seedOrder({ lines: [{ variant: c.blue.variant }] });
    await suite.tools.webhook(c.storeId, 'order/paid', second.id);
    const sent = await suite.tools.waitForOrder(c.id, second.id, ['sent', 'held', 'uncertain'], 20_000);
    expect(sent.state).toBe('sent');
    await suite.tools.sweepNow(c.id);
    expect(c.account.ordersNumbered(first.number)).toHaveLength(1);
    expect(c.account.ordersNumbered(second.number)).toHaveLength(1);
  });

  it('whatever the answer’s shape, and whether Hiper made the order: never a second sales order', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const shapes = fc
      .record({
        status: fc.constantFrom(200, 201, 202, 400, 408, 409, 422, 429, 500, 503),
        id: fc.constantFrom('created', 'none', 'path', 'number'),
        errors: fc.constantFrom<unknown>([], ['Aviso do Hiper'], 'texto', null),
        made: fc.boolean(),
      })
      // A 429 or a plain 4xx without an id is, by Hiper's contract, a refusal: nothing was made.
      .map((s) => {
        const refusal = s.status === 429 || (s.status >= 400 && s.status < 500 && s.status !== 408 && s.status !== 409);
        return s.id === 'none' && refusal ? { ...s, made: false } : s;
      });
    await fc.assert(
      fc.asyncProperty(shapes, async (shape) => {
        const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
        suite.hiper.inject({
          method: 'POST',
          path: SALES_ORDER,
          afterServing: shape.made,
          status: shape.status,
          body: (served: { id?: string } | undefined) => ({
            ...(shape.id === 'created' && served?.id ? { id: served.id } : {}),
            ...(shape.id === 'path' ? { id: '../cancelar/x' } : {}),
            ...(shape.id === 'number' ? { id: 12 } : {}),
            errors: shape.errors,
            message: null,
          }),
        });
        await suite.tools.webhook(c.storeId, 'order/paid', order.id);
        const row = await suite.tools.waitForOrder(c.id, order.id, ['sent', 'held', 'uncertain'], 20_000);
        await suite.tools.settled(30_000);
        suite.hiper.clearFaults();
        // What comes after by itself: a later webhook, a sweep, the watch.
        await suite.tools.webhook(c.storeId, 'order/updated', order.id);
        await suite.tools.sweepNow(c.id);
        const after = await suite.tools.orderOf(c.id, order.id);
        const inHiper = c.account.ordersNumbered(order.number);
        expect(inHiper.length).toBeLessThanOrEqual(1);
        if (shape.made && shape.id === 'created') {
          expect(after.state).toBe('sent');
          expect(after.hiper_order_id).toBe(inHiper[0].id);
        }
        if (shape.made && shape.id !== 'created' && shape.id !== 'number') expect(after.state).toBe('uncertain');
        if (!shape.made && after.state === 'sent') expect(after.hiper_order_id).toBe(inHiper[0]?.id ?? '12');
        expect(row.state).not.toBe('sending');
      }),
      { numRuns: 12, endOnFailure: true },
    );
  }, 300_000);
});

describe('Hiper’s id and a database that cannot take it', () => {
  const refuseSent = () =>
    suite.t.sql(`
      create or replace function refuse_sent() returns trigger language plpgsql as $$
      begin
        if new.state = 'sent' and old.state <> 'sent' then
          raise exception 'the database could not be reached (test)';
        end if;
        return new;
      end $$;
      create trigger refuse_sent before update on orders for each row execute function refuse_sent();`);

  it('saved once the database takes it again, in the same process: sent, with the id', async () => {
    const c = await suite.tools.clientWithCatalogue();
    let blocked = false;
    suite.hiper.intercept(async (request, phase) => {
      if (phase === 'served' && request.method === 'POST' && SALES_ORDER.test(request.path) && !blocked) {
        blocked = true;
        await refuseSent();
        setTimeout(() => void suite.t.sql(`drop trigger if exists refuse_sent on orders`), 3_000);
      }
    });
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const sent = await suite.tools.waitForOrder(c.id, order.id, ['sent', 'uncertain', 'held'], 30_000);
    expect(blocked).toBe(true);
    expect(sent.state).toBe('sent');
    expect(sent.hiper_order_id).toBe(c.account.ordersNumbered(order.number)[0].id);
  });

  it('saved by the watch of the next process from what a dead one kept on disk, even once it was made uncertain', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    const hiperOrder = c.account.orders.length;
    // A process that died after Hiper's answer, before its row took it: the row `uncertain`, the answer on disk.
    const [{ id }] = await suite.t.sql<{ id: string }>(
      `insert into orders (id, client_id, nuvemshop_order_id, state, payment_status, lines, history, received_at,
                           updated_at, created_at)
       values (gen_random_uuid(), $1, $2, 'uncertain', 'paid', '[]', '[]', now(), now(), now()) returning id`,
      [c.id, order.id],
    );
    expect(hiperOrder).toBe(0);
    const folder = answerFolder(answers, suite.t.databaseUrl);
    mkdirSync(folder, { recursive: true });
    const at = new Date().toISOString();
    writeFileSync(
      path.join(folder, `${id}.json`),
      JSON.stringify({ orderId: id, hiperOrderId: 'abc-123', note: 'Recebido pelo Hiper (abc-123)', at }),
    );
    await watchNow();
    const sent = await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    expect(sent.hiper_order_id).toBe('abc-123');
    expect(readdirSync(folder).filter((f) => f.startsWith(id))).toEqual([]);
  });
});

describe('what the store says afterwards', () => {
  it('a signed event naming an order the store does not have leaves no order row', async () => {
    const c = await suite.tools.clientWithCatalogue();
    expect(await suite.tools.webhook(c.storeId, 'order/paid', 987654321)).toBe(200);
    await suite.tools.settled();
    expect(await suite.tools.orderOf(c.id, 987654321)).toBeUndefined();
    const [{ events }] = await suite.t.sql<{ events: number }>(
      `select count(*)::int as events from webhook_events where store_id = $1 and event = 'order/paid'`,
      [c.storeId],
    );
    expect(events).toBe(1);
  });

  it('paid again after a cancellation: held with the reason, and Reenviar makes a new sales order', async () => {
    const c = await suite.tools.clientWithCatalogue();
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    c.store.changeOrder(order.id, { status: 'cancelled', payment_status: 'refunded' });
    await suite.tools.webhook(c.storeId, 'order/cancelled', order.id);
    await suite.tools.waitForOrder(c.id, order.id, ['cancelled']);
    c.store.changeOrder(order.id, { status: 'open', payment_status: 'paid' });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const held = await suite.tools.waitForOrder(c.id, order.id, ['held']);
    expect(held.hold_reason).toBe(
      'Pago de novo na loja depois de cancelado: confira no Hiper e use Reenviar para criar um novo pedido de venda',
    );
    expect((await resend(held.id)).status).toBe(202);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    const inHiper = c.account.ordersNumbered(order.number);
    expect(inHiper).toHaveLength(2);
    expect(inHiper.filter((o) => !o.cancelado)).toHaveLength(1);
  });
});

describe('one store waiting on its bucket', () => {
  it('never holds up another client’s orders', async () => {
    const a = await suite.tools.clientWithCatalogue();
    const b = await suite.tools.clientWithCatalogue();
    const aOrders = Array.from({ length: 8 }, () => a.store.seedOrder({ lines: [{ variant: a.shirt.variant }] }));
    const bOrders = Array.from({ length: 5 }, () => b.store.seedOrder({ lines: [{ variant: b.shirt.variant }] }));
    // Store A's bucket is full for 20 s: every call to it waits that long.
    suite.nuvemshop.inject({
      store: a.storeId,
      method: 'GET',
      path: /^\/orders\/\d+$/,
      status: 429,
      headers: { 'x-rate-limit-reset': '20000' },
    });
    for (const o of aOrders) await suite.tools.webhook(a.storeId, 'order/paid', o.id);
    await new Promise((r) => setTimeout(r, 500));
    const started = Date.now();
    for (const o of bOrders) await suite.tools.webhook(b.storeId, 'order/paid', o.id);
    for (const o of bOrders) await suite.tools.waitForOrder(b.id, o.id, ['sent'], 30_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    for (const o of aOrders) await suite.tools.waitForOrder(a.id, o.id, ['sent'], 90_000);
    for (const o of aOrders) expect(a.account.ordersNumbered(o.number)).toHaveLength(1);
  }, 150_000);
});

describe('an order Hiper refused', () => {
  /** The sales orders posted for one store order, named by the observation the mapping writes. */
  const posts = (order: { id: number }) =>
    suite.hiper.requests.filter(
      (r) => r.method === 'POST' && SALES_ORDER.test(r.path) && r.body?.includes(`(id ${order.id})`),
    ).length;

  it('is posted again only when staff resend it or what it is mapped from changed, never by a sweep alone', async () => {
    const c = await suite.tools.clientWithCatalogue();
    c.account.refuseOrders = ['Produto inativo no Hiper'];
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    await suite.tools.webhook(c.storeId, 'order/paid', order.id);
    const held = await suite.tools.waitForOrder(c.id, order.id, ['held']);
    expect(held.hold_reason).toBe('Produto inativo no Hiper');
    expect(posts(order)).toBe(1);

    // A sweep and a webhook re-read it; the same body is not posted again.
    await suite.tools.webhook(c.storeId, 'order/updated', order.id);
    await suite.tools.sweepNow(c.id);
    await suite.tools.sweepNow(c.id);
    expect(posts(order)).toBe(1);

    // The store's order changed (the buyer's note): mapped to another body, it is tried again.
    c.store.changeOrder(order.id, { note: 'Entregar à tarde' });
    await suite.tools.sweepNow(c.id);
    expect(posts(order)).toBe(2);
    await suite.tools.sweepNow(c.id);
    expect(posts(order)).toBe(2);

    // Staff's Reenviar posts it whatever changed.
    c.account.refuseOrders = null;
    expect((await resend(held.id)).status).toBe(202);
    await suite.tools.waitForOrder(c.id, order.id, ['sent']);
    expect(posts(order)).toBe(3);
    expect(c.account.ordersNumbered(order.number)).toHaveLength(1);
  });
});
