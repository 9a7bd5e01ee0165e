import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type Answer, type TestGateway } from '../support/gateway';
import { webhookSignature } from '../support/standins/nuvemshop-api';

/**
 * A body nested thousands of levels deep is a few KB of brackets that anyone may send: to every door (REST, GraphQL,
 * the webhooks signed or not, the privacy routes) it is refused with a 4xx saying why, and changes nothing.
 */
const SECRET = 'app-secret-for-deep-bodies';
const STORE = 661_001;
const LEVELS = 7000;
/** 14 KB: under the 16 KB an unsigned privacy request may be. */
const deep = '['.repeat(LEVELS) + ']'.repeat(LEVELS);
const TOO_DEEP = /^JSON nested too deeply: at most 32 levels/;

let t: TestGateway;
let superuser: string;
let address = 0;
const newAddress = () => `203.0.113.${++address}`;

beforeAll(async () => {
  t = await startTestGateway({ NUVEMSHOP_CLIENT_SECRET: SECRET, TRUST_PROXY: '1' });
  superuser = await t.superuserToken();
  const created = await t.request('POST', '/api/v1/clients/', {
    token: superuser,
    json: { url: 'https://loja-funda.example', nuvemshop_store_id: STORE },
  });
  expect(created.status).toBe(200);
});
afterAll(() => t?.close());

const counts = async () =>
  (
    await t.sql<{ events: number; users: number; items: number; jobs: number }>(
      `select (select count(*) from webhook_events)::int as events, (select count(*) from users)::int as users,
              (select count(*) from items)::int as items, (select count(*) from pgboss.job)::int as jobs`,
    )
  )[0];

function post(path: string, raw: string, options: { signed?: boolean; token?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'X-Forwarded-For': newAddress() };
  if (options.signed) headers['X-Linkedstore-HMAC-SHA256'] = webhookSignature(raw, SECRET);
  return t.request('POST', path, { raw, headers, token: options.token });
}

/** A refusal of a REST door: 422 in pydantic's shape, naming the bound. */
function expectRefused(answer: Answer) {
  expect(answer.status, answer.text.slice(0, 300)).toBe(422);
  expect(answer.body.detail).toEqual([
    expect.objectContaining({ type: 'json_invalid', loc: ['body'], msg: expect.stringMatching(TOO_DEEP) }),
  ]);
}

describe(`a body nested ${LEVELS} levels deep`, () => {
  it('to the privacy routes, unsigned or signed, is refused 422 and recorded nowhere', async () => {
    const before = await counts();
    const body = `{"store_id": ${STORE}, "customer": {"id": 1, "orders": ${deep}}}`;
    for (const kind of ['store-redact', 'customers-redact', 'customers-data-request']) {
      expectRefused(await post(`/api/v1/webhooks/nuvemshop/${kind}`, body));
      expectRefused(await post(`/api/v1/webhooks/nuvemshop/${kind}`, body, { signed: true }));
    }
    expect(await counts()).toEqual(before);
  });

  it('to the app events, signed, is refused 422 even in a field they ignore, and queues nothing', async () => {
    const before = await counts();
    const event = `{"store_id": ${STORE}, "event": "app/suspended", "id": 1, "extra": ${deep}}`;
    expectRefused(await post('/api/v1/webhooks/nuvemshop', event, { signed: true }));
    const order = `{"store_id": ${STORE}, "event": "order/created", "id": 9, "extra": ${deep}}`;
    expectRefused(await post('/api/v1/webhooks/nuvemshop', order, { signed: true }));
    expect(await counts()).toEqual(before);
  });

  it('to REST, signed in or not, is refused 422 and writes nothing', async () => {
    const before = await counts();
    expectRefused(
      await post('/api/v1/users/signup', `{"email": "deep@example.com", "password": "a-good-password", "x": ${deep}}`),
    );
    expectRefused(await post('/api/v1/users/signup', deep));
    expectRefused(await post('/api/v1/items/', `{"title": "deep", "description": ${deep}}`, { token: superuser }));
    expectRefused(await post('/api/v1/callback/authorize', `{"code": ${deep}}`));
    expect(await counts()).toEqual(before);
  });

  it('to GraphQL, in its variables or its text, is refused with a 4xx, never a 500', async () => {
    const before = await counts();
    const mutation = 'mutation ($title: String!) { createItem(title: $title) { id } }';
    const answers = [
      await post('/graphql', `{"query": ${JSON.stringify(mutation)}, "variables": {"title": ${deep}}}`, {
        token: superuser,
      }),
      await post('/graphql', `{"query": "{ __typename }", "extensions": ${deep}}`),
      await post('/graphql', JSON.stringify({ query: `{ me(x: ${'['.repeat(3000)}${']'.repeat(3000)}) { id } }` })),
      await post('/graphql', JSON.stringify({ query: `{ ${'me { '.repeat(2000)}id${' }'.repeat(2000)} }` })),
      await post('/graphql', deep),
    ];
    for (const answer of answers) {
      const status = answer.body?.errors?.[0]?.extensions?.status ?? answer.status;
      expect(status, answer.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
      expect(status, answer.text.slice(0, 300)).toBeLessThan(500);
    }
    expect(await counts()).toEqual(before);
  });
});
