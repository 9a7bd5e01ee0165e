import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGatewayAsSuperuser, type TestGateway } from '../support/gateway';

/**
 * What happened per day, for the dashboard's and a client's charts: runs by state, the products they wrote, their
 * 429s, orders by state; days in São Paulo (UTC-3), every one of them present, the same through REST and GraphQL.
 */
let t: TestGateway;
let su: string;
beforeAll(async () => {
  ({ t, su } = await startTestGatewayAsSuperuser());
});
afterAll(() => t?.close());

const MINUTE = 60_000;
const DAY = 86_400_000;
const RATE_LIMITED = {
  hiper_id: '',
  sku: null,
  message: 'Nuvemshop kept answering 429',
  code: 'nuvemshop_rate_limited',
};
const OTHER = { hiper_id: '7', sku: '7', message: 'Rejected', code: 'nuvemshop_rejected' };

/** Today in São Paulo, and the moment it began (São Paulo keeps UTC-3 all year). */
const saoPaulo = (now = new Date()) => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(now);
  return { today, midnight: Date.parse(`${today}T03:00:00Z`) };
};
const dayBefore = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY).toISOString().slice(0, 10);

async function client(url: string): Promise<string> {
  const answer = await t.request('POST', '/api/v1/clients/', { token: su, json: { url } });
  expect(answer.status).toBe(200);
  return answer.body.id as string;
}

async function run(clientId: string, at: number, state: string, written: [number, number], errors: object[] = []) {
  await t.sql(
    `insert into sync_runs (id, client_id, kind, trigger, state, queued_at, created, updated, errors, created_at, updated_at)
     values ($1, $2, 'catalogue', 'schedule', $3, $4, $5, $6, $7, $4, $4)`,
    [randomUUID(), clientId, state, new Date(at), written[0], written[1], JSON.stringify(errors)],
  );
}

async function order(clientId: string, at: number, state: string) {
  await t.sql(
    `insert into orders (id, client_id, nuvemshop_order_id, state, lines, history, received_at, updated_at, created_at)
     values ($1, $2, $3, $4, '[]', '[]', $5, $5, $5)`,
    [randomUUID(), clientId, Math.floor(Math.random() * 1e9), state, new Date(at)],
  );
}

interface Day {
  day: string;
  runs: Record<string, number>;
  products_written: number;
  orders: Record<string, number>;
  rate_limited: number;
}
const QUERY = `query ($id: ID, $days: Int) { dailyActivity(client_id: $id, days: $days) { time_zone days {
  day products_written rate_limited
  runs { queued running succeeded partial failed }
  orders { received held sending sent processed rejected invoiced shipped cancelled uncertain } } } }`;

describe('daily activity', () => {
  it("counts each day in São Paulo's time, every day present, a client's own or everyone's", async () => {
    const { today, midnight } = saoPaulo();
    const shop = await client('https://graficos.example');
    const other = await client('https://outra.example');
    // A minute before São Paulo's midnight is yesterday there, though UTC already says today.
    await run(shop, midnight - MINUTE, 'succeeded', [3, 2], [RATE_LIMITED]);
    await run(shop, midnight + MINUTE, 'failed', [0, 1], [RATE_LIMITED, OTHER, RATE_LIMITED]);
    await run(shop, midnight - 5 * DAY + 12 * 60 * MINUTE, 'partial', [1, 0]);
    await run(shop, midnight - 40 * DAY, 'succeeded', [100, 100]);
    await run(other, midnight + 2 * MINUTE, 'succeeded', [10, 0]);
    await order(shop, midnight - MINUTE, 'held');
    await order(shop, midnight + MINUTE, 'sent');
    await order(shop, midnight + 2 * MINUTE, 'sent');
    await order(shop, midnight - 2 * DAY, 'received');
    await order(other, midnight + MINUTE, 'uncertain');

    const rest = await t.request('GET', `/api/v1/activity/?client_id=${shop}`, { token: su });
    expect(rest.status).toBe(200);
    expect(rest.body.time_zone).toBe('America/Sao_Paulo');
    const days = rest.body.days as Day[];
    expect(days).toHaveLength(30);
    expect(days[29].day).toBe(today);
    expect(days[0].day).toBe(dayBefore(today, 29));
    const on = (day: string) => days.find((d) => d.day === day)!;
    const zeroRuns = { queued: 0, running: 0, succeeded: 0, partial: 0, failed: 0 };
    const zeroOrders = {
      received: 0,
      held: 0,
      sending: 0,
      sent: 0,
      processed: 0,
      rejected: 0,
      invoiced: 0,
      shipped: 0,
      cancelled: 0,
      uncertain: 0,
    };
    expect(on(today)).toEqual({
      day: today,
      runs: { ...zeroRuns, failed: 1 },
      products_written: 1,
      orders: { ...zeroOrders, sent: 2 },
      rate_limited: 2,
    });
    expect(on(dayBefore(today, 1))).toEqual({
      day: dayBefore(today, 1),
      runs: { ...zeroRuns, succeeded: 1 },
      products_written: 5,
      orders: { ...zeroOrders, held: 1 },
      rate_limited: 1,
    });
    expect(on(dayBefore(today, 2)).orders).toEqual({ ...zeroOrders, received: 1 });
    expect(on(dayBefore(today, 5))).toMatchObject({ runs: { ...zeroRuns, partial: 1 }, products_written: 1 });
    // The other days are there, at zero; the run of 40 days ago is in none of them.
    const quiet = days.filter((d) => ![0, 1, 2, 5].map((n) => dayBefore(today, n)).includes(d.day));
    expect(quiet).toHaveLength(26);
    for (const d of quiet)
      expect(d).toEqual({ day: d.day, runs: zeroRuns, products_written: 0, orders: zeroOrders, rate_limited: 0 });

    // GraphQL answers the same.
    const graphql = await t.graphql(QUERY, { id: shop }, su);
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.dailyActivity).toEqual(rest.body);

    // Everyone's: both clients, over the days asked for.
    const all = await t.request('GET', '/api/v1/activity/?days=3', { token: su });
    expect(all.status).toBe(200);
    expect((all.body.days as Day[]).map((d) => d.day)).toEqual([2, 1, 0].map((n) => dayBefore(today, n)));
    expect(all.body.days[2]).toMatchObject({
      runs: { succeeded: 1, failed: 1 },
      products_written: 11,
      orders: { sent: 2, uncertain: 1 },
    });
    const allGraphql = await t.graphql(QUERY, { days: 3 }, su);
    expect(allGraphql.body.data.dailyActivity).toEqual(all.body);

    // Anyone signed in may read it, as the lists.
    const user = await t.createUser();
    expect((await t.request('GET', '/api/v1/activity/', { token: user.token })).status).toBe(200);
    expect((await t.request('GET', '/api/v1/activity/')).status).toBe(401);
  });

  it.each([
    ['days=0', 'days'],
    ['days=91', 'days'],
    ['days=tres', 'days'],
    ['client_id=not-a-uuid', 'client_id'],
  ])('refuses %s with a 422 naming it', async (search, field) => {
    const answer = await t.request('GET', `/api/v1/activity/?${search}`, { token: su });
    expect(answer.status).toBe(422);
    expect(answer.body.detail[0].loc).toEqual(['query', field]);
  });

  it('refuses bad arguments over GraphQL with a 422 naming them, and an unknown client with a 404', async () => {
    const days = await t.graphql(QUERY, { days: 120 }, su);
    expect(days.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 422 });
    expect(days.body.errors[0].extensions.detail[0].loc).toEqual(['body', 'days']);
    const id = await t.graphql(QUERY, { id: 'x' }, su);
    expect(id.body.errors[0].extensions.detail[0].loc).toEqual(['body', 'client_id']);

    const unknown = randomUUID();
    const rest = await t.request('GET', `/api/v1/activity/?client_id=${unknown}`, { token: su });
    expect(rest.status).toBe(404);
    expect(rest.body).toEqual({ detail: 'Client not found' });
    const graphql = await t.graphql(QUERY, { id: unknown }, su);
    expect(graphql.body.errors[0]).toMatchObject({ message: 'Client not found', extensions: { status: 404 } });
  });
});
