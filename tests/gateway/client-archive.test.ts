import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { startNuvemshopStandIn, type NuvemshopStandIn } from '../support/nuvemshop';
import { orderTools, ordersEnv } from '../support/orders';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';

/**
 * A client deleted is archived: out of every list, nothing acting for it, its store's webhooks deleted at Nuvemshop,
 * and its orders, runs and product links still there to read; a superuser restores it or purges it with its history.
 */
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;
let tokens: NuvemshopStandIn;
let t: TestGateway;
let su: string;
let user: string;
let tools: ReturnType<typeof orderTools>;

const WEBHOOK_URL = 'https://integracao.test/api/v1/webhooks/nuvemshop';
const ours = (store: { webhooks: { event: string; url: string }[] }) =>
  store.webhooks.filter((w) => w.url === WEBHOOK_URL).map((w) => w.event);

beforeAll(async () => {
  [hiper, nuvemshop, tokens] = await Promise.all([startHiper(), startNuvemshopApi(), startNuvemshopStandIn()]);
  t = await startTestGateway({
    ...ordersEnv(hiper, nuvemshop),
    NUVEMSHOP_TOKEN_URL: tokens.url,
    NUVEMSHOP_CLIENT_ID: '1234',
  });
  su = await t.superuserToken();
  user = (await t.createUser()).token;
  tools = orderTools(t, su, hiper, nuvemshop);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([hiper?.close(), nuvemshop?.close(), tokens?.close()]);
});

/** Waits until no job of these queues is queued, retried or running. */
async function settled(names: string[], timeoutMs = 30_000) {
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

/** A client with its catalogue synced, orders on, its order webhooks registered and one order sent to Hiper. */
async function clientWithOrder() {
  const c = await tools.clientWithCatalogue();
  await settled(['orders-webhooks']);
  const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant, quantity: 1, price: '50.00' }] });
  expect(await tools.webhook(c.storeId, 'order/paid', order.id)).toBe(200);
  await tools.waitForOrder(c.id, order.id, ['sent']);
  return { ...c, order };
}

const listedIds = async (token: string) => {
  const list = await t.request('GET', '/api/v1/clients/?limit=1000', { token });
  expect(list.status).toBe(200);
  return { ids: (list.body.data as { id: string }[]).map((c) => c.id), count: list.body.count as number };
};

describe('deleting a client (REST)', () => {
  it('archives it: gone from the list, its history readable, its store’s webhooks deleted, retried past a failure', async () => {
    const c = await clientWithOrder();
    expect(ours(c.store).sort()).toEqual(['order/cancelled', 'order/created', 'order/paid', 'order/updated']);
    const before = await listedIds(user);
    expect(before.ids).toContain(c.id);

    // Nuvemshop fails the first delete: the job tries again.
    nuvemshop.inject({ method: 'DELETE', path: /^\/webhooks\/\d+$/, store: c.storeId, status: 503 });
    const deleted = await t.request('DELETE', `/api/v1/clients/${c.id}`, { token: user });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: 'Client deleted successfully' });

    const after = await listedIds(user);
    expect(after.ids).not.toContain(c.id);
    expect(after.count).toBe(before.count - 1);
    // Deleted as far as the client's own routes go; a superuser reads it among the archived clients.
    expect((await t.request('GET', `/api/v1/clients/${c.id}`, { token: user })).status).toBe(404);
    const archived = await t.request('GET', `/api/v1/archived-clients/${c.id}`, { token: su });
    expect(archived.status).toBe(200);
    expect(archived.body.archived_at).toEqual(expect.any(String));

    const order = await tools.orderOf(c.id, c.order.id);
    expect(order).toMatchObject({ client_id: c.id, state: 'sent' });
    const runs = await t.request('GET', `/api/v1/sync-runs/?client_id=${c.id}`, { token: user });
    expect(runs.body.count).toBeGreaterThan(0);
    const links = await t.request('GET', `/api/v1/product-links/?client_id=${c.id}`, { token: user });
    expect(links.body.count).toBeGreaterThan(0);

    await settled(['client-archived']);
    expect(ours(c.store)).toEqual([]);
    const [job] = await t.sql<{ retry_count: number; output: { deleted: string[] } }>(
      `select retry_count, output from pgboss.job where name = 'client-archived' and data->>'clientId' = $1
        union all select retry_count, output from pgboss.archive where name = 'client-archived' and data->>'clientId' = $1`,
      [c.id],
    );
    expect(job.retry_count).toBe(1);
    expect(job.output.deleted).toHaveLength(4);

    // Deleted already; not changed while archived.
    const again = await t.request('DELETE', `/api/v1/clients/${c.id}`, { token: user });
    expect(again.status).toBe(404);
    expect(again.body.detail).toBe('Client not found');
    const changed = await t.request('PUT', `/api/v1/clients/${c.id}`, { token: user, json: { name: 'Outra' } });
    expect(changed.status).toBe(404);
    expect(changed.body.detail).toBe('Client not found');
  });

  it('stops its work: no sync, sweep, schedule or queued order job acts for it', async () => {
    const c = await clientWithOrder();
    expect((await t.request('DELETE', `/api/v1/clients/${c.id}`, { token: su })).status).toBe(200);
    await settled(['client-archived']);
    const seen = nuvemshop.requestsOf(c.storeId).length;
    const hiperOrders = c.account.orders.length;

    const sync = await t.request('POST', `/api/v1/clients/${c.id}/sync`, { token: su, json: { kind: 'stock' } });
    expect(sync.status).toBe(409);
    expect(sync.body.detail).toBe('Client is not connected to both platforms');
    const sweep = await t.request('POST', `/api/v1/clients/${c.id}/orders/sweep`, { token: su });
    expect(sweep.status).toBe(409);

    const runs = async () =>
      (await t.sql<{ n: number }>('select count(*)::int as n from sync_runs where client_id = $1', [c.id]))[0].n;
    const runsBefore = await runs();
    const { jobs } = t.gateway.services;
    await jobs.send('sync-stock-schedule', {});
    await jobs.send('orders-sweep-schedule', {});
    // Jobs queued before it was archived skip it, saying why.
    await jobs.send('orders-sweep', { clientId: c.id });
    await jobs.send('order', { orderId: (await tools.orderOf(c.id, c.order.id)).id });
    await settled(['sync-stock-schedule', 'orders-sweep-schedule', 'orders-sweep', 'order', 'sync']);
    expect(await runs()).toBe(runsBefore);
    const [sweepJob] = await t.sql<{ output: Record<string, unknown> }>(
      `select output from pgboss.job where name = 'orders-sweep' and data->>'clientId' = $1 order by created_on desc`,
      [c.id],
    );
    expect(sweepJob.output).toEqual({ skipped: 'orders are off or the client is not connected' });
    expect(nuvemshop.requestsOf(c.storeId)).toHaveLength(seen);
    expect(c.account.orders).toHaveLength(hiperOrders);

    // A webhook of its store now finds no client.
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant, quantity: 1, price: '50.00' }] });
    expect(await tools.webhook(c.storeId, 'order/paid', order.id)).toBe(200);
    await settled(['order']);
    expect(await tools.orderOf(c.id, order.id)).toBeUndefined();
  });
});

describe('restoring and purging', () => {
  it('restore: superusers only; back in the list, its store’s webhooks registered again', async () => {
    const c = await clientWithOrder();
    expect((await t.request('DELETE', `/api/v1/clients/${c.id}`, { token: user })).status).toBe(200);
    await settled(['client-archived']);
    expect(ours(c.store)).toEqual([]);

    const refused = await t.request('POST', `/api/v1/clients/${c.id}/restore`, { token: user });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe("The user doesn't have enough privileges");
    const archived = await t.request('GET', '/api/v1/archived-clients/?limit=1000', { token: su });
    expect(archived.body.data.map((a: { id: string }) => a.id)).toContain(c.id);
    expect((await t.request('GET', '/api/v1/archived-clients/', { token: user })).status).toBe(403);

    const restored = await t.request('POST', `/api/v1/clients/${c.id}/restore`, { token: su });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: c.id, archived_at: null });
    expect((await listedIds(user)).ids).toContain(c.id);
    await settled(['store-install']);
    expect(ours(c.store)).toEqual(expect.arrayContaining(['order/paid', 'app/uninstalled']));
    const twice = await t.request('POST', `/api/v1/clients/${c.id}/restore`, { token: su });
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toBe('Client is not archived');
  });

  it('an archived client does not hold its store: a new client takes it, and the old one cannot come back over it', async () => {
    const c = await tools.connectedClient();
    expect((await t.request('DELETE', `/api/v1/clients/${c.id}`, { token: user })).status).toBe(200);
    const fresh = await t.request('POST', '/api/v1/clients/', {
      token: user,
      json: { url: 'https://nova.example.com', nuvemshop_store_id: c.storeId },
    });
    expect(fresh.status).toBe(200);
    await settled(['client-archived']);
    const back = await t.request('POST', `/api/v1/clients/${c.id}/restore`, { token: su });
    expect(back.status).toBe(409);
    expect(back.body.detail).toBe('A client with this nuvemshop_store_id already exists');
  });

  it('purge: superusers only, archived clients only; the client and its history are gone', async () => {
    const c = await clientWithOrder();
    const live = await t.request('POST', `/api/v1/clients/${c.id}/purge`, { token: su });
    expect(live.status).toBe(409);
    expect(live.body.detail).toBe('Client is not archived');
    expect((await t.request('DELETE', `/api/v1/clients/${c.id}`, { token: user })).status).toBe(200);
    const refused = await t.request('POST', `/api/v1/clients/${c.id}/purge`, { token: user });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe("The user doesn't have enough privileges");
    const before = await listedIds(user);

    const purged = await t.request('POST', `/api/v1/clients/${c.id}/purge`, { token: su });
    expect(purged.status).toBe(200);
    expect(purged.body).toEqual({ message: 'Client and its history purged successfully' });
    expect((await t.request('GET', `/api/v1/clients/${c.id}`, { token: su })).status).toBe(404);
    for (const table of ['orders', 'sync_runs', 'product_links', 'webhook_events'])
      expect(await t.sql(`select 1 from ${table} where client_id = $1`, [c.id]), table).toEqual([]);
    // It counted in no total already.
    expect((await listedIds(user)).count).toBe(before.count);
    // The database itself refuses to delete a client with history.
    const other = await clientWithOrder();
    await expect(t.sql('delete from clients where id = $1', [other.id])).rejects.toThrow(/foreign key/);
  });
});

describe('through GraphQL', () => {
  it('deleteClient archives; lists and pickers leave it out, a lookup by id still names it; restore and purge', async () => {
    const c = await clientWithOrder();
    const gql = async (query: string, variables: Record<string, unknown>, token = su) =>
      (await t.graphql(query, variables, token)).body;
    const deleted = await gql(`mutation($id: ID!) { deleteClient(id: $id) { id archived_at } }`, { id: c.id }, user);
    expect(deleted.errors).toBeUndefined();
    expect(deleted.data.deleteClient.archived_at).toEqual(expect.any(String));

    const list = await gql(`{ allClients(perPage: 1000) { id } _allClientsMeta { count } }`, {}, user);
    expect(list.data.allClients.map((x: { id: string }) => x.id)).not.toContain(c.id);
    const picker = await gql(`query($q: String) { allClients(filter: { q: $q }) { id } }`, { q: 'loja' }, user);
    expect(picker.data.allClients.map((x: { id: string }) => x.id)).not.toContain(c.id);
    const named = await gql(
      `query($ids: [ID!]) { allClients(filter: { ids: $ids }) { id url } }`,
      { ids: [c.id] },
      user,
    );
    expect(named.data.allClients).toEqual([{ id: c.id, url: `https://loja${c.storeId}.example.com` }]);
    const orders = await gql(`query($c: ID) { allOrders(filter: { client_id: $c }) { client_id } }`, { c: c.id }, user);
    expect(orders.data.allOrders).toEqual([{ client_id: c.id }]);

    const refused = await gql(`mutation($id: ID!) { restoreClient(id: $id) { id } }`, { id: c.id }, user);
    expect(refused.errors[0].message).toBe("The user doesn't have enough privileges");
    const restored = await gql(`mutation($id: ID!) { restoreClient(id: $id) { id archived_at } }`, { id: c.id });
    expect(restored.data.restoreClient).toEqual({ id: c.id, archived_at: null });

    await gql(`mutation($id: ID!) { deleteClient(id: $id) { id } }`, { id: c.id });
    const purgeRefused = await gql(`mutation($id: ID!) { purgeClient(id: $id) { id } }`, { id: c.id }, user);
    expect(purgeRefused.errors[0].message).toBe("The user doesn't have enough privileges");
    const purged = await gql(`mutation($id: ID!) { purgeClient(id: $id) { id } }`, { id: c.id });
    expect(purged.data.purgeClient).toEqual({ id: c.id });
    const gone = await gql(`query($id: ID!) { Client(id: $id) { id } }`, { id: c.id });
    expect(gone.errors[0].message).toBe('Client not found');
  });
});

describe('the app installed again on an archived client’s store', () => {
  it('restores that client, with its history, rather than starting a new one', async () => {
    const c = await tools.connectedClient();
    expect((await t.request('DELETE', `/api/v1/clients/${c.id}`, { token: user })).status).toBe(200);
    tokens.answer = () => ({
      status: 200,
      body: { access_token: 'new-store-token', token_type: 'bearer', scope: 'read_products', user_id: c.storeId },
    });
    const installed = await t.request('POST', '/api/v1/callback/authorize', { json: { code: 'again' } });
    expect(installed.status).toBe(200);
    const rows = await t.sql<{ id: string; archived_at: Date | null }>(
      'select id, archived_at from clients where nuvemshop_store_id = $1',
      [c.storeId],
    );
    expect(rows).toEqual([{ id: c.id, archived_at: null }]);
    expect((await listedIds(user)).ids).toContain(c.id);
  });
});
