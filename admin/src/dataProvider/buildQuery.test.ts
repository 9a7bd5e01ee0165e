import { buildSchema, introspectionFromSchema } from 'graphql';
import { defaultOptions, introspectSchema, type IntrospectionResult } from 'ra-data-graphql';
import { describe, expect, it } from 'vitest';
import sdl from '../../../schema/schema.graphql?raw';
import { buildQuery } from './buildQuery';

async function introspection(): Promise<IntrospectionResult> {
  const schema = introspectionFromSchema(buildSchema(sdl)).__schema;
  // The same options the app's provider gets: the default operation names over the committed schema.
  return introspectSchema(
    undefined as never,
    { ...defaultOptions.introspection, schema } as never,
  ) as unknown as Promise<IntrospectionResult>;
}

describe('buildQuery', () => {
  it('asks for one page (0-based) and its total in one operation', async () => {
    const build = buildQuery(await introspection());
    const query = build('GET_LIST', 'items', {
      pagination: { page: 2, perPage: 5 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(query.variables).toEqual({ page: 1, perPage: 5, filter: {} });
    expect(
      query.parseResponse({ data: { data: [{ id: '1', title: 'A', __typename: 'Item' }], total: { count: 6 } } }),
    ).toEqual({
      data: [{ id: '1', title: 'A' }],
      total: 6,
    });
  });

  it("sends only the mutation's arguments, as the schema declares them", async () => {
    const build = buildQuery(await introspection());
    const query = build('CREATE', 'admin', {
      data: { email: 'a@example.com', password: 'p4ssword!', confirm_password: 'p4ssword!', full_name: null },
    });
    expect(query.variables).toEqual({ email: 'a@example.com', password: 'p4ssword!', full_name: null });
    const update = build('UPDATE', 'clientes', {
      id: 'c1',
      data: { id: 'c1', url: 'https://x.example', __typename: 'Client' },
    });
    expect(update.variables).toEqual({ id: 'c1', url: 'https://x.example' });
  });
});
