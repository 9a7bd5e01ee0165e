import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { LOCATIONS_APP_SECRET, locationTools } from '../support/locations';
import { deliverWebhook, startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';

/**
 * "Ler estoques da loja" and the `location/*` webhooks: the store's locations read into the client's rows (new ones
 * added, names, priorities and the default refreshed, those gone marked deleted and kept), never a store location
 * created, a refusal kept on the client in Portuguese, and a late read never undoing a newer one. A real gateway and
 * its workers against the Nuvemshop stand-in.
 */
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;
let su: string;
let tools: ReturnType<typeof locationTools>;

beforeAll(async () => {
  nuvemshop = await startNuvemshopApi();
  t = await startTestGateway({
    NUVEMSHOP_API_URL: nuvemshop.url,
    NUVEMSHOP_TOKEN_URL: nuvemshop.tokenUrl,
    NUVEMSHOP_CLIENT_SECRET: LOCATIONS_APP_SECRET,
    SYNC_CATALOGUE_CRON: '0 0 1 1 *',
    SYNC_FULL_READ_CRON: '0 0 1 1 *',
    SYNC_STOCK_INTERVAL_SECONDS: '86400',
    ORDERS_SWEEP_INTERVAL_SECONDS: '86400',
  });
  su = await t.superuserToken();
  tools = locationTools(t, su, nuvemshop);
  // The store's webhooks reach this gateway, at the path the product registered them at.
  nuvemshop.sendWebhooksTo({ url: t.url, secret: LOCATIONS_APP_SECRET });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await nuvemshop?.close();
});

const names = (rows: { name: string }[]) => rows.map((row) => row.name);
const webhook = (storeId: number, event: string, id: string) =>
  deliverWebhook(`${t.url}/api/v1/webhooks/nuvemshop`, { store_id: storeId, event, id }, LOCATIONS_APP_SECRET);
const eventsOf = (storeId: number) =>
  t.sql<{ event: string; outcome: string; note: string | null; client_id: string | null }>(
    `select event, outcome, note, client_id from webhook_events where store_id = $1 order by received_at, id`,
    [storeId],
  );

describe('Ler estoques da loja', () => {
  it('adds a row for each store location, in its priority order with its default, and never creates one in the store', async () => {
    const c = await tools.storeClient(['Loja', 'Depósito', 'Outlet']);
    expect(await tools.locationsOf(c.id)).toEqual([]);

    const asked = await t.request('POST', `/api/v1/clients/${c.id}/locations/read`, { token: su });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ id: c.id, url: `https://estoques${c.storeId}.example.com` });
    await tools.readsDone();

    const rows = await tools.locationsOf(c.id);
    expect(
      rows.map(({ name, priority, is_default, deleted_at, nuvemshop_location_id, stock_state }) => ({
        name,
        priority,
        is_default,
        deleted_at,
        nuvemshop_location_id,
        stock_state,
      })),
    ).toEqual(
      c.store.locations.map((l, i) => ({
        name: l.name,
        priority: i,
        is_default: i === 0,
        deleted_at: null,
        nuvemshop_location_id: l.id,
        stock_state: 'never_synced',
      })),
    );
    const client = (await t.request('GET', `/api/v1/clients/${c.id}`, { token: su })).body;
    expect(client.locations_read_at).toEqual(expect.any(String));
    expect(client.locations_error).toBeNull();
    // The store's locations are read, never written: nothing was created or changed there.
    const calls = tools.routes(c.storeId);
    expect(calls).toContain('GET /locations');
    expect(calls.filter((route) => route?.includes('locations') && !route.startsWith('GET'))).toEqual([]);
    expect(c.store.locations).toHaveLength(3);
  });

  it('read again: refreshes names, priorities and the default, adds the new, marks the gone deleted and keeps them', async () => {
    const c = await tools.storeClient(['Loja', 'Depósito', 'Outlet']);
    await tools.readNow(c.id);
    const [shop, depot, outlet] = c.store.locations;
    // The merchant changes the store in its own admin (no webhook registered yet: only a read tells the product).
    await c.store.stockLocations.rename(depot.id, 'Depósito Sul');
    await c.store.stockLocations.reorder([depot.id, shop.id, outlet.id]);
    await c.store.stockLocations.makeDefault(depot.id);
    await c.store.stockLocations.remove(outlet.id);
    const kiosk = await c.store.stockLocations.add('Quiosque');

    await tools.readNow(c.id);
    const rows = await tools.locationsOf(c.id);
    expect(
      rows.map(({ name, priority, is_default, deleted_at }) => ({ name, priority, is_default, deleted: !!deleted_at })),
    ).toEqual([
      { name: 'Depósito Sul', priority: 0, is_default: true, deleted: false },
      { name: 'Loja', priority: 1, is_default: false, deleted: false },
      { name: 'Quiosque', priority: kiosk.priority, is_default: false, deleted: false },
      { name: 'Outlet', priority: 2, is_default: false, deleted: true },
    ]);
    // The rows kept their ids: a read changes rows, it does not replace them.
    expect(rows.filter((row) => row.nuvemshop_location_id === shop.id)).toHaveLength(1);
  });

  it('reads a client’s one migrated location id into its row, named from the store', async () => {
    const c = await tools.storeClient(['Loja', 'Depósito']);
    const depot = c.store.locations[1];
    await t.sql(
      `insert into locations (id, client_id, nuvemshop_location_id, is_default, created_at, updated_at)
        values (gen_random_uuid(), $1, $2, true, now(), now())`,
      [c.id, depot.id],
    );
    await tools.readNow(c.id);
    const rows = await tools.locationsOf(c.id);
    expect(rows.map(({ name, priority, is_default }) => ({ name, priority, is_default }))).toEqual([
      { name: 'Loja', priority: 0, is_default: true },
      { name: 'Depósito', priority: 1, is_default: false },
    ]);
    expect(rows.filter((row) => row.nuvemshop_location_id === depot.id)).toHaveLength(1);
  });

  it('through GraphQL, readStoreLocations queues the same read and answers the client', async () => {
    const c = await tools.storeClient(['Loja', 'Depósito']);
    const answer = await t.graphql<{ readStoreLocations: { id: string; name: string } }>(
      'mutation($id: ID!) { readStoreLocations(id: $id) { id name } }',
      { id: c.id },
      su,
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data?.readStoreLocations).toEqual({ id: c.id, name: `Loja ${c.storeId}` });
    await tools.readsDone();
    expect(names(await tools.locationsOf(c.id))).toEqual(['Loja', 'Depósito']);
  });

  it('keeps each refusal on the client, in Portuguese, and changes nothing', async () => {
    const c = await tools.storeClient(['Loja', 'Depósito']);
    await tools.readNow(c.id);
    await c.store.stockLocations.rename(c.store.locations[1].id, 'Renomeado');

    c.store.scopes.delete('read_locations');
    c.store.scopes.delete('write_locations');
    let client = await tools.readNow(c.id);
    expect(client.locations_error).toBe(
      'Permissão ausente na Nuvemshop: read_locations (reinstale o app na loja para concedê-la): os estoques não foram lidos',
    );
    expect(client.nuvemshop_missing_scopes).toBe('read_locations');
    expect(names(await tools.locationsOf(c.id))).toEqual(['Loja', 'Depósito']);
    c.store.scopes.add('read_locations');

    nuvemshop.suspend(c.storeId);
    client = await tools.readNow(c.id);
    expect(client.locations_error).toBe(
      'A Nuvemshop suspendeu a loja por falta de pagamento (402): os estoques não foram lidos',
    );
    nuvemshop.resume(c.storeId);

    nuvemshop.revoke(c.storeId);
    client = await tools.readNow(c.id);
    expect(client.locations_error).toBe(
      'Token Nuvemshop recusado pela Nuvemshop (401) ao ler os estoques: o aplicativo precisa ser instalado de novo',
    );
    expect(names(await tools.locationsOf(c.id))).toEqual(['Loja', 'Depósito']);
    c.store.revoked = false;

    // A read that works clears the reason.
    client = await tools.readNow(c.id);
    expect(client.locations_error).toBeNull();
    expect(names(await tools.locationsOf(c.id))).toEqual(['Loja', 'Renomeado']);
  });

  it('keeps Nuvemshop out of reach on the client once its last attempt failed, and an answer it does not understand', async () => {
    const c = await tools.storeClient(['Loja']);
    nuvemshop.inject({ store: c.storeId, path: '/locations', method: 'GET', status: 503, times: 100 });
    const asked = await t.request('POST', `/api/v1/clients/${c.id}/locations/read`, { token: su });
    expect(asked.status).toBe(202);
    await expect
      .poll(async () => (await t.request('GET', `/api/v1/clients/${c.id}`, { token: su })).body.locations_error, {
        timeout: 60_000,
        interval: 500,
      })
      .toBe('Não foi possível falar com a Nuvemshop para ler os estoques: tente “Ler estoques da loja” de novo');
    nuvemshop.clearFaults();
    nuvemshop.inject({ store: c.storeId, path: '/locations', method: 'GET', answerBody: { locations: 'nenhum' } });
    const client = await tools.readNow(c.id);
    expect(client.locations_error).toBe('A Nuvemshop deu uma resposta que a integração não entende ao ler os estoques');
    expect(await tools.locationsOf(c.id)).toEqual([]);
  }, 120_000);

  it('refuses a client it cannot call: 409 naming what it lacks, 404 for none, 422 for an id that is not one', async () => {
    const half = await t.request('POST', '/api/v1/clients/', {
      token: su,
      json: { url: 'https://sem-loja.example.com', hiper_token: 'h'.repeat(20) },
    });
    const missing = await t.request('POST', `/api/v1/clients/${half.body.id}/locations/read`, { token: su });
    expect(missing).toMatchObject({
      status: 409,
      body: { detail: 'Missing the Nuvemshop token and the Nuvemshop store id' },
    });
    const c = await tools.storeClient(['Loja']);
    await t.sql(`update clients set sync_state = 'suspended' where id = $1`, [c.id]);
    const stopped = await t.request('POST', `/api/v1/clients/${c.id}/locations/read`, { token: su });
    expect(stopped.status).toBe(409);
    expect(stopped.body.detail).toMatch(/does not let the product in/);
    const none = await t.request('POST', `/api/v1/clients/00000000-0000-4000-8000-000000000000/locations/read`, {
      token: su,
    });
    expect(none).toMatchObject({ status: 404, body: { detail: 'Client not found' } });
    const bad = await t.request('POST', `/api/v1/clients/not-an-id/locations/read`, { token: su });
    expect(bad.status).toBe(422);
    expect(
      await t.sql(`select 1 from pgboss.job where name = 'locations-read' and data->>'clientId' = $1`, [c.id]),
    ).toEqual([]);
  });
});

describe('the location webhooks', () => {
  it('are registered by a read staff ask for, and then keep the rows current as the store changes', async () => {
    const c = await tools.storeClient(['Loja']);
    await tools.readNow(c.id);
    expect(c.store.webhooks.map((w) => [w.event, w.url]).filter(([event]) => event.startsWith('location/'))).toEqual(
      ['location/created', 'location/updated', 'location/deleted'].map((event) => [
        event,
        'https://integracao.test/api/v1/webhooks/nuvemshop',
      ]),
    );

    const depot = await c.store.stockLocations.add('Depósito');
    expect(c.store.stockLocations.sent.at(-1)).toEqual({ event: 'location/created', id: depot.id, status: 200 });
    await tools.readsDone();
    expect(names(await tools.locationsOf(c.id))).toEqual(['Loja', 'Depósito']);

    await c.store.stockLocations.rename(depot.id, 'Depósito Norte');
    await tools.readsDone();
    expect(names(await tools.locationsOf(c.id))).toEqual(['Loja', 'Depósito Norte']);

    await c.store.stockLocations.remove(depot.id);
    await tools.readsDone();
    const rows = await tools.locationsOf(c.id);
    expect(rows.map((row) => [row.name, !!row.deleted_at])).toEqual([
      ['Loja', false],
      ['Depósito Norte', true],
    ]);

    const events = await eventsOf(c.storeId);
    expect(events.map((e) => [e.event, e.outcome, e.client_id])).toEqual([
      ['location/created', 'handled', c.id],
      ['location/updated', 'handled', c.id],
      ['location/deleted', 'handled', c.id],
    ]);
    expect(events[0].note).toBe('Estoques lidos da loja: 1 novo, 0 atualizados, 0 apagados na loja');
    expect(events[2].note).toBe('Estoques lidos da loja: 0 novos, 0 atualizados, 1 apagado na loja');
  });

  it('are idempotent, and an older event never undoes a newer state', async () => {
    const c = await tools.storeClient(['Loja']);
    await tools.readNow(c.id);
    const depot = await c.store.stockLocations.add('Depósito');
    await tools.readsDone();
    // The same delivery again, and again later: the rows stay as they are.
    for (let i = 0; i < 3; i++) expect(await webhook(c.storeId, 'location/created', depot.id)).toBe(200);
    await tools.readsDone();
    expect(names(await tools.locationsOf(c.id))).toEqual(['Loja', 'Depósito']);

    await c.store.stockLocations.remove(depot.id);
    await tools.readsDone();
    // Its creation and an update arriving late, after the deletion: the row stays deleted, and is still one row.
    expect(await webhook(c.storeId, 'location/updated', depot.id)).toBe(200);
    expect(await webhook(c.storeId, 'location/created', depot.id)).toBe(200);
    await tools.readsDone();
    const rows = await tools.locationsOf(c.id);
    expect(rows.map((row) => [row.name, !!row.deleted_at])).toEqual([
      ['Loja', false],
      ['Depósito', true],
    ]);
  });

  it('a read that asked the store before another was applied changes nothing once it lands', async () => {
    const c = await tools.storeClient(['Loja', 'Depósito']);
    await tools.readNow(c.id);
    const depot = c.store.locations[1];
    // The webhook's read has its answer and waits on the way back; the store changes meanwhile, and staff read it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let heldOne = false;
    let answered!: () => void;
    const served = new Promise<void>((resolve) => (answered = resolve));
    nuvemshop.intercept(async (request, phase) => {
      if (phase !== 'served' || request.store !== c.storeId || request.route !== 'GET /locations' || heldOne) return;
      heldOne = true;
      answered();
      await held;
    });
    expect(await webhook(c.storeId, 'location/updated', depot.id)).toBe(200);
    await served;
    // Renamed with no webhook of its own: only the staff's read below sees it.
    nuvemshop.sendWebhooksTo(null);
    await c.store.stockLocations.rename(depot.id, 'Depósito Sul');
    nuvemshop.sendWebhooksTo({ url: t.url, secret: LOCATIONS_APP_SECRET });
    const asked = await t.request('POST', `/api/v1/clients/${c.id}/locations/read`, { token: su });
    expect(asked.status).toBe(202);
    await expect
      .poll(async () => names(await tools.locationsOf(c.id)), { timeout: 20_000 })
      .toEqual(['Loja', 'Depósito Sul']);
    release();
    nuvemshop.intercept(null);
    await tools.readsDone();
    expect(names(await tools.locationsOf(c.id))).toEqual(['Loja', 'Depósito Sul']);
    const [late] = await t.sql<{ output: { skipped?: string } }>(
      `select output from pgboss.job where name = 'locations-read' and data->>'clientId' = $1
          and data->>'trigger' = 'webhook'`,
      [c.id],
    );
    expect(late.output.skipped).toBe('Uma leitura mais recente dos estoques da loja já foi aplicada');
    // The webhook is marked by the read that covered it.
    const [event] = (await eventsOf(c.storeId)).filter((e) => e.event === 'location/updated');
    expect(event).toMatchObject({ outcome: 'handled', note: expect.stringMatching(/^Estoques lidos da loja: /) });
  });

  it('of a store no client has are recorded and ignored; an unsigned one is refused', async () => {
    expect(await webhook(987_654, 'location/created', '01ABCDEF')).toBe(200);
    const [event] = await eventsOf(987_654);
    expect(event).toMatchObject({
      event: 'location/created',
      outcome: 'ignored',
      note: 'Nenhum cliente tem esta loja',
    });
    const unsigned = await t.request('POST', '/api/v1/webhooks/nuvemshop', {
      json: { store_id: 987_654, event: 'location/deleted', id: '01ABCDEF' },
    });
    expect(unsigned.status).toBe(401);
  });

  it('are registered at an install that grants read_locations, and not at one that does not', async () => {
    const install = async (storeId: number) => {
      const code = nuvemshop.installCode(storeId);
      const answer = await t.request('POST', '/api/v1/callback/authorize', { json: { code } });
      expect(answer.status).toBe(200);
      await expect
        .poll(
          async () =>
            (
              await t.sql<{ n: number }>(
                `select count(*)::int as n from pgboss.job where name = 'store-install' and state in ('created', 'retry', 'active')`,
              )
            )[0].n,
        )
        .toBe(0);
    };
    const granted = nuvemshop.addStore(9290);
    await install(9290);
    await expect
      .poll(() => granted.webhooks.map((w) => w.event).filter((e) => e.startsWith('location/')), { timeout: 20_000 })
      .toEqual(['location/created', 'location/updated', 'location/deleted']);

    const without = nuvemshop.addStore(9291);
    without.scopes.delete('read_locations');
    without.scopes.delete('write_locations');
    await install(9291);
    await expect.poll(() => without.webhooks.map((w) => w.event), { timeout: 20_000 }).toContain('app/uninstalled');
    expect(without.webhooks.map((w) => w.event).filter((e) => e.startsWith('location/'))).toEqual([]);
  });
});
