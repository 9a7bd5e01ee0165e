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

  it('deletes many records one call each', async () => {
    await expect(dataProvider.deleteMany('items', { ids: ['a', 'b'] })).resolves.toEqual({ data: ['a', 'b'] });
    expect(remove.mock.calls.map(([resource, params]) => [resource, params.id])).toEqual([
      ['items', 'a'],
      ['items', 'b'],
    ]);
  });
});
