import type { GraphQLSchema } from 'graphql';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { loadConfig } from '../../gateway/config';
import { compiledExecution } from '../../gateway/graphql/compiled-executor';
import type { Context } from '../../gateway/graphql/context';
import { graphqlSchema } from '../../gateway/graphql/schema';
import { createApolloServer } from '../../gateway/graphql/server';
import { resolvers } from '../../gateway/resolvers';
import { call, startTestGatewayAsSuperuser, type TestGateway } from '../support/gateway';

/**
 * Every GraphQL request goes through Apollo's request pipeline; an operation is compiled once it runs a second time.
 * These tests show that a text answers the same cold (first seen), warm (from the document store) and compiled, byte
 * for byte, whatever the request, with the same effect on the database, and that every plugin sees every request.
 */

let t: TestGateway;
let su: string;

beforeAll(async () => {
  ({ t, su } = await startTestGatewayAsSuperuser({ RATE_LIMIT_SIGNUP: '1' }));
});
afterAll(() => t?.close());

/** An answer without what differs between any two requests (the request id and the date). */
async function answer(body: unknown, headers: Record<string, string> = {}, token: string | undefined = su) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const reply = await call(t.url, 'POST', '/graphql', { raw, token, headers });
  const kept: [string, string][] = [];
  reply.headers.forEach((value, name) => {
    if (!['date', 'x-request-id'].includes(name)) kept.push([name, value]);
  });
  return { status: reply.status, headers: kept, text: reply.text };
}

let prepared = 0;
const CLIENT_BY_ID = 'query ClientById($id: ID!) { data: Client(id: $id) { id url hiper_token } }';

describe('a repeated query answers as it did the first time', () => {
  it.each([
    ['a query without errors', { query: '{ me { email is_superuser } }' }],
    ['named, with variables', { query: CLIENT_BY_ID, operationName: 'ClientById', variables: { id: undefined } }],
    ['a record that is not there', { query: CLIENT_BY_ID, variables: { id: '00000000-0000-4000-8000-000000000000' } }],
    ['an id that is no id', { query: CLIENT_BY_ID, variables: { id: 'not-an-id' } }],
    ['a variable missing', { query: CLIENT_BY_ID, variables: {} }],
    ['a variable of the wrong type', { query: CLIENT_BY_ID, variables: { id: { a: 1 } } }],
    ['two operations, one named', { query: 'query A { me { id } } query B { me { email } }', operationName: 'B' }],
    ['two operations, none named', { query: 'query A { me { id } } query B { me { email } }' }],
    ['an operation name naming none', { query: 'query A { me { id } }', operationName: 'C' }],
    ['a list and its count', { query: '{ allClients(perPage: 2) { id url } _allClientsMeta { count } }' }],
  ])('%s', async (_, request) => {
    // A URL is one client's: each case prepares its own.
    const created = await t.graphql(
      `mutation { createClient(url: "https://prepared-${++prepared}.example") { id } }`,
      {},
      su,
    );
    const body =
      'variables' in request && request.variables && 'id' in request.variables && !request.variables.id
        ? { ...request, variables: { id: created.body.data.createClient.id } }
        : request;
    const first = await answer(body);
    const second = await answer(body);
    const third = await answer(body);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
  });

  it('answers the same without a token, with a token that is no longer valid, and for other accepted types', async () => {
    const query = { query: '{ me { email } }' };
    for (const [headers, token] of [
      [{}, undefined],
      [{}, 'not-a-token'],
      [{ accept: 'application/graphql-response+json' }, su],
      [{ accept: 'application/json' }, su],
      [{ accept: '*/*' }, su],
      [{ accept: 'text/html' }, su],
    ] as const) {
      const first = await answer(query, headers, token);
      expect(await answer(query, headers, token)).toEqual(first);
    }
    const graphqlResponse = await answer(query, { accept: 'application/graphql-response+json' });
    expect(graphqlResponse.headers).toContainEqual([
      'content-type',
      'application/graphql-response+json; charset=utf-8',
    ]);
  });

  it('runs a mutation once per request, and answers its errors with their headers', async () => {
    const signup = (n: number) => ({
      query: 'mutation Signup($email: String!) { signup(email: $email, password: "password-1") { email } }',
      variables: { email: `prepared-${n}@example.com` },
    });
    const first = await answer(signup(1), {}, undefined);
    expect(JSON.parse(first.text)).toEqual({ data: { signup: { email: 'prepared-1@example.com' } } });
    const limited = await answer(signup(2), {}, undefined);
    const again = await answer(signup(3), {}, undefined);
    expect(JSON.parse(limited.text).errors[0].extensions).toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 429 });
    expect(limited.headers.find(([name]) => name === 'retry-after')).toBeTruthy();
    expect(again.status).toBe(limited.status);
    expect(JSON.parse(again.text)).toEqual(JSON.parse(limited.text));
    const made = await t.sql("select email from users where email like 'prepared-%' order by email");
    expect(made).toEqual([{ email: 'prepared-1@example.com' }]);
  });

  it('leaves persisted queries, GET requests and form bodies to Apollo, which answers them as before', async () => {
    const text = '{ me { email } }';
    await answer({ query: text });
    const withExtension = await answer({
      query: text,
      extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } },
    });
    expect(withExtension.status).toBe(400);
    expect(JSON.parse(withExtension.text).errors[0].message).toBe('provided sha does not match query');
    const byGet = await call(t.url, 'GET', `/graphql?query=${encodeURIComponent(text)}`, {
      token: su,
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(byGet.body).toEqual({ data: { me: { email: expect.any(String) } } });
    const simple = await call(t.url, 'POST', '/graphql', {
      raw: JSON.stringify({ query: text }),
      contentType: 'text/plain',
      token: su,
    });
    // A simple request a form could send: refused by Apollo's CSRF prevention, the text already known or not.
    expect(simple.status).toBe(400);
    expect(simple.text).toMatch(/Cross-Site Request Forgery/);
  });
});

/** Ids and times differ between two creations: the rest of an answer must not. */
const normalised = (text: string) =>
  text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z?/g, '<time>');

describe('generated requests', () => {
  const documents = [
    { text: 'query Me { me { email } }', name: 'Me', mutation: false, variables: {} },
    {
      text: 'mutation Add($title: String!) { createItem(title: $title) { title description } }',
      name: 'Add',
      mutation: true,
      variables: { title: 'generated' },
    },
    {
      text: 'query Items($n: Int) { allItems(perPage: $n) { title } } mutation Add($title: String!) { createItem(title: $title) { title } }',
      name: 'Add',
      mutation: true,
      variables: { title: 'generated', n: 1 },
    },
    {
      text: 'mutation { createItem(title: "anonymous") { title } }',
      name: undefined,
      mutation: true,
      variables: {},
    },
  ];
  const names = ['absent', 'empty', 'wrong', 'right'] as const;
  const variableKinds = ['right', 'wrong', 'missing', 'extra'] as const;
  let sent = 0;

  it('answer the same, cold, warm and compiled, and change the database only when they succeed', async () => {
    const items = async () => Number((await t.sql<{ n: string }>('select count(*) as n from items'))[0].n);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...documents),
        fc.constantFrom(...names),
        fc.constantFrom(...variableKinds),
        async (document, naming, variableKind) => {
          // A text of its own each time: the first request is the first time the server sees it.
          const query = `${document.text} # ${sent++}`;
          const operationName = { absent: undefined, empty: '', wrong: 'Nope', right: document.name }[naming];
          const right: Record<string, unknown> = document.variables;
          const variables = {
            right,
            wrong: Object.fromEntries(Object.keys(right).map((k) => [k, { not: 'a scalar' }])),
            missing: {},
            extra: { ...right, unexpected: 1 },
          }[variableKind];
          const body = { query, ...(naming === 'absent' ? {} : { operationName }), variables };
          const answers = [];
          for (let i = 0; i < 3; i++) {
            const before = await items();
            const reply = await answer(body);
            const written = (await items()) - before;
            const parsed = JSON.parse(reply.text);
            const succeeded = reply.status === 200 && !parsed.errors;
            // A request answered with an error changes nothing; a mutation that succeeded wrote one item.
            expect(written, reply.text).toBe(succeeded && document.mutation ? 1 : 0);
            answers.push({ status: reply.status, headers: reply.headers, text: normalised(reply.text), written });
          }
          expect(answers[1]).toEqual(answers[0]);
          expect(answers[2]).toEqual(answers[0]);
        },
      ),
      { numRuns: 60 },
    );
    // 540 requests, each between two counts on connections of their own: minutes on a busy machine, not a timing.
  }, 180_000);

  it('of a mutation named by an empty operationName: refused with a 400 and nothing written, every time', async () => {
    const text = 'mutation { createItem(title: "empty-name") { title } }';
    expect((await answer({ query: text })).status).toBe(200);
    const count = async () => (await t.sql("select 1 from items where title = 'empty-name'")).length;
    for (let i = 0; i < 3; i++) {
      const reply = await answer({ query: text, operationName: '' });
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.text).errors[0].extensions.code).toBe('OPERATION_RESOLUTION_FAILURE');
    }
    expect(await count()).toBe(1);
  });
});

describe("Apollo's pipeline", () => {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = graphqlSchema(resolvers());
  });
  const context = () => ({ caller: { ip: '127.0.0.1' } }) as unknown as Context;

  it('runs every plugin for every request, a repeated and compiled one included', async () => {
    const seen: string[] = [];
    const watching: ApolloServerPlugin<Context> = {
      async requestDidStart() {
        seen.push('start');
        return {
          async didResolveOperation() {
            seen.push('resolved');
          },
          async executionDidStart() {
            seen.push('executing');
          },
          async willSendResponse() {
            seen.push('sent');
          },
        };
      },
    };
    const execution = compiledExecution(schema, 8);
    const apollo = createApolloServer(config, pino({ level: 'silent' }), execution, [watching]);
    await apollo.start();
    try {
      for (let i = 0; i < 4; i++) {
        const answer = await apollo.executeHTTPGraphQLRequest({
          httpGraphQLRequest: {
            method: 'POST',
            headers: new HeaderMap([['content-type', 'application/json']]),
            search: '',
            body: { query: 'query Kind { __typename }' },
          },
          context: async () => context(),
        });
        expect(answer.body.kind === 'complete' && JSON.parse(answer.body.string)).toEqual({
          data: { __typename: 'Query' },
        });
      }
      expect(seen).toEqual(Array.from({ length: 4 }, () => ['start', 'resolved', 'executing', 'sent']).flat());
      // Compiled on its second run, not its first.
      expect(execution.compiled()).toBe(1);
    } finally {
      await apollo.stop();
    }
  });

  it('compiles an operation on its second run only, and keeps at most the number it is given', async () => {
    const execution = compiledExecution(schema, 3);
    const apollo = createApolloServer(config, pino({ level: 'silent' }), execution);
    await apollo.start();
    const ask = (query: string) =>
      apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: {
          method: 'POST',
          headers: new HeaderMap([['content-type', 'application/json']]),
          search: '',
          body: { query },
        },
        context: async () => context(),
      });
    try {
      for (let i = 0; i < 10; i++) await ask(`query Once${i} { __typename }`);
      expect(execution.compiled()).toBe(0);
      for (let i = 0; i < 5; i++) await ask(`query Once${i} { __typename }`);
      expect(execution.compiled()).toBe(3);
    } finally {
      await apollo.stop();
    }
  });
});
