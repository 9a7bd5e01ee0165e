import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { syncEnv, syncTools } from '../support/sync';

/**
 * A client's state tells the truth: `not_connected` while it lacks a credential or its store (and "Sincronizar agora"
 * is refused naming what), `never_synced` until a run has ended, `idle` ("Em dia") only after one succeeded, `partial`
 * after one that could not write every product.
 */
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;
let su: string;
let tools: ReturnType<typeof syncTools>;

beforeAll(async () => {
  [hiper, nuvemshop] = await Promise.all([startHiper({ pageSize: 4 }), startNuvemshopApi()]);
  t = await startTestGateway(syncEnv(hiper, nuvemshop));
  su = await t.superuserToken();
  tools = syncTools(t, su, hiper, nuvemshop);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([hiper?.close(), nuvemshop?.close()]);
});

const stateOf = async (id: string) =>
  (await t.request('GET', `/api/v1/clients/${id}`, { token: su })).body.sync_state as string;

describe("a client's state", () => {
  it('is not_connected while a credential or the store is missing, and the sync is refused naming what', async () => {
    const created = await t.request('POST', '/api/v1/clients/', {
      token: su,
      json: { url: 'https://so-hiper.example.com', hiper_token: 'k'.repeat(64) },
    });
    expect(created.status).toBe(200);
    expect(created.body.sync_state).toBe('not_connected');
    const id = created.body.id as string;

    const refused = await t.request('POST', `/api/v1/clients/${id}/sync`, { token: su, json: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('Missing the Nuvemshop token and the Nuvemshop store id');
    const gql = await t.graphql('mutation ($id: ID!) { syncClient(id: $id) { id } }', { id }, su);
    expect(gql.body.errors[0].message).toBe('Missing the Nuvemshop token and the Nuvemshop store id');

    // Given its store token, only the store id is missing.
    await t.request('PUT', `/api/v1/clients/${id}`, { token: su, json: { nuvemshop_token: 'n'.repeat(40) } });
    expect(await stateOf(id)).toBe('not_connected');
    const again = await t.request('POST', `/api/v1/clients/${id}/sync`, { token: su, json: {} });
    expect(again.body.detail).toBe('Missing the Nuvemshop store id');
    expect(await t.sql('select 1 from sync_runs where client_id = $1', [id])).toEqual([]);

    // The list filters by it.
    const listed = await t.request('GET', '/api/v1/clients/?sync_state=not_connected&limit=100', { token: su });
    expect(listed.body.data.map((c: { id: string }) => c.id)).toContain(id);
  });

  it('is never_synced once connected, idle only after a run ended, and not_connected again without a token', async () => {
    const c = await tools.connectedClient();
    c.account.add({ nome: 'Caneta', preco: 2, quantidadeEmEstoque: 3 });
    expect(await stateOf(c.id)).toBe('never_synced');
    // Losing its store id, then getting it back, it has still never synced.
    await t.request('PUT', `/api/v1/clients/${c.id}`, { token: su, json: { nuvemshop_store_id: 0 } });
    expect(await stateOf(c.id)).toBe('not_connected');
    await t.request('PUT', `/api/v1/clients/${c.id}`, { token: su, json: { nuvemshop_store_id: c.storeId } });
    expect(await stateOf(c.id)).toBe('never_synced');

    const run = await tools.syncNow(c.id);
    expect(run.state).toBe('succeeded');
    expect(await stateOf(c.id)).toBe('idle');
    // A credential removed after a run: not connected, whatever the last run did; given back, up to date again.
    await t.request('PUT', `/api/v1/clients/${c.id}`, { token: su, json: { hiper_token: null } });
    expect(await stateOf(c.id)).toBe('not_connected');
    await t.request('PUT', `/api/v1/clients/${c.id}`, { token: su, json: { hiper_token: c.account.key } });
    expect(await stateOf(c.id)).toBe('idle');
  });

  it('is partial, not "Em dia", after a run that could not write every product, and idle once one succeeds', async () => {
    const c = await tools.connectedClient();
    const refused = c.account.add({ nome: 'Recusado', preco: 5, quantidadeEmEstoque: 1 });
    c.account.add({ nome: 'Aceito', preco: 6, quantidadeEmEstoque: 1 });
    nuvemshop.inject({
      store: c.storeId,
      method: 'POST',
      path: '/products',
      status: 422,
      body: { code: 422, message: 'Unprocessable Entity', description: { name: ['is invalid'] } },
    });
    const partial = await tools.syncNow(c.id);
    expect(partial).toMatchObject({ state: 'partial', failed: 1 });
    expect(partial.errors[0]).toMatchObject({ sku: String(refused.codigo) });
    expect(await stateOf(c.id)).toBe('partial');
    // Read again, the refused product is created: the run succeeds and the client is up to date.
    c.account.change(refused.id, { preco: 7 });
    expect(await tools.syncNow(c.id)).toMatchObject({ state: 'succeeded', failed: 0 });
    expect(await stateOf(c.id)).toBe('idle');
  });
});
