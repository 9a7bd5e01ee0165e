import type { GraphQLSchema } from 'graphql';
import { describe, expect, it, beforeAll } from 'vitest';
import { ApolloServer } from '@apollo/server';
import { parse, validate } from 'graphql';
import { loadConfig } from '../../gateway/config';
import { graphqlSchema } from '../../gateway/graphql/schema';
import { searchCostRule } from '../../gateway/graphql/search-cost';
import { resolvers } from '../../gateway/resolvers';

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = graphqlSchema(resolvers());
});
const { GRAPHQL_MAX_SEARCHES } = loadConfig({});

/** The errors of the search cost rule alone (at GRAPHQL_MAX_SEARCHES unless told), as their messages. */
const refusals = (query: string, maxSearches = GRAPHQL_MAX_SEARCHES) =>
  validate(schema, parse(query), [searchCostRule({ maxSearches })]).map((error) => error.message);

const refusal = (searches: number, max = GRAPHQL_MAX_SEARCHES) =>
  `The query searches ${searches} ${searches === 1 ? 'time' : 'times'} (fields whose filter sets q); ` +
  `at most ${max} ${max === 1 ? 'search is' : 'searches are'} accepted per request`;

const aliasedCounts = (n: number) =>
  `{ ${Array.from({ length: n }, (_, i) => `s${i}: _allClientsMeta(filter: { q: "store-${i}" }) { count }`).join(' ')} }`;

describe('the search cost rule', () => {
  it('accepts 2 searches per request unless GRAPHQL_MAX_SEARCHES says otherwise', () => {
    expect(GRAPHQL_MAX_SEARCHES).toBe(2);
    expect(loadConfig({ GRAPHQL_MAX_SEARCHES: '5' }).GRAPHQL_MAX_SEARCHES).toBe(5);
  });

  it('refuses 15 aliased searched counts in one request, naming the limit', () => {
    const errors = validate(schema, parse(aliasedCounts(15)), [searchCostRule({ maxSearches: 2 })]);
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toBe(
      'The query searches 15 times (fields whose filter sets q); at most 2 searches are accepted per request',
    );
    expect(errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(refusals(aliasedCounts(2))).toEqual([]);
    expect(refusals(aliasedCounts(3))).toEqual([refusal(3)]);
  });

  it('takes its limit from the options', () => {
    expect(refusals(aliasedCounts(15), 15)).toEqual([]);
    expect(refusals(aliasedCounts(16), 15)).toEqual([refusal(16, 15)]);
    expect(refusals(aliasedCounts(1), 0)).toEqual([refusal(1, 0)]);
    expect(refusals(aliasedCounts(2), 1)).toEqual([refusal(2, 1)]);
  });

  it("accepts the admin's list operation, a page and its total read with the same filter variable", () => {
    // As admin/src/dataProvider/operations.ts writes it for every resource.
    const list = `query allClients($page: Int, $perPage: Int, $sortField: String, $sortOrder: String, $filter: ListFilter) {
      data: allClients(page: $page, perPage: $perPage, sortField: $sortField, sortOrder: $sortOrder, filter: $filter) {
        id url
      }
      total: _allClientsMeta(page: $page, perPage: $perPage, sortField: $sortField, sortOrder: $sortOrder, filter: $filter) {
        count
      }
    }`;
    expect(refusals(list)).toEqual([]);
    expect(refusals(list, 1)).toEqual([refusal(2, 1)]);
  });

  it('counts a filter given by a variable, and q given by a variable, as searches', () => {
    const query = `query ($f: ListFilter, $q: String) {
      a: allItems(filter: $f) { id }
      b: _allItemsMeta(filter: { q: $q }) { count }
      c: allUsers(filter: { q: $q, ids: [] }) { id }
    }`;
    expect(refusals(query)).toEqual([refusal(3)]);
  });

  it('counts an empty q, which matches every row, as a search', () => {
    expect(
      refusals(
        '{ a: allClients(filter: { q: "" }) { id } b: allItems(filter: { q: "" }) { id } c: allUsers(filter: { q: "" }) { id } }',
      ),
    ).toEqual([refusal(3)]);
  });

  it('does not count lists without q: no filter, a null filter, a null q, ids only, or a filter that has no q', () => {
    const query = `query ($mail: MailJobFilter) {
      a: allClients { id }
      b: _allClientsMeta(filter: null) { count }
      c: allItems(filter: { q: null }) { id }
      d: allUsers(filter: { ids: ["00000000-0000-4000-8000-000000000000"] }) { id }
      e: allMailJobs(filter: $mail) { id }
      f: _allMailJobsMeta(filter: { state: failed }) { count }
      g: allClients(filter: { q: "one" }) { id }
      h: allItems(filter: { q: "two" }) { id }
    }`;
    expect(refusals(query)).toEqual([]);
    expect(refusals(query, 1)).toEqual([refusal(2, 1)]);
  });

  it('counts searches in fragments where they are spread, inline fragments and aliases included', () => {
    const query = `
      fragment Clients on Query { a: _allClientsMeta(filter: { q: "a" }) { count } }
      fragment Both on Query { ...Clients b: allItems(filter: { q: "b" }) { id } }
      query {
        ...Both
        ...Clients
        ... on Query { c: allUsers(filter: { q: "c" }) { id } ... { d: _allUsersMeta(filter: { q: "d" }) { count } } }
      }`;
    expect(refusals(query)).toEqual([refusal(5)]);
    expect(refusals(query, 5)).toEqual([]);
  });

  it('counts nested spreads without walking each one, and stops at a fragment that spreads itself', () => {
    // 4^12 (16,777,216) spreads of one search: counted once per fragment, in no time.
    const levels = Array.from(
      { length: 12 },
      (_, i) => `fragment F${i + 1} on Query { ...F${i} ...F${i} ...F${i} ...F${i} }`,
    ).join('\n');
    const nested = `fragment F0 on Query { s: _allClientsMeta(filter: { q: "x" }) { count } }\n${levels}\n{ ...F12 }`;
    const started = performance.now();
    expect(refusals(nested)).toEqual([refusal(4 ** 12)]);
    expect(performance.now() - started).toBeLessThan(1000);

    const cycle = `
      fragment A on Query { a: allClients(filter: { q: "a" }) { id } ...B }
      fragment B on Query { b: allItems(filter: { q: "b" }) { id } ...A }
      { ...A }`;
    expect(refusals(cycle, 0)).toEqual([refusal(2, 0)]);
  });

  it('checks each operation of a document on its own', () => {
    const document = `
      query One { a: allClients(filter: { q: "a" }) { id } b: allItems(filter: { q: "b" }) { id } }
      query Two { c: allUsers(filter: { q: "c" }) { id } d: _allUsersMeta(filter: { q: "d" }) { count } }`;
    expect(refusals(document)).toEqual([]);
    const third = `${document}\nquery Three { e: allClients(filter: { q: "e" }) { id } ...on Query { f: allItems(filter: { q: "f" }) { id } g: allUsers(filter: { q: "g" }) { id } } }`;
    expect(refusals(third)).toEqual([refusal(3)]);
  });

  it('is answered by Apollo as a validation failure, with HTTP 400, before any resolver runs', async () => {
    const apollo = new ApolloServer({ schema, validationRules: [searchCostRule({ maxSearches: 2 })] });
    await apollo.start();
    try {
      const answer = await apollo.executeOperation({ query: aliasedCounts(15) });
      expect(answer.http.status).toBe(400);
      expect(answer.body.kind === 'single' && answer.body.singleResult).toEqual({
        errors: [
          {
            message: refusal(15),
            extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
          },
        ],
      });
    } finally {
      await apollo.stop();
    }
  });
});
