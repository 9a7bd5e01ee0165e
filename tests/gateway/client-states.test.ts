import { describe, expect, it } from 'vitest';
import { syncSuite } from '../support/sync';

/**
 * A client's state tells the truth: `not_connected` while it lacks a credential or its store (and "Sincronizar agora"
 * is refused naming what), `never_synced` until a run has ended, `idle` ("Em dia") only after one succeeded, `partial`
 * after one that could not write every product.
 */
const suite = syncSuite({ hiper: { pageSize: 4 } });

const stateOf = async (id: string) =>
  (await suite.t.request('GET', `/api/v1/clients/${id}`, { token: suite.su })).body.sync_state as string;

describe("a client's state", () => {
  it('is not_connected while a credential or the store is missing, and the sync is refused naming what', async () => {
    const created = await suite.t.request('POST', '/api/v1/clients/', {
      token: suite.su,
      json: { url: 'https://so-hiper.example.com', hiper_token: 'k'.repeat(64) },
    });
    expect(created.status).toBe(200);
    expect(created.body.sync_state).toBe('not_connected');
    const id = created.body.id as string;

    const refused = await suite.t.request('POST', `/api/v1/clients/${id}/sync`, { token: suite.su, json: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('Missing the Nuvemshop token and the Nuvemshop store id');
    const gql = await suite.t.graphql('mutation ($id: ID!) { syncClient(id: $id) { id } }', { id }, suite.su);
    expect(gql.body.errors[0].message).toBe('Missing the Nuvemshop token and the Nuvemshop store id');

    // Given its store token, only the store id is missing.
    await suite.t.request('PUT', `/api/v1/clients/${id}`, {
      token: suite.su,
      json: { nuvemshop_token: 'n'.repeat(40) },
    });
    expect(await stateOf(id)).toBe('not_connected');
    const again = await suite.t.request('POST', `/api/v1/clients/${id}/sync`, { token: suite.su, json: {} });
    expect(again.body.detail).toBe('Missing the Nuvemshop store id');
    expect(await suite.t.sql('select 1 from sync_runs where client_id = $1', [id])).toEqual([]);

    // The list filters by it.
    const listed = await suite.t.request('GET', '/api/v1/clients/?sync_state=not_connected&limit=100', {
      token: suite.su,
    });
    expect(listed.body.data.map((c: { id: string }) => c.id)).toContain(id);
  });

  it('is never_synced once connected, idle only after a run ended, and not_connected again without a token', async () => {
    const c = await suite.tools.connectedClient();
    c.account.add({ nome: 'Caneta', preco: 2, quantidadeEmEstoque: 3 });
    expect(await stateOf(c.id)).toBe('never_synced');
    // Losing its store id, then getting it back, it has still never synced.
    await suite.t.request('PUT', `/api/v1/clients/${c.id}`, { token: suite.su, json: { nuvemshop_store_id: 0 } });
    expect(await stateOf(c.id)).toBe('not_connected');
    await suite.t.request('PUT', `/api/v1/clients/${c.id}`, {
      token: suite.su,
      json: { nuvemshop_store_id: c.storeId },
    });
    expect(await stateOf(c.id)).toBe('never_synced');

    const run = await suite.tools.syncNow(c.id);
    expect(run.state).toBe('succeeded');
    expect(await stateOf(c.id)).toBe('idle');
    // A credential removed after a run: not connected, whatever the last run did; given back, up to date again.
    await suite.t.request('PUT', `/api/v1/clients/${c.id}`, { token: suite.su, json: { hiper_token: null } });
    expect(await stateOf(c.id)).toBe('not_connected');
    await suite.t.request('PUT', `/api/v1/clients/${c.id}`, { token: suite.su, json: { hiper_token: c.account.key } });
    expect(await stateOf(c.id)).toBe('idle');
  });

  it('is partial, not "Em dia", after a run that could not write every product, and idle once one succeeds', async () => {
    const c = await suite.tools.connectedClient();
    const refused = c.account.add({ nome: 'Recusado', preco: 5, quantidadeEmEstoque: 1 });
    c.account.add({ nome: 'Aceito', preco: 6, quantidadeEmEstoque: 1 });
    suite.nuvemshop.inject({
      store: c.storeId,
      method: 'POST',
      path: '/products',
      status: 422,
      body: { code: 422, message: 'Unprocessable Entity', description: { name: ['is invalid'] } },
    });
    const partial = await suite.tools.syncNow(c.id);
    expect(partial).toMatchObject({ state: 'partial', failed: 1 });
    expect(partial.errors[0]).toMatchObject({ sku: String(refused.codigo) });
    expect(await stateOf(c.id)).toBe('partial');
    // Read again, the refused product is created: the run succeeds and the client is up to date.
    c.account.change(refused.id, { preco: 7 });
    expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'succeeded', failed: 0 });
    expect(await stateOf(c.id)).toBe('idle');
  });
});
