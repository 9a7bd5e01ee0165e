import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { isAnswered, type Field } from '../../gateway/kit/field';
import { clientResource } from '../../gateway/clients/client.resource';

/** What a client's answer holds: every answered field of its declaration, so a field added there is expected here. */
const CLIENT_KEYS = Object.entries(clientResource.fields)
  .filter(([, field]) => isAnswered(field))
  .map(([name]) => name)
  .sort();
const STORE_TAKEN = 'A client with this nuvemshop_store_id already exists';

let t: TestGateway;
let user: { token: string; id: string };
let su: string;
let nextStoreId = 1000;

beforeAll(async () => {
  t = await startTestGateway();
  user = await t.createUser();
  su = await t.superuserToken();
});
afterAll(() => t?.close());

interface Client {
  id: string;
  url: string;
  hiper_token: string | null;
  nuvemshop_token: string | null;
  nuvemshop_store_id: number;
  hiper_sync_update_image: boolean;
  hiper_sync_update_dimensions: boolean;
}

async function createClient(json: Record<string, unknown>, token = user.token): Promise<Client> {
  const answer = await t.request('POST', '/api/v1/clients/', { token, json });
  expect(answer.status, answer.text).toBe(200);
  expect(Object.keys(answer.body).sort()).toEqual(CLIENT_KEYS);
  return answer.body;
}

async function countClients(): Promise<number> {
  const [row] = await t.sql<{ n: string }>('select count(*) as n from clients');
  return Number(row.n);
}

describe('GET /clients/', () => {
  it('lists clients to any signed-in user with the total count', async () => {
    const a = await createClient({ url: 'https://a.example' });
    const b = await createClient({ url: 'https://b.example' }, su);
    const answer = await t.request('GET', '/api/v1/clients/', { token: user.token });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['count', 'data']);
    expect(answer.body.count).toBe(await countClients());
    const ids = answer.body.data.map((c: Client) => c.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    for (const client of answer.body.data) expect(Object.keys(client).sort()).toEqual(CLIENT_KEYS);
    // The contract's answers carry no ETag (the gateway does not hash each page to make one).
    expect(answer.headers.get('etag')).toBeNull();
  });

  it('pages with skip and limit while count stays the total', async () => {
    for (let i = 0; i < 3; i++) await createClient({ url: `https://page-${i}.example` });
    const all = await t.request('GET', '/api/v1/clients/', { token: user.token });
    const page = await t.request('GET', '/api/v1/clients/?skip=1&limit=2', { token: user.token });
    expect(page.status).toBe(200);
    expect(page.body.count).toBe(all.body.count);
    expect(page.body.data).toEqual(all.body.data.slice(1, 3));
  });

  it('answers 401 without a token', async () => {
    const answer = await t.request('GET', '/api/v1/clients/');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ detail: 'Not authenticated' });
  });
});

describe('POST /clients/', () => {
  it('creates a client with the defaults: store id 0, both sync flags true, no tokens', async () => {
    const client = await createClient({ url: 'https://defaults.example' });
    // Every other field as its declaration says: its default, else null.
    const defaults = Object.fromEntries(
      Object.entries(clientResource.fields)
        .filter(([name, field]) => isAnswered(field) && name !== 'id' && name !== 'url')
        .map(([name, field]) => [name, (field as Field).default ?? null]),
    );
    expect(client).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'https://defaults.example',
      ...defaults,
      // Without its credentials and store, it cannot be synced: its state says so rather than its default.
      sync_state: 'not_connected',
    });
    expect(client).toMatchObject({ nuvemshop_store_id: 0, hiper_sync_update_image: true });
  });

  it('creates a client with every field given', async () => {
    const storeId = ++nextStoreId;
    const client = await createClient(
      {
        url: 'https://full.example',
        hiper_token: 'hiper-secret',
        nuvemshop_token: 'nuvem-secret',
        nuvemshop_store_id: storeId,
        hiper_sync_update_image: false,
        hiper_sync_update_dimensions: false,
      },
      su,
    );
    expect(client).toMatchObject({
      url: 'https://full.example',
      hiper_token: 'hiper-secret',
      nuvemshop_token: 'nuvem-secret',
      nuvemshop_store_id: storeId,
      hiper_sync_update_image: false,
      hiper_sync_update_dimensions: false,
    });
    const got = await t.request('GET', `/api/v1/clients/${client.id}`, { token: su });
    expect(got.body).toEqual(client);
  });

  it('takes nuvemshop_store_id as a numeric string and answers it as a number', async () => {
    const storeId = ++nextStoreId;
    const client = await createClient({ url: 'https://text-id.example', nuvemshop_store_id: String(storeId) });
    expect(client.nuvemshop_store_id).toBe(storeId);
  });

  it('keeps a store id beyond 32 bits in a 64-bit column', async () => {
    const big = 2 ** 40 + 7;
    const client = await createClient({ url: 'https://big.example', nuvemshop_store_id: big });
    expect(client.nuvemshop_store_id).toBe(big);
    const [row] = await t.sql<{ id: string; type: string }>(
      'select nuvemshop_store_id::text as id, pg_typeof(nuvemshop_store_id)::text as type from clients where id = $1',
      [client.id],
    );
    expect(row).toEqual({ id: String(big), type: 'bigint' });
    expect(
      (await t.request('GET', `/api/v1/clients/${client.id}`, { token: user.token })).body.nuvemshop_store_id,
    ).toBe(big);
  });

  it('lets many clients keep store id 0, but answers 409 for a non-zero store id already taken', async () => {
    await createClient({ url: 'https://zero-1.example', nuvemshop_store_id: 0 });
    await createClient({ url: 'https://zero-2.example' });
    const storeId = ++nextStoreId;
    await createClient({ url: 'https://first.example', nuvemshop_store_id: storeId });
    const before = await countClients();
    for (const taken of [storeId, String(storeId)]) {
      const answer = await t.request('POST', '/api/v1/clients/', {
        token: user.token,
        json: { url: 'https://second.example', nuvemshop_store_id: taken },
      });
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ detail: STORE_TAKEN });
    }
    expect(await countClients()).toBe(before);
  });

  it('answers 422 for a store id that is negative, fractional, not numeric or too large', async () => {
    const before = await countClients();
    for (const value of [-1, 1.5, 'abc', '12a', true, 2 ** 64]) {
      const answer = await t.request('POST', '/api/v1/clients/', {
        token: user.token,
        json: { url: 'https://bad-id.example', nuvemshop_store_id: value },
      });
      expect(answer.status, String(value)).toBe(422);
      expect(answer.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'nuvemshop_store_id'] })]);
    }
    expect(await countClients()).toBe(before);
  });

  it('answers 422 for a missing, empty or too long url and for flags that are not booleans', async () => {
    const before = await countClients();
    const cases = [
      [{}, ['body', 'url']],
      [{ url: '' }, ['body', 'url']],
      [{ url: `https://${'u'.repeat(250)}.example` }, ['body', 'url']],
      [{ url: 'https://flag.example', hiper_sync_update_image: 'sometimes' }, ['body', 'hiper_sync_update_image']],
      [{ url: 'https://token.example', hiper_token: 12 }, ['body', 'hiper_token']],
    ] as const;
    for (const [json, loc] of cases) {
      const answer = await t.request('POST', '/api/v1/clients/', { token: user.token, json });
      expect(answer.status, JSON.stringify(json).slice(0, 60)).toBe(422);
      expect(answer.body.detail).toEqual([expect.objectContaining({ loc })]);
    }
    expect(await countClients()).toBe(before);
  });

  it('takes only an http or https address as url: anything else is a 422, over REST and GraphQL alike', async () => {
    const before = await countClients();
    const client = await createClient({ url: 'https://kept.example' });
    const refusals = [
      ['not a url', 'url_parsing', 'Input should be a valid URL, relative URL without a base'],
      ['loja.example.com', 'url_parsing', 'Input should be a valid URL, relative URL without a base'],
      ['ftp://loja.example.com', 'url_scheme', "URL scheme should be 'http' or 'https'"],
      ['javascript:alert(1)', 'url_scheme', "URL scheme should be 'http' or 'https'"],
      ['https://', 'url_parsing', 'Input should be a valid URL, empty host'],
    ] as const;
    for (const [url, type, msg] of refusals) {
      const detail = [{ type, loc: ['body', 'url'], msg, input: url }];
      const created = await t.request('POST', '/api/v1/clients/', { token: user.token, json: { url } });
      expect([created.status, created.body], url).toEqual([422, { detail }]);
      const updated = await t.request('PUT', `/api/v1/clients/${client.id}`, { token: user.token, json: { url } });
      expect([updated.status, updated.body], url).toEqual([422, { detail }]);
      for (const mutation of [
        'mutation($url: String!) { createClient(url: $url) { id } }',
        'mutation($id: ID!, $url: String) { updateClient(id: $id, url: $url) { id } }',
      ]) {
        const answer = await t.graphql(mutation, { url, id: client.id }, user.token);
        expect(answer.body.data, url).toBeNull();
        expect(answer.body.errors, url).toEqual([
          expect.objectContaining({ message: msg, extensions: { code: 'BAD_USER_INPUT', status: 422, detail } }),
        ]);
      }
    }
    expect(await countClients()).toBe(before + 1);
    expect((await t.request('GET', `/api/v1/clients/${client.id}`, { token: user.token })).body.url).toBe(
      'https://kept.example',
    );
    // Both schemes, any case, a port, a path; surrounding spaces are trimmed as for any required text.
    for (const url of [
      'http://loja.example.com',
      'HTTPS://Loja.Example.com:8443/loja?x=1',
      ' https://spaces.example ',
    ]) {
      expect((await createClient({ url })).url).toBe(url.trim());
    }
  });

  it('answers 401 without a token and creates nothing', async () => {
    const before = await countClients();
    const answer = await t.request('POST', '/api/v1/clients/', { json: { url: 'https://anonymous.example' } });
    expect(answer.status).toBe(401);
    expect(await countClients()).toBe(before);
  });
});

describe('tokens at rest', () => {
  it('stores hiper_token and nuvemshop_token encrypted and answers them decrypted', async () => {
    const client = await createClient({
      url: 'https://secret.example',
      hiper_token: 'hiper-plain-token-123',
      nuvemshop_token: 'nuvemshop-plain-token-456',
    });
    const rows = await t.sql<{ hiper_token: string; nuvemshop_token: string }>(
      'select hiper_token, nuvemshop_token from clients where id = $1',
      [client.id],
    );
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain('hiper-plain-token-123');
    expect(stored).not.toContain('nuvemshop-plain-token-456');
    expect(rows[0].hiper_token).toEqual(expect.any(String));
    expect(rows[0].hiper_token.length).toBeGreaterThan('hiper-plain-token-123'.length);

    const all = await t.sql('select * from clients');
    expect(JSON.stringify(all)).not.toMatch(/plain-token/);

    const got = await t.request('GET', `/api/v1/clients/${client.id}`, { token: su });
    expect(got.body).toMatchObject({
      hiper_token: 'hiper-plain-token-123',
      nuvemshop_token: 'nuvemshop-plain-token-456',
    });
    const listed = await t.request('GET', '/api/v1/clients/?limit=1000', { token: su });
    expect(listed.body.data.find((c: Client) => c.id === client.id)).toMatchObject({
      hiper_token: 'hiper-plain-token-123',
    });
  });

  it('stores one token twice as two different ciphertexts', async () => {
    const a = await createClient({ url: 'https://same-1.example', hiper_token: 'same-token' });
    const b = await createClient({ url: 'https://same-2.example', hiper_token: 'same-token' });
    const rows = await t.sql<{ hiper_token: string }>('select hiper_token from clients where id = any($1)', [
      [a.id, b.id],
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0].hiper_token).not.toBe(rows[1].hiper_token);
  });

  it('keeps an updated token encrypted', async () => {
    const client = await createClient({ url: 'https://rotate.example', nuvemshop_token: 'first-token' });
    const answer = await t.request('PUT', `/api/v1/clients/${client.id}`, {
      token: su,
      json: { nuvemshop_token: 'rotated-token' },
    });
    expect(answer.body.nuvemshop_token).toBe('rotated-token');
    const [row] = await t.sql<{ nuvemshop_token: string }>('select nuvemshop_token from clients where id = $1', [
      client.id,
    ]);
    expect(row.nuvemshop_token).not.toContain('rotated-token');
  });
});

describe('GET /clients/{id}', () => {
  it('answers the client to any signed-in user', async () => {
    const client = await createClient({ url: 'https://get.example', hiper_token: 'h' }, su);
    const answer = await t.request('GET', `/api/v1/clients/${client.id}`, { token: user.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ...client, hiper_token: '••••••••' });
    expect(answer.headers.get('etag')).toBeNull();
  });

  it('answers 404 Client not found for an unknown id', async () => {
    const answer = await t.request('GET', `/api/v1/clients/${randomUUID()}`, { token: user.token });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'Client not found' });
  });
});

describe('PUT /clients/{id}', () => {
  it('changes the fields sent and leaves the others', async () => {
    const client = await createClient({ url: 'https://before.example', hiper_token: 'keep-me', nuvemshop_store_id: 0 });
    const storeId = ++nextStoreId;
    const answer = await t.request('PUT', `/api/v1/clients/${client.id}`, {
      token: user.token,
      json: { url: 'https://after.example', nuvemshop_store_id: String(storeId), hiper_sync_update_image: false },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ...client,
      url: 'https://after.example',
      nuvemshop_store_id: storeId,
      hiper_sync_update_image: false,
    });
    expect((await t.request('GET', `/api/v1/clients/${client.id}`, { token: user.token })).body).toEqual(answer.body);
  });

  it('clears a token set to null', async () => {
    const client = await createClient({ url: 'https://clear.example', hiper_token: 'to-clear' });
    const answer = await t.request('PUT', `/api/v1/clients/${client.id}`, {
      token: user.token,
      json: { hiper_token: null },
    });
    expect(answer.body.hiper_token).toBeNull();
    const [row] = await t.sql('select hiper_token from clients where id = $1', [client.id]);
    expect(row.hiper_token).toBeNull();
  });

  it("answers 409 for another client's store id and changes nothing", async () => {
    const storeId = ++nextStoreId;
    await createClient({ url: 'https://owner.example', nuvemshop_store_id: storeId });
    const client = await createClient({ url: 'https://mover.example' });
    const answer = await t.request('PUT', `/api/v1/clients/${client.id}`, {
      token: user.token,
      json: { url: 'https://not-applied.example', nuvemshop_store_id: storeId },
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ detail: STORE_TAKEN });
    expect((await t.request('GET', `/api/v1/clients/${client.id}`, { token: user.token })).body).toEqual(client);
  });

  it('lets a client keep its own store id', async () => {
    const storeId = ++nextStoreId;
    const client = await createClient({ url: 'https://own.example', nuvemshop_store_id: storeId });
    const answer = await t.request('PUT', `/api/v1/clients/${client.id}`, {
      token: user.token,
      json: { nuvemshop_store_id: storeId, url: 'https://own-renamed.example' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.nuvemshop_store_id).toBe(storeId);
  });

  it('answers 404 for an unknown id', async () => {
    const answer = await t.request('PUT', `/api/v1/clients/${randomUUID()}`, {
      token: user.token,
      json: { url: 'https://x.example' },
    });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'Client not found' });
  });

  it('answers 422 for an empty url and changes nothing', async () => {
    const client = await createClient({ url: 'https://stays.example' });
    const answer = await t.request('PUT', `/api/v1/clients/${client.id}`, { token: user.token, json: { url: '' } });
    expect(answer.status).toBe(422);
    expect(answer.body.detail[0].loc).toEqual(['body', 'url']);
    const [row] = await t.sql('select url from clients where id = $1', [client.id]);
    expect(row.url).toBe('https://stays.example');
  });
});

describe('DELETE /clients/{id}', () => {
  it('deletes the client: archived, its history kept (tests/gateway/client-archive.test.ts)', async () => {
    const client = await createClient({ url: 'https://delete.example' });
    const answer = await t.request('DELETE', `/api/v1/clients/${client.id}`, { token: user.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: 'Client deleted successfully' });
    const [row] = await t.sql<{ archived_at: Date | null }>('select archived_at from clients where id = $1', [
      client.id,
    ]);
    expect(row.archived_at).toBeInstanceOf(Date);
    const again = await t.request('DELETE', `/api/v1/clients/${client.id}`, { token: user.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: 'Client not found' });
  });

  it('frees the store id of a deleted client', async () => {
    const storeId = ++nextStoreId;
    const first = await createClient({ url: 'https://gone.example', nuvemshop_store_id: storeId });
    await t.request('DELETE', `/api/v1/clients/${first.id}`, { token: user.token });
    const second = await createClient({ url: 'https://reused.example', nuvemshop_store_id: storeId });
    expect(second.nuvemshop_store_id).toBe(storeId);
  });

  it('answers 404 for an unknown id', async () => {
    const answer = await t.request('DELETE', `/api/v1/clients/${randomUUID()}`, { token: user.token });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'Client not found' });
  });
});
