import { selectionOf } from '../support/declarations';
import { clientResource } from '../../gateway/clients/client.resource';
import { PlainRows } from '../../gateway/database/plain-rows';
import { entityFor } from '../../gateway/kit/entity';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenIssuer } from '../../gateway/auth/tokens';
import {
  startTestGatewayAsSuperuser,
  SUPERUSER,
  type Answer,
  type RequestOptions,
  type TestGateway,
} from '../support/gateway';

const USER = 'id email full_name is_active is_superuser receives_alerts';
const ITEM = 'id title description owner_id';
const CLIENT = selectionOf(clientResource);
const STORE_TAKEN = 'A client with this nuvemshop_store_id already exists';

/** The GraphQL code each REST status becomes. */
const CODES: Record<number, string> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  422: 'BAD_USER_INPUT',
};

let t: TestGateway;
let su: string;
let suId: string;

beforeAll(async () => ({ t, su, suId } = await startTestGatewayAsSuperuser()));
afterAll(() => t?.close());

type GraphQLAnswer = Answer<{ data?: any; errors?: any[] }>;

/** The data of an operation that must succeed. */
async function ok(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<any> {
  const answer = await t.graphql(query, variables, token);
  expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
  expect(answer.status).toBe(200);
  return answer.body.data;
}

/** The single error of an operation that must fail. */
async function refused(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<any> {
  const answer = await t.graphql(query, variables, token);
  expect(answer.body.errors, JSON.stringify(answer.body)).toHaveLength(1);
  expect(JSON.stringify(answer.body)).not.toMatch(/stacktrace|\bat .+:\d+:\d+/);
  return answer.body.errors![0];
}

async function count(table: 'users' | 'items' | 'clients'): Promise<number> {
  // Archived clients are deleted as far as lists go.
  const live = table === 'clients' ? ' where archived_at is null' : '';
  const [row] = await t.sql<{ n: string }>(`select count(*) as n from ${table}${live}`);
  return Number(row.n);
}

async function createItems(token: string, titles: string[]): Promise<{ id: string; title: string }[]> {
  const items = [];
  for (const title of titles)
    items.push(
      (await ok(`mutation($title: String!) { createItem(title: $title) { ${ITEM} } }`, { title }, token)).createItem,
    );
  return items;
}

describe('the schema', () => {
  it('names every operation the way react-admin expects, as committed in schema/schema.graphql', async () => {
    const data = await ok('{ __schema { queryType { fields { name } } mutationType { fields { name } } } }', {}, su);
    const names = (type: { fields: { name: string }[] }) => type.fields.map((f) => f.name).sort();
    const queries = ['Client', 'Item', 'User', '_allClientsMeta', '_allItemsMeta', '_allUsersMeta', 'allClients'];
    queries.push('allItems', 'allUsers', 'me');
    const mutations = ['authorizeCallback', 'createClient', 'createItem', 'createUser', 'deleteClient', 'deleteItem'];
    mutations.push('deleteMe', 'deleteUser', 'login', 'recoverPassword', 'resetPassword', 'signup', 'updateClient');
    mutations.push('updateItem', 'updateMe', 'updatePassword', 'updateUser');
    expect(names(data.__schema.queryType)).toEqual(expect.arrayContaining(queries));
    expect(names(data.__schema.mutationType)).toEqual(expect.arrayContaining(mutations));

    const committed = readFileSync(path.join(__dirname, '../../schema/schema.graphql'), 'utf8');
    for (const name of [...queries, ...mutations]) expect(committed).toMatch(new RegExp(`^  ${name}[(:]`, 'm'));
  });
});

describe('the same data as REST', () => {
  it('me, User and allUsers/_allUsersMeta answer what the REST routes answer', async () => {
    const user = await t.createUser();
    const data = await ok(
      `query($id: ID!) {
        me { ${USER} }
        User(id: $id) { ${USER} }
        allUsers(perPage: 100) { ${USER} }
        _allUsersMeta { count }
      }`,
      { id: user.id },
      su,
    );
    expect(data.me).toEqual((await t.request('GET', '/api/v1/users/me', { token: su })).body);
    expect(data.User).toEqual((await t.request('GET', `/api/v1/users/${user.id}`, { token: su })).body);
    const rest = await t.request('GET', '/api/v1/users/?limit=100', { token: su });
    expect(data.allUsers).toEqual(rest.body.data);
    expect(data._allUsersMeta.count).toBe(rest.body.count);
    expect(data._allUsersMeta.count).toBe(await count('users'));
  });

  it("allItems and _allItemsMeta are scoped to an ordinary user's own items, as in REST", async () => {
    const user = await t.createUser();
    const other = await t.createUser();
    await createItems(user.token, ['one', 'two']);
    await createItems(other.token, ['not mine']);
    const data = await ok(`{ allItems { ${ITEM} } _allItemsMeta { count } }`, {}, user.token);
    const rest = await t.request('GET', '/api/v1/items/', { token: user.token });
    expect(data.allItems).toEqual(rest.body.data);
    expect(data._allItemsMeta.count).toBe(2);
    expect(rest.body.count).toBe(2);
    const all = await ok('{ _allItemsMeta { count } }', {}, su);
    expect(all._allItemsMeta.count).toBe(await count('items'));
  });

  it('Item and Client answer what GET /items/{id} and GET /clients/{id} answer, tokens decrypted', async () => {
    const user = await t.createUser();
    const [item] = await createItems(user.token, ['same data']);
    const client = (
      await t.request('POST', '/api/v1/clients/', {
        token: su,
        json: { url: 'https://same.example', hiper_token: 'hiper-secret', nuvemshop_store_id: '4242' },
      })
    ).body;
    const data = await ok(
      `query($item: ID!, $client: ID!) {
        Item(id: $item) { ${ITEM} }
        Client(id: $client) { ${CLIENT} }
        allClients(perPage: 100) { ${CLIENT} }
        _allClientsMeta { count }
      }`,
      { item: item.id, client: client.id },
      user.token,
    );
    expect(data.Item).toEqual((await t.request('GET', `/api/v1/items/${item.id}`, { token: user.token })).body);
    // An ordinary user sees the tokens masked, in GraphQL as in REST.
    expect(data.Client).toEqual({ ...client, hiper_token: '••••••••cret' });
    const rest = await t.request('GET', '/api/v1/clients/?limit=100', { token: user.token });
    expect(data.allClients).toEqual(rest.body.data);
    expect(data._allClientsMeta.count).toBe(rest.body.count);
    const asSuperuser = await ok(`query($id: ID!) { Client(id: $id) { ${CLIENT} } }`, { id: client.id }, su);
    expect(asSuperuser.Client).toEqual(client);
    expect(asSuperuser.Client.hiper_token).toBe('hiper-secret');
  });

  it('mutations write what REST then reads', async () => {
    const email = `gql-${Date.now()}@example.com`;
    const created = (
      await ok(
        `mutation($email: String!) {
          createUser(email: $email, password: "a-good-password", full_name: "Via GraphQL") { ${USER} }
        }`,
        { email: email.toUpperCase() },
        su,
      )
    ).createUser;
    expect(created).toMatchObject({ email, full_name: 'Via GraphQL', is_active: true, is_superuser: false });
    expect((await t.request('GET', `/api/v1/users/${created.id}`, { token: su })).body).toEqual(created);

    const updated = (
      await ok(`mutation($id: ID!) { updateUser(id: $id, full_name: "Renamed") { ${USER} } }`, { id: created.id }, su)
    ).updateUser;
    expect(updated).toEqual({ ...created, full_name: 'Renamed' });

    const token = (
      await ok(
        `mutation($u: String!) { login(username: $u, password: "a-good-password") { access_token token_type } }`,
        { u: email },
      )
    ).login;
    expect(token.token_type).toBe('bearer');
    const me = await ok(`mutation { updateMe(full_name: "Myself") { ${USER} } }`, {}, token.access_token);
    expect(me.updateMe).toEqual({ ...created, full_name: 'Myself' });

    const item = (
      await ok(`mutation { createItem(title: "Made here", description: "d") { ${ITEM} } }`, {}, token.access_token)
    ).createItem;
    expect(item).toMatchObject({ title: 'Made here', description: 'd', owner_id: created.id });
    const changed = (
      await ok(
        `mutation($id: ID!) { updateItem(id: $id, title: "Changed") { ${ITEM} } }`,
        { id: item.id },
        token.access_token,
      )
    ).updateItem;
    expect(changed).toEqual({ ...item, title: 'Changed' });
    expect((await t.request('GET', `/api/v1/items/${item.id}`, { token: token.access_token })).body).toEqual(changed);

    const client = (
      await ok(
        `mutation {
          createClient(url: "https://gql.example", nuvemshop_token: "nuvem", nuvemshop_store_id: 5000000000) {
            ${CLIENT}
          }
        }`,
        {},
        token.access_token,
      )
    ).createClient;
    expect(client).toMatchObject({
      url: 'https://gql.example',
      nuvemshop_token: '••••••••',
      hiper_token: null,
      nuvemshop_store_id: 5000000000,
      hiper_sync_update_image: true,
      hiper_sync_update_dimensions: true,
    });
    const updatedClient = (
      await ok(
        `mutation($id: ID!) { updateClient(id: $id, hiper_sync_update_image: false) { ${CLIENT} } }`,
        { id: client.id },
        token.access_token,
      )
    ).updateClient;
    expect(updatedClient).toEqual({ ...client, hiper_sync_update_image: false });
    expect((await t.request('GET', `/api/v1/clients/${client.id}`, { token: su })).body).toEqual({
      ...updatedClient,
      nuvemshop_token: 'nuvem',
    });
    const [row] = await t.sql<{ nuvemshop_token: string }>('select nuvemshop_token from clients where id = $1', [
      client.id,
    ]);
    expect(row.nuvemshop_token).not.toContain('nuvem');
  });

  it('signup, updatePassword, recoverPassword and resetPassword work as their REST twins', async () => {
    const email = `gql-signup-${Date.now()}@example.com`;
    const signed = (
      await ok(`mutation($email: String!) { signup(email: $email, password: "first-password") { ${USER} } }`, { email })
    ).signup;
    expect(signed).toMatchObject({ email, is_active: true, is_superuser: false, full_name: null });
    const token = await t.login(email, 'first-password');
    const otherSession = await t.login(email, 'first-password');
    const changed = await ok(
      'mutation { updatePassword(current_password: "first-password", new_password: "second-password") { message } }',
      {},
      token,
    );
    expect(changed.updatePassword).toEqual({ message: 'Password updated successfully' });
    // The session that changed it goes on; the other one ended.
    expect((await ok('{ me { email } }', {}, token)).me.email).toBe(email);
    const ended = await refused('{ me { email } }', {}, otherSession);
    expect(ended.extensions.code).toBe('UNAUTHENTICATED');
    expect(ended.message).toBe('Could not validate credentials');
    const again = await ok(
      'mutation { updatePassword(current_password: "second-password", new_password: "between-password") { message } }',
      {},
      token,
    );
    expect(again.updatePassword.message).toBe('Password updated successfully');
    expect((await ok('{ me { email } }', {}, token)).me.email).toBe(email);
    const recovered = await ok(`mutation($email: String!) { recoverPassword(email: $email) { message } }`, { email });
    const unknown = await ok('mutation { recoverPassword(email: "nobody-gql@example.com") { message } }');
    expect(recovered.recoverPassword).toEqual({
      message: 'If that email is registered, we sent a password recovery link',
    });
    expect(unknown).toEqual(recovered);

    const html = await t.request('POST', `/api/v1/password-recovery-html-content/${email}`, { token: su });
    const resetToken = /reset-password\?token=([\w.-]+)/.exec(html.text)![1];
    const reset = await ok(
      'mutation($token: String!) { resetPassword(token: $token, new_password: "third-password") { message } }',
      { token: resetToken },
    );
    expect(reset.resetPassword).toEqual({ message: 'Password updated successfully' });
    await expect(t.login(email, 'third-password')).resolves.toEqual(expect.any(String));
    // A reset ends every session, the one that changed the password before included.
    expect((await refused('{ me { email } }', {}, token)).extensions.code).toBe('UNAUTHENTICATED');
  });

  it('updateUser with a password ends every session of that user', async () => {
    const user = await t.createUser();
    const second = await t.login(user.email, user.password);
    const updated = await ok(
      'mutation($id: ID!) { updateUser(id: $id, password: "set-by-the-admin") { id } }',
      { id: user.id },
      su,
    );
    expect(updated.updateUser.id).toBe(user.id);
    for (const token of [user.token, second]) {
      expect((await refused('{ me { email } }', {}, token)).message).toBe('Could not validate credentials');
    }
    expect((await ok('{ me { id } }', {}, await t.login(user.email, 'set-by-the-admin'))).me.id).toBe(user.id);
  });
});

describe('the same permissions and messages as REST', () => {
  interface Case {
    name: string;
    graphql: [string, Record<string, unknown>?];
    rest: [string, string, RequestOptions?];
    token: () => string | undefined;
    /** The text both must carry, where the contract leaves it to the gateway. */
    detail?: string;
    /** The token no longer works. */
    session?: boolean;
  }

  let user: { token: string; id: string; email: string; password: string };
  let other: { token: string; id: string; email: string };
  let othersItem: string;
  let deleted: string;
  let inactive: string;
  const missing = randomUUID();

  beforeAll(async () => {
    user = await t.createUser();
    other = await t.createUser();
    [{ id: othersItem }] = await createItems(other.token, ['theirs']);
    const taken = await t.request('POST', '/api/v1/clients/', {
      token: su,
      json: { url: 'https://taken.example', nuvemshop_store_id: 777 },
    });
    expect(taken.status).toBe(200);
    const gone = await t.createUser();
    await t.request('DELETE', '/api/v1/users/me', { token: gone.token });
    deleted = gone.token;
    const off = await t.createUser();
    await t.sql('update users set is_active = false where id = $1', [off.id]);
    inactive = off.token;
  });

  const cases: Case[] = [
    {
      session: true,
      name: 'no token',
      graphql: ['{ me { id } }'],
      rest: ['GET', '/api/v1/users/me'],
      token: () => undefined,
    },
    {
      session: true,
      name: 'bad token',
      graphql: ['{ me { id } }'],
      rest: ['GET', '/api/v1/users/me'],
      token: () => 'not-a-token',
    },
    {
      session: true,
      name: "deleted user's token",
      graphql: ['{ me { id } }'],
      rest: ['GET', '/api/v1/users/me'],
      token: () => deleted,
    },
    {
      session: true,
      name: 'token of an id that never existed',
      graphql: ['{ me { id } }'],
      rest: ['GET', '/api/v1/users/me'],
      token: () => new TokenIssuer(t.config.SECRET_KEY, 60, 48).issueAccess({ id: missing, tokenVersion: 0 }),
    },
    {
      session: true,
      name: 'inactive user',
      graphql: ['{ allItems { id } }'],
      rest: ['GET', '/api/v1/items/'],
      token: () => inactive,
    },
    {
      name: 'allUsers by an ordinary user',
      graphql: ['{ allUsers { id } }'],
      rest: ['GET', '/api/v1/users/'],
      token: () => user.token,
    },
    {
      name: '_allUsersMeta by an ordinary user',
      graphql: ['{ _allUsersMeta { count } }'],
      rest: ['GET', '/api/v1/users/'],
      token: () => user.token,
    },
    {
      name: 'another user by an ordinary user',
      graphql: ['query($id: ID!) { User(id: $id) { id } }', { id: '$other' }],
      rest: ['GET', '/api/v1/users/$other'],
      token: () => user.token,
    },
    {
      name: 'an unknown user',
      graphql: ['query($id: ID!) { User(id: $id) { id } }', { id: missing }],
      rest: ['GET', `/api/v1/users/${missing}`],
      token: () => su,
    },
    {
      name: 'createUser by an ordinary user',
      graphql: ['mutation { createUser(email: "x-by-user@example.com", password: "a-good-password") { id } }'],
      rest: ['POST', '/api/v1/users/', { json: { email: 'x-by-user@example.com', password: 'a-good-password' } }],
      token: () => user.token,
    },
    {
      name: 'createUser with a taken email',
      graphql: [
        `mutation { createUser(email: "${SUPERUSER.email.toUpperCase()}", password: "a-good-password") { id } }`,
      ],
      rest: ['POST', '/api/v1/users/', { json: { email: SUPERUSER.email, password: 'a-good-password' } }],
      token: () => su,
    },
    {
      name: 'signup with a taken email',
      graphql: [`mutation { signup(email: "${SUPERUSER.email}", password: "a-good-password") { id } }`],
      rest: ['POST', '/api/v1/users/signup', { json: { email: SUPERUSER.email, password: 'a-good-password' } }],
      token: () => undefined,
    },
    {
      name: 'updateUser of an unknown id',
      graphql: ['mutation($id: ID!) { updateUser(id: $id, full_name: "x") { id } }', { id: missing }],
      rest: ['PATCH', `/api/v1/users/${missing}`, { json: { full_name: 'x' } }],
      token: () => su,
    },
    {
      name: 'updateUser to a taken email',
      graphql: [
        'mutation($id: ID!, $email: String) { updateUser(id: $id, email: $email) { id } }',
        { id: '$user', email: SUPERUSER.email },
      ],
      rest: ['PATCH', '/api/v1/users/$user', { json: { email: SUPERUSER.email } }],
      token: () => su,
    },
    {
      name: 'updateMe to a taken email',
      graphql: ['mutation($email: String) { updateMe(email: $email) { id } }', { email: SUPERUSER.email }],
      rest: ['PATCH', '/api/v1/users/me', { json: { email: SUPERUSER.email } }],
      token: () => user.token,
    },
    {
      name: 'updatePassword with a wrong current password',
      graphql: [
        'mutation { updatePassword(current_password: "wrong-one!", new_password: "whatever-new") { message } }',
      ],
      rest: [
        'PATCH',
        '/api/v1/users/me/password',
        { json: { current_password: 'wrong-one!', new_password: 'whatever-new' } },
      ],
      token: () => user.token,
    },
    {
      name: 'updatePassword to the same password',
      graphql: [
        'mutation { updatePassword(current_password: "a-good-password", new_password: "a-good-password") { message } }',
      ],
      rest: [
        'PATCH',
        '/api/v1/users/me/password',
        { json: { current_password: 'a-good-password', new_password: 'a-good-password' } },
      ],
      token: () => user.token,
    },
    {
      name: 'deleteUser of the own id',
      graphql: ['mutation($id: ID!) { deleteUser(id: $id) { id } }', { id: '$su' }],
      rest: ['DELETE', '/api/v1/users/$su'],
      token: () => su,
    },
    {
      name: 'deleteUser of an unknown id',
      graphql: ['mutation($id: ID!) { deleteUser(id: $id) { id } }', { id: missing }],
      rest: ['DELETE', `/api/v1/users/${missing}`],
      token: () => su,
    },
    {
      name: 'deleteUser by an ordinary user',
      graphql: ['mutation($id: ID!) { deleteUser(id: $id) { id } }', { id: '$other' }],
      rest: ['DELETE', '/api/v1/users/$other'],
      token: () => user.token,
    },
    {
      name: 'deleteMe by a superuser',
      graphql: ['mutation { deleteMe { message } }'],
      rest: ['DELETE', '/api/v1/users/me'],
      token: () => su,
    },
    {
      name: 'login with a wrong password',
      graphql: [`mutation { login(username: "${SUPERUSER.email}", password: "wrong-password") { access_token } }`],
      rest: ['POST', '/api/v1/login/access-token', { form: { username: SUPERUSER.email, password: 'wrong-password' } }],
      token: () => undefined,
    },
    {
      name: 'resetPassword with a bad token',
      graphql: ['mutation { resetPassword(token: "bad", new_password: "whatever-new") { message } }'],
      rest: ['POST', '/api/v1/reset-password/', { json: { token: 'bad', new_password: 'whatever-new' } }],
      token: () => undefined,
    },
    {
      name: "another user's item",
      graphql: ['query($id: ID!) { Item(id: $id) { id } }', { id: '$item' }],
      rest: ['GET', '/api/v1/items/$item'],
      token: () => user.token,
    },
    {
      name: "updateItem of another user's item",
      graphql: ['mutation($id: ID!) { updateItem(id: $id, title: "mine now") { id } }', { id: '$item' }],
      rest: ['PUT', '/api/v1/items/$item', { json: { title: 'mine now' } }],
      token: () => user.token,
    },
    {
      name: "deleteItem of another user's item",
      graphql: ['mutation($id: ID!) { deleteItem(id: $id) { id } }', { id: '$item' }],
      rest: ['DELETE', '/api/v1/items/$item'],
      token: () => user.token,
    },
    {
      name: 'an unknown item',
      graphql: ['query($id: ID!) { Item(id: $id) { id } }', { id: missing }],
      rest: ['GET', `/api/v1/items/${missing}`],
      token: () => user.token,
    },
    {
      name: 'an unknown client',
      graphql: ['mutation($id: ID!) { deleteClient(id: $id) { id } }', { id: missing }],
      rest: ['DELETE', `/api/v1/clients/${missing}`],
      token: () => user.token,
    },
    {
      name: 'createClient with a taken store id',
      graphql: ['mutation { createClient(url: "https://dup.example", nuvemshop_store_id: 777) { id } }'],
      rest: ['POST', '/api/v1/clients/', { json: { url: 'https://dup.example', nuvemshop_store_id: 777 } }],
      token: () => user.token,
      detail: STORE_TAKEN,
    },
  ];

  /** Fills in ids known only once the data exists. */
  function resolve<T>(value: T): T {
    const ids: Record<string, string> = { $other: other.id, $user: user.id, $su: suId, $item: othersItem };
    return JSON.parse(JSON.stringify(value).replace(/\$(other|user|su|item)\b/g, (m) => ids[m]));
  }

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const [query, variables] = resolve(c.graphql);
    const [method, restPath, options] = resolve(c.rest);
    const token = c.token();
    const before = [await count('users'), await count('items'), await count('clients')];
    const rest = await t.request(method, restPath, { ...options, token });
    const error = await refused(query, variables, token);
    expect(rest.status).toBeGreaterThanOrEqual(400);
    expect(typeof rest.body.detail).toBe('string');
    expect(error.message).toBe(rest.body.detail);
    if (c.detail) expect(rest.body.detail).toBe(c.detail);
    // A token that no longer works is UNAUTHENTICATED whatever its REST status: clients sign in again on the code.
    expect(error.extensions.code).toBe(c.session ? 'UNAUTHENTICATED' : CODES[rest.status]);
    expect(error.extensions.status).toBe(rest.status);
    expect([await count('users'), await count('items'), await count('clients')]).toEqual(before);
  });

  it('refuses an id that is not a UUID with BAD_USER_INPUT and the REST 422 detail', async () => {
    const rest = await t.request('GET', '/api/v1/clients/not-a-uuid', { token: user.token });
    expect(rest.status).toBe(422);
    const error = await refused('{ Client(id: "not-a-uuid") { id } }', {}, user.token);
    expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 422, detail: rest.body.detail });
    expect(error.message).toBe('Input should be a valid UUID');
  });

  it('refuses values out of bounds with BAD_USER_INPUT and the REST 422 detail, creating nothing', async () => {
    const before = await count('items');
    const error = await refused('mutation { createItem(title: "") { id } }', {}, user.token);
    const rest = await t.request('POST', '/api/v1/items/', { token: user.token, json: { title: '' } });
    expect(rest.status).toBe(422);
    expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 422, detail: rest.body.detail });
    expect(error.extensions.detail[0].loc).toEqual(['body', 'title']);

    const short = await refused('mutation { signup(email: "short@example.com", password: "short") { id } }');
    expect(short.extensions.detail[0]).toMatchObject({ type: 'string_too_short', loc: ['body', 'password'] });
    const code = await refused('mutation { authorizeCallback(code: "  ") { message } }');
    expect(code.extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 422 });
    expect(await count('items')).toBe(before);
  });
});

describe('the same bounds as REST', () => {
  it('answer the same 422 detail list for values out of bounds, creating nothing', async () => {
    const user = await t.createUser();
    const [item] = await createItems(user.token, ['bounded']);
    const long = `${'a'.repeat(250)}@example.com`;
    const cases: [string, Record<string, unknown>, string, string, unknown][] = [
      [
        'mutation($email: String!) { createUser(email: $email, password: "a-good-password") { id } }',
        { email: long },
        'POST',
        '/api/v1/users/',
        { email: long, password: 'a-good-password' },
      ],
      [
        'mutation($p: String!) { signup(email: "bounds@example.com", password: $p) { id } }',
        { p: 'x'.repeat(129) },
        'POST',
        '/api/v1/users/signup',
        { email: 'bounds@example.com', password: 'x'.repeat(129) },
      ],
      [
        'mutation { updateMe(email: "not-an-email") { id } }',
        {},
        'PATCH',
        '/api/v1/users/me',
        { email: 'not-an-email' },
      ],
      [
        'mutation($id: ID!, $title: String) { updateItem(id: $id, title: $title) { id } }',
        { id: item.id, title: 't'.repeat(256) },
        'PUT',
        `/api/v1/items/${item.id}`,
        { title: 't'.repeat(256) },
      ],
      ['mutation { createClient(url: "") { id } }', {}, 'POST', '/api/v1/clients/', { url: '' }],
      [
        'mutation { createClient(url: "https://neg.example", nuvemshop_store_id: -1) { id } }',
        {},
        'POST',
        '/api/v1/clients/',
        { url: 'https://neg.example', nuvemshop_store_id: -1 },
      ],
    ];
    const before = [await count('users'), await count('items'), await count('clients')];
    for (const [query, variables, method, restPath, json] of cases) {
      // Creating a user is a superuser's operation; the others are the user's own.
      const token = query.includes('createUser') ? su : user.token;
      const rest = await t.request(method, restPath, { token, json });
      expect(rest.status, restPath).toBe(422);
      const error = await refused(query, variables, token);
      expect(error.extensions).toEqual({ code: 'BAD_USER_INPUT', status: 422, detail: rest.body.detail });
      expect(error.message).toBe(rest.body.detail[0].msg);
    }
    expect([await count('users'), await count('items'), await count('clients')]).toEqual(before);
    expect((await t.request('GET', `/api/v1/items/${item.id}`, { token: user.token })).body.title).toBe('bounded');
  });
});

describe('delete mutations answer the deleted record', () => {
  it('deleteItem', async () => {
    const user = await t.createUser();
    const [item] = await createItems(user.token, ['to delete']);
    const data = await ok(`mutation($id: ID!) { deleteItem(id: $id) { ${ITEM} } }`, { id: item.id }, user.token);
    expect(data.deleteItem).toEqual(item);
    expect((await t.request('GET', `/api/v1/items/${item.id}`, { token: user.token })).status).toBe(404);
  });

  it('deleteClient, with its tokens decrypted for a superuser', async () => {
    const user = await t.createUser();
    const client = (
      await ok(
        `mutation {
          createClient(url: "https://bye.example", hiper_token: "h-tok", nuvemshop_store_id: 31337) { ${CLIENT} }
        }`,
        {},
        su,
      )
    ).createClient;
    const data = await ok(`mutation($id: ID!) { deleteClient(id: $id) { ${CLIENT} } }`, { id: client.id }, su);
    // Deleted is archived: the answer is the client as it now stands.
    expect(data.deleteClient).toEqual({ ...client, archived_at: expect.any(String) });
    expect(data.deleteClient.hiper_token).toBe('h-tok');
    expect((await t.request('GET', `/api/v1/clients/${client.id}`, { token: user.token })).status).toBe(404);
  });

  it('deleteUser, taking their items along', async () => {
    const user = await t.createUser();
    await createItems(user.token, ['a', 'b']);
    const record = (await t.request('GET', `/api/v1/users/${user.id}`, { token: su })).body;
    const data = await ok(`mutation($id: ID!) { deleteUser(id: $id) { ${USER} } }`, { id: user.id }, su);
    expect(data.deleteUser).toEqual(record);
    expect(await t.sql('select id from items where owner_id = $1', [user.id])).toEqual([]);
    const error = await refused('{ me { id } }', {}, user.token);
    expect(error).toMatchObject({
      message: 'Could not validate credentials',
      extensions: { code: 'UNAUTHENTICATED', status: 403 },
    });
  });

  it('deleteMe answers the REST message', async () => {
    const user = await t.createUser();
    const data = await ok('mutation { deleteMe { message } }', {}, user.token);
    expect(data.deleteMe).toEqual({ message: 'User deleted successfully' });
    expect(await t.sql('select id from users where id = $1', [user.id])).toEqual([]);
  });
});

describe('a read answers the fields its query selects', () => {
  /** Some of an answer's fields, as REST answers them. */
  const pick = (record: Record<string, unknown>, names: string[]) =>
    Object.fromEntries(names.map((name) => [name, record[name]]));
  let client: Record<string, unknown>;

  beforeAll(async () => {
    client = (
      await t.request('POST', '/api/v1/clients/', {
        token: su,
        json: { url: 'https://picked.example', hiper_token: 'hiper-picked-secret', nuvemshop_store_id: '7373' },
      })
    ).body;
  });

  it('answers a few fields of a record as REST does, a secret masked for an ordinary user and in clear for a superuser', async () => {
    const user = await t.createUser();
    const query = 'query($id: ID!) { Client(id: $id) { hiper_token url installed_at } }';
    const asUser = await ok(query, { id: client.id }, user.token);
    expect(asUser.Client).toEqual({ hiper_token: '••••••••cret', url: 'https://picked.example', installed_at: null });
    const asSuperuser = await ok(query, { id: client.id }, su);
    expect(asSuperuser.Client).toEqual(pick(client, ['hiper_token', 'url', 'installed_at']));
    expect(asSuperuser.Client.hiper_token).toBe('hiper-picked-secret');
  });

  it('reads the fields named in fragments, inline fragments and both of two selections of one field', async () => {
    const data = await ok(
      `query($id: ID!) {
        Client(id: $id) { ...Store ... on Client { name } __typename }
        again: Client(id: $id) { id }
        Client(id: $id) { nuvemshop_store_id }
      }
      fragment Store on Client { url ...Sync }
      fragment Sync on Client { sync_state }`,
      { id: client.id },
      su,
    );
    expect(data.Client).toEqual({
      ...pick(client, ['url', 'sync_state', 'name', 'nuvemshop_store_id']),
      __typename: 'Client',
    });
    expect(data.again).toEqual({ id: client.id });
  });

  it('gives two selections of the same page their own fields, and the total alone or first its count', async () => {
    const rest = (await t.request('GET', '/api/v1/clients/?limit=3', { token: su })).body;
    const data = await ok(
      `{
        total: _allClientsMeta(perPage: 3) { count }
        urls: allClients(perPage: 3) { id url }
        stores: allClients(perPage: 3) { nuvemshop_store_id hiper_sync_update_image }
      }`,
      {},
      su,
    );
    expect(data.urls).toEqual(rest.data.map((c: Record<string, unknown>) => pick(c, ['id', 'url'])));
    const names = ['nuvemshop_store_id', 'hiper_sync_update_image'];
    expect(data.stores).toEqual(rest.data.map((c: Record<string, unknown>) => pick(c, names)));
    expect(data.total.count).toBe(rest.count);
    expect((await ok('{ _allClientsMeta { count } }', {}, su))._allClientsMeta.count).toBe(rest.count);
  });

  it("still refuses another user's record when the query does not ask for its owner", async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const [item] = await createItems(owner.token, ['not yours']);
    const error = await refused('query($id: ID!) { Item(id: $id) { title } }', { id: item.id }, other.token);
    expect(error.extensions.code).toBe('FORBIDDEN');
    expect((await ok('query($id: ID!) { Item(id: $id) { title } }', { id: item.id }, owner.token)).Item).toEqual({
      title: 'not yours',
    });
  });
});

describe('what a read keeps of the field sets callers ask for', () => {
  /** Distinct sets of two, then three, of `names`: as many as asked. */
  const pairs = (names: readonly string[], count: number) => {
    const two = names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b]));
    const three = two.flatMap(([a, b]) => names.slice(names.indexOf(b) + 1).map((c) => [a, b, c]));
    return [...two, ...three].slice(0, count);
  };
  let answered: string[];

  beforeAll(async () => {
    const client = (
      await t.request('POST', '/api/v1/clients/', {
        token: su,
        json: { url: 'https://kept-readings.example', nuvemshop_store_id: '7474' },
      })
    ).body;
    answered = Object.keys(client);
  });

  it('keeps the readings of the last 64 field sets: an older set is made anew, and answers the same', async () => {
    const sets = pairs(answered, 128);
    expect(sets).toHaveLength(128);
    const first = clientResource.reading(sets[0]);
    for (const set of sets.slice(1, 64)) clientResource.reading(set);
    expect(clientResource.reading(sets[0])).toBe(first);
    const recent = sets.slice(64).map((set) => clientResource.reading(set));
    expect(clientResource.reading(sets[127])).toBe(recent.at(-1));
    const again = clientResource.reading(sets[0]);
    expect(again).not.toBe(first);
    expect(again.props).toEqual(first.props);
    // A query selecting those fields still answers them.
    const { allClients } = await ok(`{ allClients(perPage: 1) { ${sets[0].join(' ')} } }`, {}, su);
    expect(Object.keys(allClients[0])).toEqual(sets[0]);
  });

  it('keeps the last 256 column selections of plain rows, each made anew once dropped', () => {
    const rows = new PlainRows(t.gateway.orm);
    const entity = entityFor(clientResource);
    const sets = pairs(clientResource.full.props, 512);
    expect(sets).toHaveLength(512);
    const first = rows.select(entity, sets[0]);
    for (const set of sets.slice(1, 256)) rows.select(entity, set);
    expect(rows.select(entity, sets[0])).toBe(first);
    const recent = sets.slice(256).map((set) => rows.select(entity, set));
    expect(rows.select(entity, sets[511])).toBe(recent.at(-1));
    const again = rows.select(entity, sets[0]);
    expect(again).not.toBe(first);
    expect(again.columns).toBe(first.columns);
  });
});

describe('allX and _allXMeta paging', () => {
  let user: { token: string; id: string };
  let items: { id: string; title: string }[];

  beforeAll(async () => {
    user = await t.createUser();
    items = await createItems(user.token, ['delta', 'alpha', 'echo', 'charlie', 'bravo']);
  });

  it('pages from 0 with perPage, while the meta count stays the total', async () => {
    const query = `query($page: Int, $perPage: Int) {
      allItems(page: $page, perPage: $perPage, sortField: "title", sortOrder: "ASC") { title }
      _allItemsMeta(page: $page, perPage: $perPage) { count }
    }`;
    const pages = [];
    for (const page of [0, 1, 2]) {
      const data = await ok(query, { page, perPage: 2 }, user.token);
      expect(data._allItemsMeta.count).toBe(5);
      pages.push(data.allItems.map((i: { title: string }) => i.title));
    }
    expect(pages).toEqual([['alpha', 'bravo'], ['charlie', 'delta'], ['echo']]);
  });

  it('sorts both ways and defaults to newest first', async () => {
    const desc = await ok('{ allItems(sortField: "title", sortOrder: "DESC") { title } }', {}, user.token);
    expect(desc.allItems.map((i: { title: string }) => i.title)).toEqual([
      'echo',
      'delta',
      'charlie',
      'bravo',
      'alpha',
    ]);
    const newest = await ok('{ allItems { id } }', {}, user.token);
    const stored = await t.sql<{ id: string }>(
      'select id from items where owner_id = $1 order by created_at desc, id desc',
      [user.id],
    );
    expect(newest.allItems.map((i: { id: string }) => i.id)).toEqual(stored.map((r) => r.id));
  });

  it('filters by text and by ids, counting the same filter', async () => {
    const byText = await ok(
      '{ allItems(filter: { q: "ha" }) { title } _allItemsMeta(filter: { q: "ha" }) { count } }',
      {},
      user.token,
    );
    expect(byText.allItems.map((i: { title: string }) => i.title).sort()).toEqual(['alpha', 'charlie']);
    expect(byText._allItemsMeta.count).toBe(2);
    const ids = [items[0].id, items[4].id];
    const byIds = await ok(
      'query($ids: [ID!]) { allItems(filter: { ids: $ids }) { id } _allItemsMeta(filter: { ids: $ids }) { count } }',
      { ids },
      user.token,
    );
    expect(byIds.allItems.map((i: { id: string }) => i.id).sort()).toEqual([...ids].sort());
    expect(byIds._allItemsMeta.count).toBe(2);
  });

  it('searches for the text as written: % and _ match only themselves, and a user by email or full name', async () => {
    const other = await t.createUser();
    await createItems(user.token, ['100% cotton', '100 x cotton']);
    await createItems(other.token, ['100% wool']);
    const titles = async (q: string) =>
      (await ok('query($q: String) { allItems(filter: { q: $q }) { title } }', { q }, user.token)).allItems
        .map((i: { title: string }) => i.title)
        .sort();
    // Only the caller's own items, and the wildcard characters taken literally.
    expect(await titles('100%')).toEqual(['100% cotton']);
    expect(await titles('100_')).toEqual([]);
    expect(await titles('0 x')).toEqual(['100 x cotton']);

    const named = await t.request('PATCH', '/api/v1/users/me', {
      token: other.token,
      json: { full_name: 'Zuleica Quintanilha' },
    });
    expect(named.status).toBe(200);
    const byName = await ok(
      '{ allUsers(filter: { q: "quintanilha" }) { email } _allUsersMeta(filter: { q: "quintanilha" }) { count } }',
      {},
      su,
    );
    expect(byName).toEqual({ allUsers: [{ email: other.email }], _allUsersMeta: { count: 1 } });
  });

  it('falls back to newest first for a sort field it does not know', async () => {
    const unknown = await ok('{ allItems(sortField: "title desc; drop table items") { id } }', {}, user.token);
    const newest = await ok('{ allItems { id } }', {}, user.token);
    expect(unknown.allItems).toEqual(newest.allItems);
    expect(newest.allItems.length).toBeGreaterThan(1);
  });

  it('pages users and clients the same way', async () => {
    const users = await ok(
      '{ allUsers(page: 0, perPage: 1) { id } _allUsersMeta(page: 0, perPage: 1) { count } }',
      {},
      su,
    );
    expect(users.allUsers).toHaveLength(1);
    expect(users._allUsersMeta.count).toBe(await count('users'));
    const bySuperuserEmail = await ok(`{ allUsers(filter: { q: "${SUPERUSER.email}" }) { email } }`, {}, su);
    expect(bySuperuserEmail.allUsers).toEqual([{ email: SUPERUSER.email }]);
    const clients = await ok('{ allClients(perPage: 1) { id } _allClientsMeta { count } }', {}, user.token);
    expect(clients.allClients.length).toBeLessThanOrEqual(1);
    expect(clients._allClientsMeta.count).toBe(await count('clients'));
  });

  it('refuses a page size past the REST limit or a negative page', async () => {
    for (const args of ['perPage: 1001', 'page: -1']) {
      const error = await refused(`{ allItems(${args}) { id } }`, {}, user.token);
      expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', status: 422 });
    }
  });
});

describe('query limits', () => {
  /** A refused operation: HTTP 400, one error naming the limit, and no `data` at all, since nothing executed. */
  function expectRefusedBeforeExecution(answer: GraphQLAnswer, limit: RegExp): void {
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors![0].message).toMatch(limit);
    expect(answer.body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  }

  it('refuses a query deeper than GRAPHQL_MAX_DEPTH before any resolver runs', async () => {
    // Without a token, running `me` would have answered UNAUTHENTICATED: the only error is the limit.
    const deep =
      '{ me { id } __type(name: "User") { fields { type ' +
      '{ ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } }';
    const answer = await t.graphql(deep);
    expectRefusedBeforeExecution(answer, /^Syntax Error: Query depth limit of 8 exceeded, found \d+\.$/);
    const shallow = await t.graphql('{ __type(name: "User") { fields { type { ofType { name } } } } }');
    expect(shallow.body.errors).toBeUndefined();
  });

  it('refuses more aliases than GRAPHQL_MAX_ALIASES and creates nothing', async () => {
    const user = await t.createUser();
    const mutation = (n: number) =>
      `mutation { ${Array.from({ length: n }, (_, i) => `a${i}: createItem(title: "alias ${i}") { id }`).join(' ')} }`;
    const answer = await t.graphql(mutation(16), {}, user.token);
    expectRefusedBeforeExecution(answer, /^Syntax Error: Aliases limit of 15 exceeded, found 16\.$/);
    expect(await t.sql('select id from items where owner_id = $1', [user.id])).toEqual([]);

    const allowed = await t.graphql(mutation(15), {}, user.token);
    expect(allowed.body.errors).toBeUndefined();
    expect(await t.sql('select id from items where owner_id = $1', [user.id])).toHaveLength(15);
  });

  it('refuses a query costing more than GRAPHQL_MAX_COST and creates nothing', async () => {
    const user = await t.createUser();
    const costly = `
      fragment F1 on Item { id title description owner_id }
      fragment F2 on Item { ...F1 ...F1 ...F1 ...F1 }
      fragment F3 on Item { ...F2 ...F2 ...F2 ...F2 }
      fragment F4 on Item { ...F3 ...F3 ...F3 ...F3 }
      mutation { createItem(title: "costly") { ...F4 } }`;
    const answer = await t.graphql(costly, {}, user.token);
    expectRefusedBeforeExecution(answer, /^Syntax Error: Query Cost limit of 5000 exceeded, found [\d.]+\.$/);
    expect(await t.sql('select id from items where owner_id = $1', [user.id])).toEqual([]);
  });
  it('refuses a document of more than GRAPHQL_MAX_SELECTIONS selections before validating it, signed in or not', async () => {
    // 200 one-field fragments, each spread once: the merging rule would compare every pair of them.
    const names = Array.from({ length: 200 }, (_, n) => `f${n}`);
    const spread = `{ ${names.map((name) => `...${name}`).join(' ')} } ${names.map((name) => `fragment ${name} on Query { __typename }`).join(' ')}`;
    for (const token of [undefined, su]) {
      const answer = await t.graphql(spread, {}, token);
      expect(answer.status).toBe(400);
      expect(answer.body.data).toBeUndefined();
      expect(answer.body.errors).toEqual([
        expect.objectContaining({
          message: 'The query has 400 selections (fields and fragments, as written); at most 150 are accepted',
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        }),
        // graphql-js's word that the rest of the document was not validated.
        expect.objectContaining({ message: 'Validation aborted.' }),
      ]);
    }
    const within = await t.graphql(`{ ${'__typename '.repeat(150)}}`);
    expect(within.body).toEqual({ data: { __typename: 'Query' } });
  });

  it("answers the explorer's schema query, the largest document a stranger sends", async () => {
    // As GraphiQL asks for the schema, with every option it may set.
    const query = getIntrospectionQuery({
      descriptions: true,
      inputValueDeprecation: true,
      schemaDescription: true,
      specifiedByUrl: true,
      directiveIsRepeatable: true,
      oneOf: true,
    });
    const answer = await t.graphql(query);
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.__schema.queryType).toMatchObject({ name: 'Query' });
  });
});
