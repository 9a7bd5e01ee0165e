import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api';
import { authProvider } from '../authProvider';
import { dataProvider } from './index';

/** The gateway's answers, in turn, and the requests the admin sent it. */
function gateway(...answers: { status?: number; body: unknown }[]) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => {
    const { status = 200, body } = answers.length > 1 ? answers.shift()! : answers[0];
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  const sent = () =>
    fetch.mock.calls.map(([url, init]) => ({
      url,
      authorization: (init.headers as Record<string, string>).Authorization,
      ...(JSON.parse(init.body as string) as { query: string; variables: Record<string, unknown> }),
    }));
  return { fetch, sent };
}

const refusal = (message: string, extensions: Record<string, unknown>) => ({
  body: { errors: [{ message, extensions }] },
});
const page = { pagination: { page: 1, perPage: 5 }, sort: { field: 'id', order: 'ASC' as const }, filter: {} };

beforeEach(() => localStorage.setItem('access_token', 'token-1'));
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the data provider', () => {
  it("fails a list and a write alike: the gateway's status, detail and code", async () => {
    gateway(
      refusal('Could not validate credentials', { status: 403, code: 'UNAUTHENTICATED' }),
      refusal('Not enough privileges', { status: 403, code: 'FORBIDDEN' }),
    );
    const list = await dataProvider.getList('clientes', page).catch((e: unknown) => e);
    const write = await dataProvider
      .update('clientes', { id: 'c1', data: { url: 'https://x' }, previousData: { id: 'c1' } })
      .catch((e: unknown) => e);
    for (const error of [list, write]) expect(error).toBeInstanceOf(ApiError);
    expect(list).toMatchObject({ status: 403, message: 'Could not validate credentials' });
    expect((list as ApiError).body).toEqual({ detail: 'Could not validate credentials', code: 'UNAUTHENTICATED' });
    expect(write).toMatchObject({ status: 403, message: 'Not enough privileges' });
    expect((write as ApiError).body).toEqual({ detail: 'Not enough privileges', code: 'FORBIDDEN' });
  });

  it('signs out on an unusable session, from a list as from a write, and keeps the session on a refusal', async () => {
    gateway(refusal('Could not validate credentials', { status: 403, code: 'UNAUTHENTICATED' }));
    const write = await dataProvider.create('items', { data: { title: 'A' } }).catch((e: unknown) => e);
    await expect(authProvider.checkError(write)).rejects.toThrow();
    expect(localStorage.getItem('access_token')).toBeNull();

    localStorage.setItem('access_token', 'token-2');
    const list = await dataProvider.getList('items', page).catch((e: unknown) => e);
    await expect(authProvider.checkError(list)).rejects.toThrow();
    expect(localStorage.getItem('access_token')).toBeNull();

    localStorage.setItem('access_token', 'token-3');
    gateway(refusal('Not enough privileges', { status: 403, code: 'FORBIDDEN' }));
    const refused = await dataProvider.getList('items', page).catch((e: unknown) => e);
    await expect(authProvider.checkError(refused)).resolves.toBeUndefined();
    expect(localStorage.getItem('access_token')).toBe('token-3');
  });

  it('names the fields a refusal concerns, in place of the client library’s words', async () => {
    gateway(
      {
        status: 400,
        body: {
          errors: [
            {
              message: 'Variable "$due_on" got invalid value "20261-03-20"; Expected type "Date".',
              extensions: { code: 'BAD_USER_INPUT' },
            },
          ],
        },
      },
      refusal('Cliente não encontrado', {
        status: 422,
        code: 'BAD_USER_INPUT',
        detail: [{ loc: ['body', 'client_id'], msg: 'Cliente não encontrado', type: 'value_error' }],
      }),
      refusal('Not enough privileges', {}),
    );
    const refused = (await dataProvider.create('items', { data: { title: 'A' } }).catch((e: unknown) => e)) as ApiError;
    expect(refused.status).toBe(400);
    expect(refused.message).not.toMatch(/Response not successful/);
    expect(refused.body.errors).toEqual({
      due_on: 'Valor em formato que o gateway não aceita: confira o que foi digitado',
    });
    const invalid = (await dataProvider
      .update('items', { id: 'i1', data: { title: 'A' }, previousData: { id: 'i1' } })
      .catch((e: unknown) => e)) as ApiError;
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual({ client_id: 'Cliente não encontrado' });
    const plain = (await dataProvider.delete('items', { id: 'i1' }).catch((e: unknown) => e)) as ApiError;
    expect(plain.body.errors).toBeUndefined();
  });

  it('sends every operation to /graphql with the session, and answers each as react-admin expects', async () => {
    const { sent } = gateway(
      { body: { data: { data: [{ id: 'i1', title: 'A', __typename: 'Item' }], total: { count: 6 } } } },
      { body: { data: { data: { id: 'i1', title: 'B', __typename: 'Item' } } } },
    );
    await expect(dataProvider.getList('items', { ...page, pagination: { page: 2, perPage: 5 } })).resolves.toEqual({
      data: [{ id: 'i1', title: 'A' }],
      total: 6,
    });
    await expect(
      dataProvider.update('items', { id: 'i1', data: { id: 'i1', title: 'B' }, previousData: { id: 'i1' } }),
    ).resolves.toEqual({ data: { id: 'i1', title: 'B' } });
    const [list, update] = sent();
    expect(list).toMatchObject({
      url: '/graphql',
      authorization: 'Bearer token-1',
      variables: { page: 1, perPage: 5 },
    });
    expect(list.query).toMatch(/^query allItems/);
    expect(update).toMatchObject({
      url: '/graphql',
      authorization: 'Bearer token-1',
      variables: { id: 'i1', title: 'B' },
    });
    expect(update.query).toMatch(/^mutation updateItem/);
  });

  it("runs a record action over the same path: the mutation's answer, or a failure in the same shape", async () => {
    const { sent } = gateway(
      { body: { data: { data: { id: 'r1', state: 'queued' } } } },
      refusal('Cliente já está sincronizando', { status: 409, code: 'CONFLICT' }),
    );
    await expect(dataProvider.recordAction('clientes', { id: 'c1', mutation: 'syncClient' })).resolves.toEqual({
      data: { id: 'r1', state: 'queued' },
    });
    const failed = await dataProvider
      .recordAction('clientes', { id: 'c1', mutation: 'syncClient' })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ApiError);
    expect((failed as ApiError).body).toEqual({ detail: 'Cliente já está sincronizando', code: 'CONFLICT' });
    const [action] = sent();
    expect(action).toMatchObject({ url: '/graphql', authorization: 'Bearer token-1', variables: { id: 'c1' } });
    expect(action.query).toContain('data: syncClient(id: $id)');
  });

  it('deletes many records one call each', async () => {
    const { sent } = gateway({ body: { data: { data: { id: 'x' } } } });
    await expect(dataProvider.deleteMany('items', { ids: ['a', 'b'] })).resolves.toEqual({ data: ['a', 'b'] });
    expect(sent().map(({ query, variables }) => [query.split('(')[0], variables.id])).toEqual([
      ['mutation deleteItem', 'a'],
      ['mutation deleteItem', 'b'],
    ]);
  });
});
