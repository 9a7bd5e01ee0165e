import { buildSchema, print, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import sdl from '../../../schema/schema.graphql?raw';
import { buildQuery } from './buildQuery';

const schema = buildSchema(sdl);
const build = buildQuery();

/** The document is one the gateway's schema accepts. */
const valid = (query: ReturnType<typeof build>['query']) => expect(validate(schema, query)).toEqual([]);

describe('buildQuery', () => {
  it('asks for one page (0-based) and its total in one operation, selecting every field of the type', () => {
    const query = build('GET_LIST', 'items', {
      pagination: { page: 2, perPage: 5 },
      sort: { field: 'id', order: 'ASC' },
      filter: { q: 'caneta' },
    });
    valid(query.query);
    const text = print(query.query);
    expect(text).toContain('data: allItems(');
    expect(text).toContain('total: _allItemsMeta(');
    expect(text.match(/\{\s*id\s+title\s+description\s+owner_id\s*\}/)).not.toBeNull();
    // id is not @sortable: the gateway's own order applies.
    expect(query.variables).toEqual({ page: 1, perPage: 5, filter: { q: 'caneta' } });
    expect(
      query.parseResponse({ data: { data: [{ id: '1', title: 'A', __typename: 'Item' }], total: { count: 6 } } }),
    ).toEqual({ data: [{ id: '1', title: 'A' }], total: 6 });
  });

  it('sorts only by a field the schema marks @sortable', () => {
    const sorted = build('GET_LIST', 'clientes', {
      pagination: { page: 1, perPage: 5 },
      sort: { field: 'url', order: 'DESC' },
      filter: {},
    });
    expect(sorted.variables).toEqual({ page: 0, perPage: 5, filter: {}, sortField: 'url', sortOrder: 'DESC' });
    const unsortable = build('GET_LIST', 'clientes', {
      pagination: { page: 1, perPage: 5 },
      sort: { field: 'hiper_token', order: 'ASC' },
      filter: {},
    });
    expect(unsortable.variables).not.toHaveProperty('sortField');
  });

  it("sends only the mutation's arguments, as the schema declares them", () => {
    const create = build('CREATE', 'admin', {
      data: { email: 'a@example.com', password: 'p4ssword!', confirm_password: 'p4ssword!', full_name: null },
    });
    valid(create.query);
    expect(create.variables).toEqual({ email: 'a@example.com', password: 'p4ssword!', full_name: null });
    const update = build('UPDATE', 'clientes', {
      id: 'c1',
      data: { id: 'c1', url: 'https://x.example', __typename: 'Client' },
    });
    valid(update.query);
    expect(update.variables).toEqual({ id: 'c1', url: 'https://x.example' });
  });

  it('reads one record, deletes one, and picks several by id', () => {
    const calls: [string, { id?: string; ids?: string[] }][] = [
      ['GET_ONE', { id: 'u1' }],
      ['DELETE', { id: 'u1' }],
      ['GET_MANY', { ids: ['u1', 'u2'] }],
    ];
    for (const [fetchType, params] of calls) {
      const query = build(fetchType, 'admin', params);
      valid(query.query);
    }
    expect(build('GET_MANY', 'admin', { ids: ['u1', 'u2'] }).variables).toEqual({
      page: 0,
      perPage: 2,
      filter: { ids: ['u1', 'u2'] },
    });
  });
});
