import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptToken } from '../../gateway/database/token-cipher';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { locationTools } from '../support/locations';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';

/**
 * What staff set on a client's locations: a location's Hiper key (a secret masked for everyone, superusers included,
 * in every answer and never in a log), their order and the default sent to the store (mirrored when it took them,
 * nothing changed when it refused), and every wrong input answered 4xx with a detail. A real gateway against the
 * Nuvemshop stand-in, its log kept to be read.
 */
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;
let su: string;
let tools: ReturnType<typeof locationTools>;
const logged: string[] = [];

beforeAll(async () => {
  nuvemshop = await startNuvemshopApi();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(chunk.toString('utf8'));
      done();
    },
  });
  t = await startTestGateway(
    {
      NUVEMSHOP_API_URL: nuvemshop.url,
      LOG_LEVEL: 'trace',
      SYNC_CATALOGUE_CRON: '0 0 1 1 *',
      SYNC_FULL_READ_CRON: '0 0 1 1 *',
      SYNC_STOCK_INTERVAL_SECONDS: '86400',
    },
    pino({ level: 'trace' }, sink),
  );
  su = await t.superuserToken();
  tools = locationTools(t, su, nuvemshop);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await nuvemshop?.close();
});

const MASK = '••••••••';
const put = (id: string, json: unknown, token = su) => t.request('PUT', `/api/v1/locations/${id}`, { token, json });
const priorities = (clientId: string, json: unknown) =>
  t.request('PUT', `/api/v1/clients/${clientId}/locations/priorities`, { token: su, json });
const makeDefault = (id: string) => t.request('POST', `/api/v1/locations/${id}/default`, { token: su });
const storedKey = async (id: string) => {
  const [row] = await t.sql<{ hiper_token: string | null }>(`select hiper_token from locations where id = $1`, [id]);
  return row.hiper_token === null ? null : decryptToken(row.hiper_token);
};
const writesTo = (storeId: number, route: string) =>
  nuvemshop.requestsOf(storeId).filter((r) => r.route === route).length;

/** A client whose store's locations have been read into its rows. */
async function readClient(names = ['Loja', 'Depósito', 'Outlet']) {
  const c = await tools.storeClient(names);
  await tools.readNow(c.id);
  const rows = await tools.locationsOf(c.id);
  expect(rows.map((row) => row.name)).toEqual(names);
  return { ...c, rows };
}

describe('a location’s Hiper key', () => {
  it('is masked for everyone, superusers included, in every answer; kept as sent; never in the log', async () => {
    const c = await readClient(['Loja', 'Depósito']);
    const key = 'chave-de-seguranca-do-deposito-8f3a';
    const masked = `${MASK}8f3a`;
    const depot = c.rows[1];
    const saved = await put(depot.id, { hiper_token: key });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.hiper_token).toBe(masked);
    expect(await storedKey(depot.id)).toBe(key);

    const user = await t.createUser();
    for (const token of [su, user.token]) {
      expect((await t.request('GET', `/api/v1/locations/${depot.id}`, { token })).body.hiper_token).toBe(masked);
      expect((await tools.locationsOf(c.id, token))[1].hiper_token).toBe(masked);
      const graphql = await t.graphql(
        'query($id: ID!, $client: ID!) { Location(id: $id) { hiper_token } allLocations(filter: {client_id: $client}, sortField: "priority", sortOrder: "ASC") { hiper_token } }',
        { id: depot.id, client: c.id },
        token,
      );
      expect(graphql.body.data).toEqual({
        Location: { hiper_token: masked },
        allLocations: [{ hiper_token: null }, { hiper_token: masked }],
      });
    }
    const mutation = await t.graphql(
      'mutation($id: ID!, $key: String) { updateLocation(id: $id, hiper_token: $key) { hiper_token } }',
      { id: depot.id, key: `${key}-2` },
      su,
    );
    expect(mutation.body.data).toEqual({ updateLocation: { hiper_token: `${MASK}3a-2` } });
    expect(await storedKey(depot.id)).toBe(`${key}-2`);
    // Anyone signed in may give a key; what they send back masked changes nothing.
    expect((await put(depot.id, { hiper_token: key }, user.token)).status).toBe(200);
    const [before] = await t.sql<{ hiper_token: string }>(`select hiper_token from locations where id = $1`, [
      depot.id,
    ]);
    const echoed = await put(depot.id, { hiper_token: masked, name: 'ignorado', priority: 9 }, user.token);
    expect(echoed.status).toBe(200);
    expect(echoed.body).toMatchObject({ hiper_token: masked, name: 'Depósito', priority: 1 });
    const [after] = await t.sql<{ hiper_token: string }>(`select hiper_token from locations where id = $1`, [depot.id]);
    expect(after.hiper_token).toBe(before.hiper_token);
    // A refused key is not echoed either.
    const tooLong = await put(depot.id, { hiper_token: `${key}${'x'.repeat(5000)}` });
    expect(tooLong.status).toBe(422);
    expect(tooLong.text).not.toContain(key);

    // Emptied, the location follows the client's rule again.
    const emptied = await put(depot.id, { hiper_token: '' });
    expect(emptied.body.hiper_token).toBeNull();
    expect(await storedKey(depot.id)).toBeNull();

    const everything = logged.join('');
    expect(everything).toContain(`/api/v1/locations/${depot.id}`);
    expect(everything).not.toContain('chave-de-seguranca');
    const jobs = await t.sql<{ data: unknown }>(`select data from pgboss.job`);
    expect(JSON.stringify(jobs)).not.toContain('chave-de-seguranca');
  });

  it('is refused when it already feeds another of the client’s locations (one Hiper account per location)', async () => {
    const c = await readClient(['Loja', 'Depósito', 'Outlet']);
    const [shop, depot, outlet] = c.rows;
    expect((await put(depot.id, { hiper_token: 'conta-do-deposito-0001' })).status).toBe(200);
    const twice = await put(outlet.id, { hiper_token: 'conta-do-deposito-0001' });
    expect(twice.status).toBe(422);
    expect(twice.body.detail).toEqual([
      expect.objectContaining({
        loc: ['body', 'hiper_token'],
        msg: 'This Hiper key already feeds another location of this client (Depósito): each location needs its own Hiper account',
      }),
    ]);
    expect(twice.text).not.toContain('conta-do-deposito');
    // The client's own key feeds its first location read (which has none of its own): no other may take it.
    const clientsKey = await put(outlet.id, { hiper_token: `hiper-key-of-client-${c.storeId}` });
    expect(clientsKey.status).toBe(422);
    expect(clientsKey.body.detail[0].msg).toMatch(/\(Loja\)/);
    expect(await storedKey(outlet.id)).toBeNull();
    // The first location itself may be given the client's key.
    expect((await put(shop.id, { hiper_token: `hiper-key-of-client-${c.storeId}` })).status).toBe(200);
  });
});

describe('the order of a client’s locations', () => {
  it('is sent to the store, which takes it, and mirrored: 200 with the locations in their order', async () => {
    const c = await readClient();
    const [shop, depot, outlet] = c.rows;
    const answer = await priorities(c.id, [outlet.id, shop.id, depot.id]);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.map((row: { name: string; priority: number }) => [row.name, row.priority])).toEqual([
      ['Outlet', 0],
      ['Loja', 1],
      ['Depósito', 2],
    ]);
    const sent = nuvemshop.requestsOf(c.storeId).find((r) => r.route === 'PATCH /locations/priorities');
    expect(sent?.body).toEqual([
      { id: outlet.nuvemshop_location_id, priority: 0 },
      { id: shop.nuvemshop_location_id, priority: 1 },
      { id: depot.nuvemshop_location_id, priority: 2 },
    ]);
    expect(tools.storeSide(c.store)).toEqual([
      { name: 'Outlet', priority: 0, is_default: false },
      { name: 'Loja', priority: 1, is_default: true },
      { name: 'Depósito', priority: 2, is_default: false },
    ]);
    expect((await tools.locationsOf(c.id)).map((row) => row.name)).toEqual(['Outlet', 'Loja', 'Depósito']);
    // Through GraphQL, the same.
    const graphql = await t.graphql(
      'mutation($id: ID!, $ids: [ID!]!) { setLocationPriorities(id: $id, location_ids: $ids) { name priority } }',
      { id: c.id, ids: [shop.id, depot.id, outlet.id] },
      su,
    );
    expect(graphql.body.data.setLocationPriorities).toEqual([
      { name: 'Loja', priority: 0 },
      { name: 'Depósito', priority: 1 },
      { name: 'Outlet', priority: 2 },
    ]);
    expect(tools.storeSide(c.store).map((l) => l.name)).toEqual(['Loja', 'Depósito', 'Outlet']);
  });

  it('the store refused: 422 with its reason, and nothing changed here or there', async () => {
    const c = await readClient(['Loja', 'Depósito']);
    const [shop, depot] = c.rows;
    // A location the product has not read yet: the store wants every one of its own.
    await c.store.stockLocations.add('Quiosque');
    const before = tools.storeSide(c.store);
    const refused = await priorities(c.id, [depot.id, shop.id]);
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toBe(
      'Nuvemshop refused the new order of the locations: The priorities must include every location of the store (HTTP 422)',
    );
    expect(tools.storeSide(c.store)).toEqual(before);
    expect((await tools.locationsOf(c.id)).map((row) => [row.name, row.priority])).toEqual([
      ['Loja', 0],
      ['Depósito', 1],
    ]);

    // Without write_locations the store answers 403: named, and kept on the client.
    c.store.scopes.delete('write_locations');
    const forbidden = await priorities(c.id, [depot.id, shop.id]);
    expect(forbidden.status).toBe(422);
    expect(forbidden.body.detail).toBe(
      'Nuvemshop refused the new order of the locations: the app lacks the write_locations permission (HTTP 403)',
    );
    const client = (await t.request('GET', `/api/v1/clients/${c.id}`, { token: su })).body;
    expect(client.nuvemshop_missing_scopes).toBe('write_locations');
    c.store.scopes.add('write_locations');

    // Out of reach: 502, nothing changed.
    nuvemshop.inject({ store: c.storeId, path: '/locations/priorities', status: 503 });
    const unreachable = await priorities(c.id, [depot.id, shop.id]);
    expect(unreachable).toMatchObject({
      status: 502,
      body: { detail: 'Could not reach Nuvemshop; nothing was changed' },
    });
    expect(tools.storeSide(c.store)).toEqual(before);
    expect((await tools.locationsOf(c.id)).map((row) => row.name)).toEqual(['Loja', 'Depósito']);

    // Through GraphQL: the same refusal, its status and detail.
    const graphql = await t.graphql(
      'mutation($id: ID!, $ids: [ID!]!) { setLocationPriorities(id: $id, location_ids: $ids) { id } }',
      { id: c.id, ids: [depot.id, shop.id] },
      su,
    );
    expect(graphql.body.errors[0]).toMatchObject({
      message:
        'Nuvemshop refused the new order of the locations: The priorities must include every location of the store (HTTP 422)',
      extensions: { status: 422 },
    });
  });

  it('refuses what is not every live location of the client once, naming what is wrong, before asking the store', async () => {
    const c = await readClient();
    const other = await readClient(['Loja da outra']);
    const [shop, depot, outlet] = c.rows;
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    const cases: [unknown, number, unknown][] = [
      [
        [shop.id, depot.id, unknown],
        422,
        [
          { loc: ['body', 2], msg: 'Location not found' },
          { loc: ['body'], msg: expect.stringMatching(/missing: Outlet/) },
        ],
      ],
      [
        [shop.id, depot.id, other.rows[0].id, outlet.id],
        422,
        [{ loc: ['body', 2], msg: 'Location belongs to another client' }],
      ],
      [
        [shop.id, depot.id, depot.id, outlet.id],
        422,
        [{ loc: ['body', 2], msg: 'Location given more than once: each location takes one place' }],
      ],
      [
        [shop.id, depot.id],
        422,
        [
          {
            loc: ['body'],
            msg: `Every live location of the client must be given once; missing: Outlet (${outlet.id})`,
          },
        ],
      ],
      [[shop.id, 'loja'], 422, [{ loc: ['body', 1], msg: 'Input should be a valid UUID' }]],
      [[], 422, [{ loc: ['body'] }]],
      [{ ids: [shop.id] }, 422, [{ loc: ['body'] }]],
    ];
    for (const [body, status, detail] of cases) {
      const answer = await priorities(c.id, body);
      expect({ body, status: answer.status, detail: answer.body.detail }).toEqual({
        body,
        status,
        detail: (detail as object[]).map((d) => expect.objectContaining(d)),
      });
    }
    expect((await priorities(unknown, [shop.id])).body).toEqual({ detail: 'Client not found' });
    // A location the store deleted takes no place.
    await c.store.stockLocations.remove(outlet.nuvemshop_location_id);
    await tools.readNow(c.id);
    const gone = await priorities(c.id, [shop.id, depot.id, outlet.id]);
    expect(gone.body.detail).toEqual([
      expect.objectContaining({
        loc: ['body', 2],
        msg: 'The store deleted this location: it takes no priority and cannot be the default',
      }),
    ]);
    expect(writesTo(c.storeId, 'PATCH /locations/priorities')).toBe(0);
    expect((await priorities(c.id, [depot.id, shop.id])).status).toBe(200);
  });
});

describe('Tornar padrão', () => {
  it('makes the location the store’s default, and only it ours once the store took it', async () => {
    const c = await readClient();
    const [, depot, outlet] = c.rows;
    const answer = await makeDefault(depot.id);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ id: depot.id, name: 'Depósito', is_default: true });
    expect(nuvemshop.requestsOf(c.storeId).at(-1)).toMatchObject({
      method: 'PATCH',
      path: `/locations/${depot.nuvemshop_location_id}/chosen-as-default`,
    });
    expect(tools.storeSide(c.store).map((l) => l.is_default)).toEqual([false, true, false]);
    expect((await tools.locationsOf(c.id)).map((row) => row.is_default)).toEqual([false, true, false]);

    const graphql = await t.graphql(
      'mutation($id: ID!) { setDefaultLocation(id: $id) { name is_default } }',
      { id: outlet.id },
      su,
    );
    expect(graphql.body.data.setDefaultLocation).toEqual({ name: 'Outlet', is_default: true });
    expect((await tools.locationsOf(c.id)).map((row) => row.is_default)).toEqual([false, false, true]);
  });

  it('the store refused: 422 with its reason, and nothing changed; a deleted or unknown location is refused first', async () => {
    const c = await readClient();
    const [shop, depot, outlet] = c.rows;
    c.store.scopes.delete('write_locations');
    const forbidden = await makeDefault(depot.id);
    expect(forbidden).toMatchObject({
      status: 422,
      body: {
        detail: 'Nuvemshop refused the new default location: the app lacks the write_locations permission (HTTP 403)',
      },
    });
    c.store.scopes.add('write_locations');
    // Deleted in the store, and not read since: the store does not know it any more.
    await c.store.stockLocations.remove(outlet.nuvemshop_location_id);
    const stale = await makeDefault(outlet.id);
    expect(stale).toMatchObject({
      status: 422,
      body: { detail: 'Nuvemshop refused the new default location: Location with such id does not exist (HTTP 404)' },
    });
    expect(tools.storeSide(c.store).map((l) => [l.name, l.is_default])).toEqual([
      ['Loja', true],
      ['Depósito', false],
    ]);
    expect((await tools.locationsOf(c.id)).map((row) => row.is_default)).toEqual([true, false, false]);

    await tools.readNow(c.id);
    expect(await makeDefault(outlet.id)).toMatchObject({
      status: 409,
      body: { detail: 'The store deleted this location: it takes no priority and cannot be the default' },
    });
    expect(await makeDefault('00000000-0000-4000-8000-00000000abcd')).toMatchObject({
      status: 404,
      body: { detail: 'Location not found' },
    });
    expect((await makeDefault('padrao')).status).toBe(422);
    expect(writesTo(c.storeId, 'PATCH /locations/{id}/chosen-as-default')).toBe(2);
    expect((await tools.locationsOf(c.id)).find((row) => row.id === shop.id)?.is_default).toBe(true);
  });
});

describe('deleting a location', () => {
  it('removes our row only: the store keeps its location, and a read brings it back', async () => {
    const c = await readClient(['Loja', 'Depósito']);
    const depot = c.rows[1];
    const deleted = await t.request('DELETE', `/api/v1/locations/${depot.id}`, { token: su });
    expect(deleted).toMatchObject({ status: 200, body: { message: 'Location deleted successfully' } });
    expect((await tools.locationsOf(c.id)).map((row) => row.name)).toEqual(['Loja']);
    expect(c.store.locations.map((l) => l.name)).toEqual(['Loja', 'Depósito']);
    expect(writesTo(c.storeId, 'PATCH /locations/priorities')).toBe(0);
    await tools.readNow(c.id);
    expect((await tools.locationsOf(c.id)).map((row) => row.name)).toEqual(['Loja', 'Depósito']);
  });
});
