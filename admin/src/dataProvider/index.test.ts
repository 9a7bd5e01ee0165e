import { describe, expect, it, vi } from 'vitest';

const remove = vi.fn(async (_resource: string, params: { id: string }) => ({ data: { id: params.id } }));
vi.mock('./graphqlProvider', () => ({ graphqlProvider: { delete: remove } }));

const { dataProvider, toHttpError } = await import('./index');

describe('the data provider', () => {
  it("carries the gateway's status, detail and code on its errors", () => {
    const error = toHttpError({
      body: {
        graphQLErrors: [
          { message: 'Could not validate credentials', extensions: { status: 403, code: 'UNAUTHENTICATED' } },
        ],
      },
    });
    expect(error.status).toBe(403);
    expect(error.message).toBe('Could not validate credentials');
    expect(error.body).toEqual({ detail: 'Could not validate credentials', code: 'UNAUTHENTICATED' });
    const refusal = toHttpError({
      body: { graphQLErrors: [{ message: 'Not enough privileges', extensions: { status: 403, code: 'FORBIDDEN' } }] },
    });
    expect(refusal.body.code).toBe('FORBIDDEN');
  });

  it('names the fields a refusal concerns, in place of the client library’s words', () => {
    const refused = toHttpError({
      message: 'Response not successful: Received status code 400',
      graphQLErrors: [],
      networkError: {
        statusCode: 400,
        result: {
          errors: [
            {
              message: 'Variable "$due_on" got invalid value "20261-03-20"; Expected type "Date".',
              extensions: { code: 'BAD_USER_INPUT' },
            },
          ],
        },
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.message).not.toMatch(/Response not successful/);
    expect(refused.body.errors).toEqual({
      due_on: 'Valor em formato que o gateway não aceita: confira o que foi digitado',
    });
    const invalid = toHttpError({
      graphQLErrors: [
        {
          message: 'Cliente não encontrado',
          extensions: {
            status: 422,
            code: 'BAD_USER_INPUT',
            detail: [{ loc: ['body', 'client_id'], msg: 'Cliente não encontrado', type: 'value_error' }],
          },
        },
      ],
    });
    expect(invalid.body.errors).toEqual({ client_id: 'Cliente não encontrado' });
    expect(toHttpError({ graphQLErrors: [{ message: 'Not enough privileges' }] }).body.errors).toBeUndefined();
  });

  it('deletes many records one call each', async () => {
    await expect(dataProvider.deleteMany('items', { ids: ['a', 'b'] })).resolves.toEqual({ data: ['a', 'b'] });
    expect(remove.mock.calls.map(([resource, params]) => [resource, params.id])).toEqual([
      ['items', 'a'],
      ['items', 'b'],
    ]);
  });
});
