import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGatewayAsSuperuser, type TestGateway } from '../support/gateway';

const ITEM_KEYS = ['description', 'id', 'owner_id', 'title'];

let t: TestGateway;
let su: string;
let suId: string;

beforeAll(async () => ({ t, su, suId } = await startTestGatewayAsSuperuser()));
afterAll(() => t?.close());

interface Item {
  id: string;
  title: string;
  description: string | null;
  owner_id: string;
}

async function createItem(token: string, json: Record<string, unknown> = { title: 'An item' }): Promise<Item> {
  const answer = await t.request('POST', '/api/v1/items/', { token, json });
  expect(answer.status).toBe(200);
  return answer.body;
}

async function storedItem(id: string) {
  const [row] = await t.sql('select title, description, owner_id from items where id = $1', [id]);
  return row;
}

async function countItems(): Promise<number> {
  const [row] = await t.sql<{ n: string }>('select count(*) as n from items');
  return Number(row.n);
}

describe('GET /items/', () => {
  it("lists an ordinary user's own items only, with count scoped the same way", async () => {
    const alice = await t.createUser();
    const bob = await t.createUser();
    const mine = [await createItem(alice.token, { title: 'a1' }), await createItem(alice.token, { title: 'a2' })];
    await createItem(bob.token, { title: 'b1' });
    await createItem(su, { title: 'admin item' });

    const answer = await t.request('GET', '/api/v1/items/', { token: alice.token });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['count', 'data']);
    expect(answer.body.count).toBe(2);
    expect(answer.body.data.map((i: Item) => i.id).sort()).toEqual(mine.map((i) => i.id).sort());
    for (const item of answer.body.data) {
      expect(Object.keys(item).sort()).toEqual(ITEM_KEYS);
      expect(item.owner_id).toBe(alice.id);
    }
  });

  it('lists every item to a superuser, with the total count', async () => {
    const user = await t.createUser();
    const theirs = await createItem(user.token);
    const answer = await t.request('GET', '/api/v1/items/', { token: su });
    expect(answer.status).toBe(200);
    expect(answer.body.count).toBe(await countItems());
    expect(answer.body.data.map((i: Item) => i.id)).toContain(theirs.id);
  });

  it('pages with skip and limit while count stays the scoped total', async () => {
    const user = await t.createUser();
    for (let i = 0; i < 5; i++) await createItem(user.token, { title: `page ${i}` });
    const all = await t.request('GET', '/api/v1/items/', { token: user.token });
    expect(all.body.count).toBe(5);
    const page = await t.request('GET', '/api/v1/items/?skip=2&limit=2', { token: user.token });
    expect(page.status).toBe(200);
    expect(page.body.count).toBe(5);
    expect(page.body.data).toEqual(all.body.data.slice(2, 4));
    const none = await t.request('GET', '/api/v1/items/?limit=0', { token: user.token });
    expect(none.body).toEqual({ data: [], count: 5 });
  });

  it('answers 100 items by default, with the full count', async () => {
    const user = await t.createUser();
    await t.sql(
      `insert into items (id, title, owner_id)
       select gen_random_uuid(), 'bulk ' || n, $1 from generate_series(1, 101) n`,
      [user.id],
    );
    const answer = await t.request('GET', '/api/v1/items/', { token: user.token });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(100);
    expect(answer.body.count).toBe(101);
    const rest = await t.request('GET', '/api/v1/items/?skip=100', { token: user.token });
    expect(rest.body.data).toHaveLength(1);
  });

  it('answers an empty list to a user without items', async () => {
    const user = await t.createUser();
    const answer = await t.request('GET', '/api/v1/items/', { token: user.token });
    expect(answer.body).toEqual({ data: [], count: 0 });
  });
});

describe('POST /items/', () => {
  it('creates an item owned by the caller', async () => {
    const user = await t.createUser();
    const answer = await t.request('POST', '/api/v1/items/', {
      token: user.token,
      json: { title: 'Bread', description: 'Whole grain', owner_id: suId },
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(ITEM_KEYS);
    expect(answer.body).toMatchObject({ title: 'Bread', description: 'Whole grain', owner_id: user.id });
    expect(await storedItem(answer.body.id)).toEqual({ title: 'Bread', description: 'Whole grain', owner_id: user.id });
  });

  it('leaves description null when it is not sent', async () => {
    const user = await t.createUser();
    const item = await createItem(user.token, { title: 'Only a title' });
    expect(item.description).toBeNull();
  });

  it('answers 422 for a missing, empty or too long title and a too long description', async () => {
    const user = await t.createUser();
    const before = await countItems();
    const cases = [
      [{ description: 'no title' }, 'missing'],
      [{ title: '' }, 'string_too_short'],
      [{ title: 't'.repeat(256) }, 'string_too_long'],
      [{ title: 5 }, 'string_type'],
    ] as const;
    for (const [json, type] of cases) {
      const answer = await t.request('POST', '/api/v1/items/', { token: user.token, json });
      expect(answer.status, type).toBe(422);
      expect(answer.body.detail).toEqual([expect.objectContaining({ type, loc: ['body', 'title'] })]);
    }
    const long = await t.request('POST', '/api/v1/items/', {
      token: user.token,
      json: { title: 'ok', description: 'd'.repeat(256) },
    });
    expect(long.status).toBe(422);
    expect(long.body.detail).toEqual([
      expect.objectContaining({ type: 'string_too_long', loc: ['body', 'description'] }),
    ]);
    expect(await countItems()).toBe(before);
  });

  it('accepts a title and a description of exactly 255 characters', async () => {
    const user = await t.createUser();
    const item = await createItem(user.token, { title: 't'.repeat(255), description: 'd'.repeat(255) });
    expect(item.title).toHaveLength(255);
    expect(item.description).toHaveLength(255);
  });
});

describe('GET /items/{id}', () => {
  it('answers the owner and a superuser', async () => {
    const user = await t.createUser();
    const item = await createItem(user.token, { title: 'Mine', description: 'desc' });
    for (const token of [user.token, su]) {
      const answer = await t.request('GET', `/api/v1/items/${item.id}`, { token });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(item);
    }
  });

  it('answers 403 Not enough permissions to another user', async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const item = await createItem(owner.token);
    const answer = await t.request('GET', `/api/v1/items/${item.id}`, { token: other.token });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ detail: 'Not enough permissions' });
  });

  it('answers 404 Item not found for an unknown id', async () => {
    const user = await t.createUser();
    const answer = await t.request('GET', `/api/v1/items/${randomUUID()}`, { token: user.token });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'Item not found' });
  });
});

describe('PUT /items/{id}', () => {
  it('lets the owner change title and description, leaving what was not sent', async () => {
    const user = await t.createUser();
    const item = await createItem(user.token, { title: 'Before', description: 'Kept' });
    const answer = await t.request('PUT', `/api/v1/items/${item.id}`, { token: user.token, json: { title: 'After' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ...item, title: 'After' });
    const cleared = await t.request('PUT', `/api/v1/items/${item.id}`, {
      token: user.token,
      json: { description: 'Changed' },
    });
    expect(cleared.body).toEqual({ ...item, title: 'After', description: 'Changed' });
    expect(await storedItem(item.id)).toEqual({ title: 'After', description: 'Changed', owner_id: user.id });
  });

  it("lets a superuser change another user's item without taking it over", async () => {
    const user = await t.createUser();
    const item = await createItem(user.token);
    const answer = await t.request('PUT', `/api/v1/items/${item.id}`, { token: su, json: { title: 'By admin' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ...item, title: 'By admin', owner_id: user.id });
  });

  it('answers 403 to another user and changes nothing', async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const item = await createItem(owner.token, { title: 'Untouched' });
    const answer = await t.request('PUT', `/api/v1/items/${item.id}`, { token: other.token, json: { title: 'Taken' } });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ detail: 'Not enough permissions' });
    expect((await storedItem(item.id)).title).toBe('Untouched');
  });

  it('answers 404 for an unknown id', async () => {
    const user = await t.createUser();
    const answer = await t.request('PUT', `/api/v1/items/${randomUUID()}`, { token: user.token, json: { title: 'X' } });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'Item not found' });
  });

  it('answers 422 for an empty title and changes nothing', async () => {
    const user = await t.createUser();
    const item = await createItem(user.token, { title: 'Stays' });
    const answer = await t.request('PUT', `/api/v1/items/${item.id}`, { token: user.token, json: { title: '' } });
    expect(answer.status).toBe(422);
    expect(answer.body.detail[0]).toMatchObject({ type: 'string_too_short', loc: ['body', 'title'] });
    expect((await storedItem(item.id)).title).toBe('Stays');
  });
});

describe('DELETE /items/{id}', () => {
  it('lets the owner delete their item', async () => {
    const user = await t.createUser();
    const item = await createItem(user.token);
    const answer = await t.request('DELETE', `/api/v1/items/${item.id}`, { token: user.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: 'Item deleted successfully' });
    expect(await storedItem(item.id)).toBeUndefined();
    const again = await t.request('DELETE', `/api/v1/items/${item.id}`, { token: user.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: 'Item not found' });
  });

  it("lets a superuser delete another user's item", async () => {
    const user = await t.createUser();
    const item = await createItem(user.token);
    const answer = await t.request('DELETE', `/api/v1/items/${item.id}`, { token: su });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: 'Item deleted successfully' });
    expect(await storedItem(item.id)).toBeUndefined();
  });

  it('answers 403 to another user and keeps the item', async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const item = await createItem(owner.token);
    const answer = await t.request('DELETE', `/api/v1/items/${item.id}`, { token: other.token });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ detail: 'Not enough permissions' });
    expect(await storedItem(item.id)).toBeDefined();
  });

  it('answers 404 for an unknown id', async () => {
    const user = await t.createUser();
    const answer = await t.request('DELETE', `/api/v1/items/${randomUUID()}`, { token: user.token });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'Item not found' });
  });
});

describe('items without authentication', () => {
  it('answers 401 on every route', async () => {
    const id = randomUUID();
    for (const [method, path] of [
      ['GET', '/api/v1/items/'],
      ['POST', '/api/v1/items/'],
      ['GET', `/api/v1/items/${id}`],
      ['PUT', `/api/v1/items/${id}`],
      ['DELETE', `/api/v1/items/${id}`],
    ]) {
      const answer = await t.request(method, path, { json: method === 'GET' ? undefined : { title: 'x' } });
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.body).toEqual({ detail: 'Not authenticated' });
    }
  });
});
