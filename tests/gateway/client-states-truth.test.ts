import { describe, expect, it } from 'vitest';
import { syncSuite } from '../support/sync';

/**
 * A client's state says what happened to its store: `never_synced` until a catalogue run has written it, a wrong
 * credential found by the next run whatever it has to write, and a credential staff fix takes the client out of the
 * state its refusal put it in at once, so "Sincronizar agora" is offered again and the next run decides.
 */
const suite = syncSuite({ hiper: { pageSize: 4 } });

const stateOf = async (id: string) =>
  (await suite.t.request('GET', `/api/v1/clients/${id}`, { token: suite.su })).body.sync_state as string;

describe("a client's state", () => {
  it('stays never_synced through stock runs with nothing to write, and is idle once a catalogue run wrote the store', async () => {
    const c = await suite.tools.connectedClient();
    expect(await suite.tools.syncNow(c.id, 'stock')).toMatchObject({ state: 'succeeded' });
    expect(await suite.tools.syncNow(c.id, 'stock')).toMatchObject({ state: 'succeeded' });
    expect(await stateOf(c.id)).toBe('never_synced');
    // An edit of something else does not make it up to date either.
    await suite.t.request('PUT', `/api/v1/clients/${c.id}`, { token: suite.su, json: { name: 'Loja da Maria' } });
    expect(await stateOf(c.id)).toBe('never_synced');

    c.account.add({ nome: 'Caneta', preco: 2, quantidadeEmEstoque: 3 });
    expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'succeeded', created: 1 });
    expect(await stateOf(c.id)).toBe('idle');
    expect(await suite.tools.syncNow(c.id, 'stock')).toMatchObject({ state: 'succeeded' });
    expect(await stateOf(c.id)).toBe('idle');
  });

  it('finds a wrong store token at the first run with nothing to write, and leaves token_revoked once it is fixed', async () => {
    const c = await suite.tools.connectedClient({ nuvemshop_token: 'wrong-token' });
    const run = await suite.tools.syncNow(c.id, 'stock');
    expect(run.state).toBe('failed');
    expect(run.errors[0]).toMatchObject({ code: 'nuvemshop_token_revoked' });
    expect(await stateOf(c.id)).toBe('token_revoked');
    const refused = await suite.t.request('POST', `/api/v1/clients/${c.id}/sync`, { token: suite.su, json: {} });
    expect(refused.status).toBe(409);

    // The same wrong token sent again fixes nothing.
    await suite.t.request('PUT', `/api/v1/clients/${c.id}`, {
      token: suite.su,
      json: { nuvemshop_token: 'wrong-token' },
    });
    expect(await stateOf(c.id)).toBe('token_revoked');

    const fixed = await suite.t.request('PUT', `/api/v1/clients/${c.id}`, {
      token: suite.su,
      json: { nuvemshop_token: c.store.token },
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body.sync_state).toBe('never_synced');
    const started = await suite.t.request('POST', `/api/v1/clients/${c.id}/sync`, { token: suite.su, json: {} });
    expect(started.status).toBe(202);
    expect(await suite.tools.waitForRun(started.body.id)).toMatchObject({ state: 'succeeded' });
    expect(await stateOf(c.id)).toBe('idle');
  });

  it('leaves failed at once when the Hiper key it was refused is replaced', async () => {
    const c = await suite.tools.connectedClient({ hiper_token: 'h'.repeat(64) });
    expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'failed' });
    expect(await stateOf(c.id)).toBe('failed');

    const fixed = await suite.t.request('PUT', `/api/v1/clients/${c.id}`, {
      token: suite.su,
      json: { hiper_token: c.account.key },
    });
    expect(fixed.body.sync_state).toBe('never_synced');
    expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'succeeded' });
    expect(await stateOf(c.id)).toBe('idle');
  });
});

describe("a client's URL", () => {
  const TAKEN = 'A client with this url already exists';

  it('belongs to one live client: 409 through REST and GraphQL, free again once that client is deleted', async () => {
    const first = await suite.t.request('POST', '/api/v1/clients/', {
      token: suite.su,
      json: { url: 'https://uma-url.example.com', name: 'Primeira' },
    });
    expect(first.status).toBe(200);
    const again = await suite.t.request('POST', '/api/v1/clients/', {
      token: suite.su,
      json: { url: 'https://uma-url.example.com', name: 'Segunda' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: TAKEN });
    const gql = await suite.t.graphql(
      'mutation { createClient(url: "https://uma-url.example.com") { id } }',
      {},
      suite.su,
    );
    expect(gql.body.errors[0].message).toBe(TAKEN);

    const other = await suite.t.request('POST', '/api/v1/clients/', {
      token: suite.su,
      json: { url: 'https://outra-url.example.com' },
    });
    const moved = await suite.t.request('PUT', `/api/v1/clients/${other.body.id}`, {
      token: suite.su,
      json: { url: 'https://uma-url.example.com' },
    });
    expect(moved.status).toBe(409);
    expect(moved.body).toEqual({ detail: TAKEN });

    await suite.t.request('DELETE', `/api/v1/clients/${first.body.id}`, { token: suite.su });
    const free = await suite.t.request('PUT', `/api/v1/clients/${other.body.id}`, {
      token: suite.su,
      json: { url: 'https://uma-url.example.com' },
    });
    expect(free.status).toBe(200);
  });
});
