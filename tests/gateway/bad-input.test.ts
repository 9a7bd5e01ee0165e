import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../gateway/config';
import { startTestGateway, type Answer, type TestGateway } from '../support/gateway';

const JSON_INVALID = {
  detail: [
    { type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: {}, ctx: { error: 'Invalid JSON' } },
  ],
};
const TOO_LARGE = { detail: 'Request body is too large' };
/** BODY_LIMIT is configuration: this gateway runs with 64kb instead of the default 100kb. */
const BODY_LIMIT = 64 * 1024;

let t: TestGateway;
let su: string;
let user: { token: string; id: string; email: string; password: string };
let item: { id: string };
let client: { id: string };

beforeAll(async () => {
  t = await startTestGateway({ BODY_LIMIT: '64kb' });
  su = await t.superuserToken();
  user = await t.createUser();
  item = (await t.request('POST', '/api/v1/items/', { token: user.token, json: { title: 'Existing' } })).body;
  client = (
    await t.request('POST', '/api/v1/clients/', { token: user.token, json: { url: 'https://existing.example' } })
  ).body;
});
afterAll(() => t?.close());

/** Every row of the tables a request could touch, so "changed nothing" can be checked exactly. */
async function snapshot(): Promise<string> {
  const users = await t.sql(
    'select id, email, full_name, hashed_password, is_active, is_superuser, token_version from users order by id',
  );
  const items = await t.sql('select id, title, description, owner_id from items order by id');
  const clients = await t.sql(
    `select id, url, nuvemshop_store_id, hiper_sync_update_image, hiper_sync_update_dimensions
     from clients order by id`,
  );
  return JSON.stringify({ users, items, clients });
}

/** No answer shows how the server is built. */
function expectNoStackTrace(answer: Answer): void {
  expect(answer.text).not.toMatch(/\bat .+[:(]\d+:\d+|node_modules|\.ts:\d+|Error:|<pre>/);
}

/** Sends each request, and checks that none changed the database or showed a stack trace. */
async function expectRefusedChangingNothing(
  requests: (() => Promise<Answer>)[],
  check: (answer: Answer, index: number) => void,
): Promise<void> {
  const before = await snapshot();
  for (const [index, send] of requests.entries()) {
    const answer = await send();
    check(answer, index);
    expectNoStackTrace(answer);
  }
  expect(await snapshot()).toBe(before);
}

describe('malformed JSON', () => {
  it('is a 422 json_invalid on every JSON route, and changes nothing', async () => {
    const bodies = ['{"email": ', '{email: "a@b.c"}', "{'title': 'x'}", '{"title": "x",}', 'tru', '"unterminated'];
    const routes: [string, string, string?][] = [
      ['POST', '/api/v1/users/signup'],
      ['POST', '/api/v1/users/', su],
      ['PATCH', '/api/v1/users/me', user.token],
      ['PATCH', `/api/v1/users/${user.id}`, su],
      ['POST', '/api/v1/items/', user.token],
      ['PUT', `/api/v1/items/${item.id}`, user.token],
      ['POST', '/api/v1/clients/', user.token],
      ['PUT', `/api/v1/clients/${client.id}`, user.token],
      ['POST', '/api/v1/reset-password/'],
      ['POST', '/api/v1/callback/authorize'],
    ];
    const requests = routes.flatMap(([method, path, token]) =>
      bodies.map((raw) => () => t.request(method, path, { token, raw })),
    );
    await expectRefusedChangingNothing(requests, (answer, i) => {
      expect(answer.status, `request ${i}: ${answer.text}`).toBe(422);
      expect(answer.body).toEqual(JSON_INVALID);
    });
  });

  it('is a 422 for JSON that is not an object', async () => {
    await expectRefusedChangingNothing(
      [
        () => t.request('POST', '/api/v1/items/', { token: user.token, json: ['title', 'x'] }),
        () => t.request('POST', '/api/v1/items/', { token: user.token, raw: '"a title"' }),
        () => t.request('POST', '/api/v1/items/', { token: user.token, raw: '42' }),
        () => t.request('POST', '/api/v1/items/', { token: user.token, raw: 'null' }),
      ],
      (answer) => {
        expect(answer.status).toBe(422);
        expect(answer.body.detail[0].loc).toEqual(['body']);
      },
    );
  });

  it('is a 422 naming the missing body when the body is empty or not JSON', async () => {
    await expectRefusedChangingNothing(
      [
        () => t.request('POST', '/api/v1/items/', { token: user.token }),
        () => t.request('POST', '/api/v1/items/', { token: user.token, raw: 'title=x', contentType: 'text/plain' }),
      ],
      (answer) => {
        expect(answer.status).toBe(422);
        expect(answer.body.detail).toEqual([expect.objectContaining({ type: 'missing', loc: ['body'] })]);
      },
    );
  });

  it('is a 400 GraphQL error without a stack trace on /graphql', async () => {
    await expectRefusedChangingNothing(
      [
        () =>
          t.request('POST', '/graphql', {
            token: user.token,
            raw: '{"query": "mutation { createItem(title: \\"x\\") { id } }"',
          }),
        () => t.request('POST', '/graphql', { token: user.token, raw: '{query: 1}' }),
      ],
      (answer) => {
        expect(answer.status).toBe(400);
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
        expect(answer.body.errors).toEqual([expect.objectContaining({ message: expect.any(String) })]);
        expect(answer.body.errors[0].extensions.code).toBe('BAD_REQUEST');
      },
    );
  });
});

describe('wrong types', () => {
  it('are 422 with one pydantic-style entry per problem, and change nothing', async () => {
    const cases: [string, string, string | undefined, unknown, string[][]][] = [
      [
        'POST',
        '/api/v1/users/signup',
        undefined,
        { email: 42, password: ['a'] },
        [
          ['body', 'email'],
          ['body', 'password'],
        ],
      ],
      [
        'POST',
        '/api/v1/users/signup',
        undefined,
        { email: 'ok@example.com', password: 12345678 },
        [['body', 'password']],
      ],
      [
        'POST',
        '/api/v1/users/',
        su,
        { email: 'typed@example.com', password: 'a-good-password', is_superuser: 'yes', is_active: 1 },
        // In the order the template's model declares them.
        [
          ['body', 'is_active'],
          ['body', 'is_superuser'],
        ],
      ],
      ['PATCH', '/api/v1/users/me', user.token, { full_name: { first: 'A' } }, [['body', 'full_name']]],
      ['PATCH', `/api/v1/users/${user.id}`, su, { is_active: 'false' }, [['body', 'is_active']]],
      [
        'POST',
        '/api/v1/items/',
        user.token,
        { title: 7, description: false },
        [
          ['body', 'title'],
          ['body', 'description'],
        ],
      ],
      ['PUT', `/api/v1/items/${item.id}`, user.token, { title: ['x'] }, [['body', 'title']]],
      [
        'POST',
        '/api/v1/clients/',
        user.token,
        { url: 'https://typed.example', nuvemshop_store_id: { id: 1 }, hiper_sync_update_dimensions: 'no' },
        [
          ['body', 'nuvemshop_store_id'],
          ['body', 'hiper_sync_update_dimensions'],
        ],
      ],
      [
        'PUT',
        `/api/v1/clients/${client.id}`,
        user.token,
        { url: 5, nuvemshop_token: 5 },
        [
          ['body', 'url'],
          ['body', 'nuvemshop_token'],
        ],
      ],
      [
        'POST',
        '/api/v1/reset-password/',
        undefined,
        { token: 1, new_password: 'a-good-password' },
        [['body', 'token']],
      ],
      ['POST', '/api/v1/callback/authorize', undefined, { code: 123 }, [['body', 'code']]],
    ];
    await expectRefusedChangingNothing(
      cases.map(
        ([method, path, token, json]) =>
          () =>
            t.request(method, path, { token, json }),
      ),
      (answer, i) => {
        expect(answer.status, `case ${i}: ${answer.text}`).toBe(422);
        expect(answer.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual(cases[i][4]);
        for (const entry of answer.body.detail) {
          expect(entry).toEqual(expect.objectContaining({ type: expect.any(String), msg: expect.any(String) }));
        }
      },
    );
  });

  it('never echo a password back in the detail', async () => {
    const answer = await t.request('POST', '/api/v1/users/signup', {
      json: { email: 'echo@example.com', password: 'short7!' },
    });
    expect(answer.status).toBe(422);
    expect(answer.text).not.toContain('short7!');
  });

  it('are 422 for query parameters that are not integers', async () => {
    for (const query of ['skip=abc', 'limit=1.5', 'skip=-3', 'limit=100000']) {
      const answer = await t.request('GET', `/api/v1/items/?${query}`, { token: user.token });
      expect(answer.status, query).toBe(422);
      expect(answer.body.detail[0].loc).toEqual(['query', query.split('=')[0]]);
    }
    const echoed = await t.request('GET', '/api/v1/items/?skip=abc', { token: user.token });
    expect(echoed.body.detail).toEqual([
      { type: 'int_parsing', loc: ['query', 'skip'], msg: 'Input should be a valid integer', input: 'abc' },
    ]);
  });

  it('are refused by GraphQL before anything runs', async () => {
    await expectRefusedChangingNothing(
      [
        () => t.graphql('mutation { createItem(title: 5) { id } }', {}, user.token),
        () => t.graphql('mutation($t: String!) { createItem(title: $t) { id } }', { t: ['x'] }, user.token),
        () =>
          t.graphql(
            'mutation { createClient(url: "https://x.example", nuvemshop_store_id: "many") { id } }',
            {},
            user.token,
          ),
        () => t.graphql('mutation { createItem(title: "x", color: "red") { id } }', {}, user.token),
      ],
      (answer) => {
        expect(answer.status).toBe(400);
        expect(answer.body.data).toBeUndefined();
        expect(answer.body.errors[0].extensions.code).toMatch(/^(GRAPHQL_VALIDATION_FAILED|BAD_USER_INPUT)$/);
      },
    );
  });
});

describe('unknown and non-UUID ids', () => {
  it('a well-formed id nobody has is a 404 with the resource detail', async () => {
    const id = randomUUID();
    const cases: [string, string, string, unknown?][] = [
      ['GET', `/api/v1/items/${id}`, 'Item not found'],
      ['PUT', `/api/v1/items/${id}`, 'Item not found', { title: 'x' }],
      ['DELETE', `/api/v1/items/${id}`, 'Item not found'],
      ['GET', `/api/v1/clients/${id}`, 'Client not found'],
      ['PUT', `/api/v1/clients/${id}`, 'Client not found', { url: 'https://x.example' }],
      ['DELETE', `/api/v1/clients/${id}`, 'Client not found'],
      ['GET', `/api/v1/users/${id}`, 'User not found'],
      ['PATCH', `/api/v1/users/${id}`, 'The user with this id does not exist in the system', { full_name: 'x' }],
      ['DELETE', `/api/v1/users/${id}`, 'User not found'],
    ];
    await expectRefusedChangingNothing(
      cases.map(
        ([method, path, , json]) =>
          () =>
            t.request(method, path, { token: su, json }),
      ),
      (answer, i) => {
        expect(answer.status, cases[i][1]).toBe(404);
        expect(answer.body).toEqual({ detail: cases[i][2] });
      },
    );
  });

  it('an id that is not a UUID is a 422 on its path parameter', async () => {
    const ids = ['not-a-uuid', '123', `${item.id}x`, item.id.replace(/-/g, '').slice(0, 31), "1' or '1'='1"];
    const requests = ids.flatMap((id) => {
      const path = encodeURIComponent(id);
      return [
        () => t.request('GET', `/api/v1/items/${path}`, { token: su }),
        () => t.request('PUT', `/api/v1/items/${path}`, { token: su, json: { title: 'x' } }),
        () => t.request('DELETE', `/api/v1/items/${path}`, { token: su }),
        () => t.request('GET', `/api/v1/clients/${path}`, { token: su }),
        () => t.request('PUT', `/api/v1/clients/${path}`, { token: su, json: { url: 'https://x.example' } }),
        () => t.request('DELETE', `/api/v1/clients/${path}`, { token: su }),
        () => t.request('GET', `/api/v1/users/${path}`, { token: su }),
        () => t.request('PATCH', `/api/v1/users/${path}`, { token: su, json: { full_name: 'x' } }),
        () => t.request('DELETE', `/api/v1/users/${path}`, { token: su }),
      ];
    });
    await expectRefusedChangingNothing(requests, (answer) => {
      expect(answer.status).toBe(422);
      expect(answer.body.detail).toEqual([
        expect.objectContaining({ type: 'uuid_parsing', loc: ['path', 'id'], msg: 'Input should be a valid UUID' }),
      ]);
    });
  });

  it('GraphQL tells the two apart the same way', async () => {
    const unknown = await t.graphql('query($id: ID!) { Item(id: $id) { id } }', { id: randomUUID() }, su);
    expect(unknown.body.errors![0]).toMatchObject({ message: 'Item not found', extensions: { code: 'NOT_FOUND' } });
    const malformed = await t.graphql('mutation { deleteItem(id: "abc") { id } }', {}, su);
    expect(malformed.body.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', status: 422 } });
    expect(await t.sql('select id from items where id = $1', [item.id])).toHaveLength(1);
  });
});

describe('bodies over the size limit', () => {
  it('are a 413 on JSON, form and GraphQL routes, and change nothing', async () => {
    const big = 'x'.repeat(BODY_LIMIT + 1);
    await expectRefusedChangingNothing(
      [
        () =>
          t.request('POST', '/api/v1/users/signup', {
            json: { email: 'big@example.com', password: 'a-good-password', full_name: big },
          }),
        () => t.request('POST', '/api/v1/items/', { token: user.token, json: { title: 'big', description: big } }),
        () => t.request('PUT', `/api/v1/clients/${client.id}`, { token: user.token, json: { hiper_token: big } }),
        () => t.request('POST', '/api/v1/login/access-token', { form: { username: user.email, password: big } }),
      ],
      (answer) => {
        expect(answer.status).toBe(413);
        expect(answer.body).toEqual(TOO_LARGE);
      },
    );
    const graphql = await t.request('POST', '/graphql', {
      token: user.token,
      json: {
        query: 'mutation($d: String) { createItem(title: "big", description: $d) { id } }',
        variables: { d: big },
      },
    });
    expect(graphql.status).toBe(413);
    expect(graphql.body.errors).toEqual([expect.objectContaining({ message: 'Request body is too large' })]);
    expectNoStackTrace(graphql);
  });

  it('are measured against BODY_LIMIT, 100kb unless configured: just under it the body is read', async () => {
    expect(loadConfig({}).BODY_LIMIT).toBe('100kb');
    expect(t.config.BODY_LIMIT).toBe('64kb');
    const envelope = JSON.stringify({ title: 'near the limit', description: '' });
    const under = 'd'.repeat(BODY_LIMIT - envelope.length - 10);
    const answer = await t.request('POST', '/api/v1/items/', {
      token: user.token,
      json: { title: 'near the limit', description: under },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.detail[0]).toMatchObject({ type: 'string_too_long', loc: ['body', 'description'] });
  });
});

describe('two signups with one email at the same moment', () => {
  it('give one 200 and one 400, never a 500, and one account', async () => {
    for (let round = 0; round < 5; round++) {
      const email = `race-${round}-${Date.now()}@example.com`;
      const variants = [email, round % 2 ? email.toUpperCase() : email];
      const answers = await Promise.all(
        variants.map((e) =>
          t.request('POST', '/api/v1/users/signup', { json: { email: e, password: 'a-good-password' } }),
        ),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses, answers.map((a) => a.text).join(' | ')).toEqual([200, 400]);
      const loser = answers.find((a) => a.status === 400)!;
      expect(loser.body).toEqual({ detail: 'The user with this email already exists in the system' });
      expectNoStackTrace(loser);
      expect(await t.sql('select id from users where email = $1', [email])).toHaveLength(1);
    }
  });

  it('hold for a crowd too: one account, the rest 400', async () => {
    const email = `crowd-${Date.now()}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.request('POST', '/api/v1/users/signup', { json: { email, password: 'a-good-password' } }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(7);
    expect(await t.sql('select id from users where email = $1', [email])).toHaveLength(1);
  });

  it('give the same through GraphQL and POST /users/', async () => {
    const email = `race-mixed-${Date.now()}@example.com`;
    const [graphql, rest] = await Promise.all([
      t.graphql(`mutation { signup(email: "${email}", password: "a-good-password") { id } }`),
      t.request('POST', '/api/v1/users/', { token: su, json: { email, password: 'a-good-password' } }),
    ]);
    const won = [graphql.body.errors === undefined, rest.status === 200];
    expect(won.filter(Boolean)).toHaveLength(1);
    if (won[0])
      expect(rest).toMatchObject({
        status: 400,
        body: { detail: 'The user with this email already exists in the system.' },
      });
    else expect(graphql.body.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', status: 400 } });
    expect(await t.sql('select id from users where email = $1', [email])).toHaveLength(1);
  });
});

describe('odd requests', () => {
  it('are answered in JSON without a stack trace, and change nothing', async () => {
    await expectRefusedChangingNothing(
      [
        () =>
          t.request('POST', '/api/v1/items/', {
            token: user.token,
            raw: '{"title":"x"}',
            contentType: 'application/json; charset=klingon',
          }),
        () =>
          t.request('POST', '/api/v1/items/', {
            token: user.token,
            raw: '{"title":"x"}',
            headers: { 'Content-Encoding': 'zstd-unknown' },
          }),
        () =>
          t.request('POST', '/api/v1/items/', {
            token: user.token,
            raw: '{"title":"x"}',
            headers: { 'Content-Encoding': 'gzip' },
          }),
        () => t.request('POST', '/api/v1/items/', { token: user.token, raw: '['.repeat(5000) + ']'.repeat(5000) }),
        () => t.request('GET', '/api/v1/items/%E0%A4%A', { token: user.token }),
        () => t.request('GET', '/api/v1/no-such-route', { token: user.token }),
      ],
      (answer, i) => {
        expect(answer.status, `request ${i}: ${answer.text}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `request ${i}: ${answer.text}`).toBeLessThan(500);
        expect(typeof answer.body, `request ${i}: ${answer.text}`).toBe('object');
        expect(answer.body).toHaveProperty('detail');
      },
    );
  });

  it('tells an undecodable path (400) from a decoded id that is not a UUID (422)', async () => {
    const broken = await t.request('GET', '/api/v1/items/%E0%A4%A', { token: user.token });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ detail: 'Bad request' });
    // `%25` decodes to a percent sign: a well-formed path whose id is then refused by validation.
    const percent = await t.request('GET', '/api/v1/items/%25zz', { token: user.token });
    expect(percent.status).toBe(422);
    expect(percent.body.detail[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'id'], input: '%zz' });
  });

  it('on /graphql are answered 400 in GraphQL form without a stack trace, and change nothing', async () => {
    let nested: unknown = 'title';
    for (let i = 0; i < 3000; i++) nested = [nested];
    const create = 'mutation($t: String!) { createItem(title: $t) { id } }';
    await expectRefusedChangingNothing(
      [
        () => t.request('POST', '/graphql', { token: user.token, json: { query: create, variables: { t: nested } } }),
        () => t.graphql(`{ me ${'{ id '.repeat(3000)}${'}'.repeat(3000)} }`, {}, user.token),
        () => t.request('POST', '/graphql', { token: user.token, json: {} }),
        () => t.request('POST', '/graphql', { token: user.token, json: [{ query: create, variables: { t: 'x' } }] }),
        () => t.request('POST', '/graphql', { token: user.token, raw: `query=${create}`, contentType: 'text/plain' }),
      ],
      (answer, i) => {
        expect(answer.status, `request ${i}: ${answer.text}`).toBe(400);
        expect(answer.body.errors, `request ${i}: ${answer.text}`).toEqual([
          expect.objectContaining({ message: expect.any(String) }),
        ]);
      },
    );
  });
});
