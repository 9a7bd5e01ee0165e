import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { orderTools, ordersEnv } from '../support/orders';

/**
 * Staff turn a client's orders on (REST, GraphQL, and so the admin, which writes through GraphQL): the store's order
 * webhooks are registered then, by a job, not at the client's first sweep; once each however often it is asked.
 */
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;
let su: string;
let tools: ReturnType<typeof orderTools>;

const ORDER_EVENTS = ['order/cancelled', 'order/created', 'order/paid', 'order/updated'];
const WEBHOOK_URL = 'https://integracao.test/api/v1/webhooks/nuvemshop';

beforeAll(async () => {
  [hiper, nuvemshop] = await Promise.all([startHiper(), startNuvemshopApi()]);
  t = await startTestGateway(ordersEnv(hiper, nuvemshop));
  su = await t.superuserToken();
  tools = orderTools(t, su, hiper, nuvemshop);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([hiper?.close(), nuvemshop?.close()]);
});

/** The order events the store has webhooks for at our address, sorted, each as often as it is registered. */
const orderWebhooks = (store: { webhooks: { event: string; url: string }[] }) =>
  store.webhooks
    .filter((w) => w.event.startsWith('order/') && w.url === WEBHOOK_URL)
    .map((w) => w.event)
    .sort();

/** Waits until no job of these queues is queued, retried or running. */
async function settled(names = ['orders-webhooks', 'orders-sweep', 'order'], timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await t.sql<{ n: number }>(
      `select count(*)::int as n from pgboss.job where name = any($1) and state in ('created', 'retry', 'active')`,
      [names],
    );
    if (row.n === 0) return;
    if (Date.now() > until) throw new Error(`${row.n} jobs still pending`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** How many `orders-webhooks` jobs were ever queued for the client. */
const webhookJobs = async (clientId: string) =>
  (
    await t.sql<{ n: number }>(
      `select count(*)::int as n from pgboss.job where name = 'orders-webhooks' and data->>'clientId' = $1`,
      [clientId],
    )
  )[0].n;

/** Whether the client's store was asked for its orders (a sweep ran). */
const swept = (storeId: number) =>
  nuvemshop.requestsOf(storeId).some((r) => r.method === 'GET' && r.path === '/orders');

describe('orders turned on', () => {
  it('through REST: the order webhooks are registered at once, before any sweep, one of each', async () => {
    const c = await tools.connectedClient();
    expect(orderWebhooks(c.store)).toEqual([]);
    const on = await t.request('PUT', `/api/v1/clients/${c.id}`, { token: su, json: { orders_enabled: true } });
    expect(on.status, on.text).toBe(200);
    expect(on.body.orders_enabled).toBe(true);
    await settled(['orders-webhooks']);
    expect(orderWebhooks(c.store)).toEqual(ORDER_EVENTS);
    expect(swept(c.storeId)).toBe(false);

    // Saving it on again (another field changed) queues nothing; the first sweep finds them there and adds none.
    const again = await t.request('PUT', `/api/v1/clients/${c.id}`, {
      token: su,
      json: { orders_enabled: true, hiper_marketplace_name: 'Loja' },
    });
    expect(again.status).toBe(200);
    expect(await webhookJobs(c.id)).toBe(1);
    await tools.sweepNow(c.id);
    expect(orderWebhooks(c.store)).toEqual(ORDER_EVENTS);
  });

  it('through GraphQL (the admin’s door): off and on again, a webhook deleted meanwhile comes back, none twice', async () => {
    const c = await tools.connectedClient();
    const set = async (on: boolean) => {
      const answer = await t.graphql(
        `mutation($id: ID!, $on: Boolean) { updateClient(id: $id, orders_enabled: $on) { id orders_enabled } }`,
        { id: c.id, on },
        su,
      );
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.updateClient.orders_enabled).toBe(on);
    };
    await set(true);
    await settled(['orders-webhooks']);
    expect(orderWebhooks(c.store)).toEqual(ORDER_EVENTS);

    await set(false);
    // The store lost one meanwhile (deleted at its side).
    c.store.webhooks = c.store.webhooks.filter((w) => w.event !== 'order/paid');
    await set(true);
    await settled(['orders-webhooks']);
    expect(orderWebhooks(c.store)).toEqual(ORDER_EVENTS);
    expect(await webhookJobs(c.id)).toBe(2);
  });

  it('on a new client created with orders on, and with a sweep asked at the same moment: one of each', async () => {
    const c = await tools.connectedClient({ orders_enabled: true });
    const asked = await t.request('POST', `/api/v1/clients/${c.id}/orders/sweep`, { token: su });
    expect(asked.status).toBe(202);
    await settled();
    expect(orderWebhooks(c.store)).toEqual(ORDER_EVENTS);
    expect(await webhookJobs(c.id)).toBe(1);
  });

  it('on a client not connected yet: nothing is registered, and the turn-on is saved', async () => {
    const bare = await t.request('POST', '/api/v1/clients/', {
      token: su,
      json: { url: 'https://ainda-sem-loja.example.com', orders_enabled: true },
    });
    expect(bare.status).toBe(200);
    await settled(['orders-webhooks']);
    const [job] = await t.sql<{ state: string; output: { skipped?: string } }>(
      `select state, output from pgboss.job where name = 'orders-webhooks' and data->>'clientId' = $1`,
      [bare.body.id],
    );
    expect(job.state).toBe('completed');
    expect(job.output.skipped).toBe('orders are off or the client is not connected');
    const read = await t.request('GET', `/api/v1/clients/${bare.body.id}`, { token: su });
    expect(read.body.orders_enabled).toBe(true);
  });
});

describe('a sweep refused', () => {
  it('names what the client lacks, as a sync refused does, through REST and GraphQL', async () => {
    const c = await tools.connectedClient();
    const cleared = await t.request('PUT', `/api/v1/clients/${c.id}`, {
      token: su,
      json: { nuvemshop_store_id: 0, nuvemshop_token: null },
    });
    expect(cleared.status).toBe(200);
    const sweep = await t.request('POST', `/api/v1/clients/${c.id}/orders/sweep`, { token: su });
    const sync = await t.request('POST', `/api/v1/clients/${c.id}/sync`, { token: su, json: {} });
    expect(sweep.status).toBe(409);
    expect(sync.status).toBe(409);
    expect(sweep.body.detail).toBe('Missing the Nuvemshop token and the Nuvemshop store id');
    expect(sweep.body.detail).toBe(sync.body.detail);
    const gql = await t.graphql('mutation($id: ID!) { sweepOrders(client_id: $id) }', { id: c.id }, su);
    expect(gql.body.errors[0].message).toBe('Missing the Nuvemshop token and the Nuvemshop store id');
  });
});
