import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

/** The trigger-kept totals must always equal a real count (of clients, the live ones: archived ones are listed nowhere). */
async function expectCountsExact() {
  const [kept] = await t.sql<{ users: string; items: string; clients: string }>(
    `select (select total from row_counts where table_name = 'users') as users,
            (select total from row_counts where table_name = 'items') as items,
            (select total from row_counts where table_name = 'clients') as clients`,
  );
  const [real] = await t.sql<{ users: string; items: string; clients: string }>(
    `select (select count(*) from users) as users, (select count(*) from items) as items, (select count(*) from clients where archived_at is null) as clients`,
  );
  expect(kept).toEqual(real);
  const owners = await t.sql(
    `select i.owner_id, count(*)::bigint as real, c.total from items i
     left join owner_item_counts c on c.owner_id = i.owner_id group by i.owner_id, c.total`,
  );
  for (const row of owners) expect(row.total, `owner ${row.owner_id}`).toBe(row.real);
  const orphans = await t.sql(
    'select * from owner_item_counts c where not exists (select 1 from items i where i.owner_id = c.owner_id)',
  );
  expect(orphans).toEqual([]);
}

describe('list counts', () => {
  it('stay exact through creates, deletes and cascades', async () => {
    const superuser = await t.superuserToken();
    const a = await t.createUser('count.a@example.com');
    const b = await t.createUser('count.b@example.com');
    for (let i = 0; i < 3; i++) await t.request('POST', '/api/v1/items/', { token: a.token, json: { title: `a${i}` } });
    for (let i = 0; i < 2; i++) await t.request('POST', '/api/v1/items/', { token: b.token, json: { title: `b${i}` } });
    const client = await t.request('POST', '/api/v1/clients/', { token: a.token, json: { url: 'https://x.example' } });
    await t.request('POST', '/api/v1/clients/', { token: a.token, json: { url: 'https://y.example' } });
    await expectCountsExact();

    const mine = await t.request('GET', '/api/v1/items/?limit=1', { token: a.token });
    expect(mine.body.count).toBe(3);
    expect(mine.body.data).toHaveLength(1);
    expect((await t.request('GET', '/api/v1/items/', { token: superuser })).body.count).toBe(5);
    expect((await t.request('GET', '/api/v1/clients/?limit=0', { token: a.token })).body).toEqual({
      data: [],
      count: 2,
    });

    await t.request('DELETE', `/api/v1/clients/${client.body.id}`, { token: a.token });
    await t.request('DELETE', `/api/v1/users/${b.id}`, { token: superuser });
    await expectCountsExact();
    expect((await t.request('GET', '/api/v1/items/', { token: superuser })).body.count).toBe(3);
    expect((await t.request('GET', '/api/v1/users/', { token: superuser })).body.count).toBe(2);
    expect((await t.request('GET', '/api/v1/clients/', { token: superuser })).body.count).toBe(1);

    await t.sql('truncate items');
    await expectCountsExact();
    expect((await t.request('GET', '/api/v1/items/', { token: a.token })).body.count).toBe(0);
  });

  it('count what a filter keeps when one is given', async () => {
    const token = await t.superuserToken();
    await t.request('POST', '/api/v1/clients/', { token, json: { url: 'https://filtered.example' } });
    const answer = await t.graphql('{ _allClientsMeta(filter: { q: "filtered" }) { count } }', {}, token);
    expect(answer.body.data._allClientsMeta.count).toBe(1);
  });
});
