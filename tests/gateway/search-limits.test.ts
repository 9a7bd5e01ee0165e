import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../gateway/config';
import { SearchLimits } from '../../gateway/database/search-limits';
import { ApiError } from '../../gateway/errors';
import { startTestGateway, type Answer, type TestGateway } from '../support/gateway';

const MINE =
  'Too many searches at once: at most 1 of yours may run or wait at a time; search again when one has answered';
const EVERYONE = 'Too many searches at once on the server; search again in a moment';

describe('the search limits', () => {
  it('run a few searches per user and in all, queue a few more, and refuse the rest with 429', async () => {
    const limits = new SearchLimits({
      SEARCH_CONCURRENCY_PER_USER: 1,
      SEARCH_QUEUE_PER_USER: 1,
      SEARCH_CONCURRENCY: 2,
      SEARCH_QUEUE: 1,
    });
    const started: string[] = [];
    const finish: Record<string, () => void> = {};
    const search = (name: string) => () =>
      new Promise<string>((resolve) => {
        started.push(name);
        finish[name] = () => resolve(name);
      });
    const a1 = limits.run('a', search('a1'));
    const a2 = limits.run('a', search('a2'));
    await expect(limits.run('a', search('a3'))).rejects.toMatchObject({ status: 429, detail: expect.any(String) });
    const b1 = limits.run('b', search('b1'));
    // a1 and b1 run (two in all), a2 waits: the next one of anyone's is refused.
    await expect(limits.run('c', search('c1'))).rejects.toMatchObject({ status: 429, detail: EVERYONE });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toEqual(['a1', 'b1']);
    finish.a1();
    expect(await a1).toBe('a1');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toEqual(['a1', 'b1', 'a2']);
    finish.a2();
    finish.b1();
    expect(await Promise.all([a2, b1])).toEqual(['a2', 'b1']);
    // Nothing held any longer: a user's next searches run at once.
    const again = limits.run('a', async () => 'again');
    expect(await again).toBe('again');
  });

  it('let a list read without `q` through at once', async () => {
    const limits = new SearchLimits({
      SEARCH_CONCURRENCY_PER_USER: 1,
      SEARCH_QUEUE_PER_USER: 0,
      SEARCH_CONCURRENCY: 1,
      SEARCH_QUEUE: 0,
    });
    let release = () => {};
    const held = limits.around('a', { q: 'x' }, () => new Promise<void>((resolve) => (release = resolve)));
    await expect(limits.around('a', { q: 'y' }, async () => 'searched')).rejects.toBeInstanceOf(ApiError);
    expect(await limits.around('a', {}, async () => 'listed')).toBe('listed');
    release();
    await held;
  });

  it('read their settings from the environment, with defaults', () => {
    expect(loadConfig({})).toMatchObject({
      SEARCH_CONCURRENCY_PER_USER: 1,
      SEARCH_QUEUE_PER_USER: 4,
      SEARCH_CONCURRENCY: 2,
      SEARCH_QUEUE: 16,
    });
    expect(loadConfig({ SEARCH_CONCURRENCY_PER_USER: '3' }).SEARCH_CONCURRENCY_PER_USER).toBe(3);
    expect(() => loadConfig({ SEARCH_CONCURRENCY: '0' })).toThrow('SEARCH_CONCURRENCY');
  });
});

describe('a search past the limits, through each door', () => {
  let t: TestGateway;
  let locker: Client;

  beforeAll(async () => {
    t = await startTestGateway({
      SEARCH_CONCURRENCY_PER_USER: '1',
      SEARCH_QUEUE_PER_USER: '0',
      SEARCH_CONCURRENCY: '2',
      SEARCH_QUEUE: '0',
    });
    locker = new Client({ connectionString: t.databaseUrl });
    await locker.connect();
  });

  afterAll(async () => {
    await locker?.end();
    await t?.close();
  });

  /** Searches wait on a lock of the items table until `during` is over; what it returned. */
  async function whileSearchesWait<T>(during: () => Promise<T>): Promise<T> {
    await locker.query('begin');
    try {
      await locker.query('lock table items in access exclusive mode');
      return await during();
    } finally {
      await locker.query('rollback');
    }
  }

  /** Until `count` statements wait on the lock: searches under way. */
  async function waiting(count: number): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const [row] = await t.sql<{ n: string }>(
        "select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
      );
      if (Number(row.n) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`${count} statements never waited on the lock`);
  }

  const graphqlSearch = 'query ($q: String) { allItems(filter: { q: $q }) { id } }';

  it("is refused with 429 and Retry-After, REST's detail and GraphQL's error alike, and runs once the others answered", async () => {
    const [a, b, c] = [await t.createUser(), await t.createUser(), await t.createUser()];
    const refused = await whileSearchesWait(async () => {
      const first = t.request('GET', '/api/v1/items/?q=one', { token: a.token });
      await waiting(1);
      const rest = await t.request('GET', '/api/v1/items/?q=two', { token: a.token });
      const graphql = await t.graphql(graphqlSearch, { q: 'three' }, a.token);
      // Another user's search runs beside a's; a third user's finds both places taken.
      const second = t.request('GET', '/api/v1/items/?q=four', { token: b.token });
      await waiting(2);
      const everyone = await t.request('GET', '/api/v1/items/?q=five', { token: c.token });
      return { first, second, rest, graphql, everyone };
    });
    expect(refused.rest.status).toBe(429);
    expect(refused.rest.body).toEqual({ detail: MINE });
    expect(refused.rest.headers.get('retry-after')).toBe('1');
    expect(refused.graphql.body.data).toBeNull();
    expect(refused.graphql.body.errors).toEqual([
      expect.objectContaining({
        message: MINE,
        extensions: { code: 'TOO_MANY_REQUESTS', status: 429, retryAfter: 1 },
      }),
    ]);
    expect(refused.graphql.headers.get('retry-after')).toBe('1');
    expect(refused.everyone.status).toBe(429);
    expect(refused.everyone.body).toEqual({ detail: EVERYONE });
    const answered: Answer[] = await Promise.all([refused.first, refused.second]);
    expect(answered.map((answer) => answer.status)).toEqual([200, 200]);
    // Each place is given back: the same user searches again at once.
    const again = await t.graphql(graphqlSearch, { q: 'six' }, a.token);
    expect(again.body).toEqual({ data: { allItems: [] } });
  });
});
