import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type Answer, type TestGateway } from '../support/gateway';

/**
 * A lone surrogate is half of a UTF-16 pair: JSON can spell it (`"\ud800"`), UTF-8 cannot, so PostgreSQL (and
 * bcrypt) would keep U+FFFD instead of what was sent. Every door refuses it as pydantic refuses text it cannot read.
 */
const LONE = 'a\ud800b';
const LOW = '\udc00z';
const MSG = 'Input should be a valid string, unable to parse raw data as a unicode string';

let t: TestGateway;
let su: string;
let user: { token: string; id: string; email: string; password: string };
let item: { id: string };
let client: { id: string };

beforeAll(async () => {
  t = await startTestGateway();
  su = await t.superuserToken();
  user = await t.createUser();
  item = (await t.request('POST', '/api/v1/items/', { token: user.token, json: { title: 'Existing' } })).body;
  client = (
    await t.request('POST', '/api/v1/clients/', { token: user.token, json: { url: 'https://existing.example' } })
  ).body;
});
afterAll(() => t?.close());

async function snapshot(): Promise<string> {
  const tables = ['users', 'items', 'clients', 'rate_limits'];
  const rows = await Promise.all(
    tables.map((table) => t.sql(`select * from ${table} order by 1`).catch(() => [] as unknown[])),
  );
  return JSON.stringify(rows);
}

function expectIssue(answer: Answer, loc: (string | number)[], input?: string): void {
  expect(answer.status, answer.text).toBe(422);
  const issue = { type: 'string_unicode', loc, msg: MSG, ...(input === undefined ? {} : { input }) };
  expect(answer.body.detail, answer.text).toEqual([issue]);
}

describe('a lone surrogate in a text', () => {
  it('is a 422 in pydantic shape on every REST body field, and nothing is stored', async () => {
    const cases: [string, string, string | undefined, Record<string, unknown>, string, boolean?][] = [
      ['POST', '/api/v1/items/', user.token, { title: LONE }, 'title'],
      ['POST', '/api/v1/items/', user.token, { title: 'ok', description: LOW }, 'description'],
      ['PUT', `/api/v1/items/${item.id}`, user.token, { title: LONE }, 'title'],
      ['POST', '/api/v1/clients/', user.token, { url: 'https://x.example', hiper_token: LONE }, 'hiper_token', true],
      [
        'PUT',
        `/api/v1/clients/${client.id}`,
        user.token,
        { url: 'https://x.example', nuvemshop_token: LONE },
        'nuvemshop_token',
        true,
      ],
      ['PATCH', '/api/v1/users/me', user.token, { full_name: LONE }, 'full_name'],
      [
        'POST',
        '/api/v1/users/',
        su,
        { email: 'new@example.com', password: 'password-1', full_name: LONE },
        'full_name',
      ],
      ['PATCH', `/api/v1/users/${user.id}`, su, { password: `password-${LONE}` }, 'password', true],
      [
        'POST',
        '/api/v1/users/signup',
        undefined,
        { email: 's@example.com', password: `password-${LONE}` },
        'password',
        true,
      ],
      [
        'POST',
        '/api/v1/users/signup',
        undefined,
        { email: 's@example.com', password: 'password-1', full_name: LOW },
        'full_name',
      ],
      [
        'PATCH',
        '/api/v1/users/me/password',
        user.token,
        { current_password: user.password, new_password: `new-password-${LONE}` },
        'new_password',
        true,
      ],
      [
        'POST',
        '/api/v1/reset-password/',
        undefined,
        { token: 'x', new_password: `new-password-${LONE}` },
        'new_password',
        true,
      ],
      ['POST', '/api/v1/callback/authorize', undefined, { code: LONE }, 'code', true],
    ];
    const before = await snapshot();
    for (const [method, path, token, json, field, secret] of cases) {
      const answer = await t.request(method, path, { token, json });
      expectIssue(answer, ['body', field], secret ? undefined : (json[field] as string));
      if (secret) expect(answer.body.detail[0]).not.toHaveProperty('input');
    }
    expect(await snapshot()).toBe(before);
  });

  // A query string or a form arrives as UTF-8 bytes, which cannot spell a lone surrogate; GraphQL variables can.
  it('is refused in a search', async () => {
    const viaVariables = await t.request('POST', '/graphql', {
      token: user.token,
      json: { query: 'query ($q: String) { allItems(filter: { q: $q }) { id } }', variables: { q: LONE } },
    });
    expect(viaVariables.body.errors[0], viaVariables.text).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', status: 422 },
    });
    expect(viaVariables.body.data?.allItems ?? null).toBeNull();
  });

  it('is a GraphQL BAD_USER_INPUT error in variables and literals, and nothing is stored', async () => {
    const before = await snapshot();
    const mutations: [string, Record<string, unknown>][] = [
      ['mutation ($t: String!) { createItem(title: $t) { id title } }', { t: LONE }],
      [`mutation ($id: ID!, $d: String) { updateItem(id: $id, description: $d) { id } }`, { id: item.id, d: LOW }],
      ['mutation ($n: String) { updateMe(full_name: $n) { id } }', { n: LONE }],
      [
        'mutation ($e: String!, $p: String!) { signup(email: $e, password: $p) { id } }',
        { e: 'g@example.com', p: `password-${LONE}` },
      ],
      [
        'mutation ($u: String!, $p: String!) { login(username: $u, password: $p) { access_token } }',
        { u: LONE, p: 'password-1' },
      ],
      ['mutation ($h: String) { createClient(url: "https://g.example", hiper_token: $h) { id } }', { h: LONE }],
    ];
    for (const [query, variables] of mutations) {
      const answer = await t.request('POST', '/graphql', { token: user.token, json: { query, variables } });
      expect(answer.body.errors?.[0], `${query}: ${answer.text}`).toMatchObject({
        extensions: { code: 'BAD_USER_INPUT', status: 422 },
      });
    }
    // An escape in the document itself never makes a lone surrogate either.
    const literal = await t.request('POST', '/graphql', {
      token: user.token,
      raw: JSON.stringify({ query: 'mutation { createItem(title: "a\\ud800b") { id } }' }),
    });
    expect(literal.body.errors?.[0], literal.text).toBeTruthy();
    expect(literal.body.data?.createItem ?? null).toBeNull();
    expect(await snapshot()).toBe(before);
  });

  it('is kept as sent when the pair is whole', async () => {
    const answer = await t.request('POST', '/api/v1/items/', { token: user.token, json: { title: 'a\ud83d\ude00b' } });
    expect(answer.status).toBe(200);
    expect(answer.body.title).toBe('a😀b');
    expect(await t.sql('select title from items where id = $1', [answer.body.id])).toEqual([{ title: 'a😀b' }]);
  });
});
