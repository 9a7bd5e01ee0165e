import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HeaderMap } from '@apollo/server';
import { adminDist } from '../../gateway/admin-files';
import { loadConfig } from '../../gateway/config';
import { compiledExecution } from '../../gateway/graphql/compiled-executor';
import type { Context } from '../../gateway/graphql/context';
import { graphqlSchema } from '../../gateway/graphql/schema';
import { createApolloServer } from '../../gateway/graphql/server';
import { adminAssets } from '../../gateway/http/admin-assets';
import { createLane } from '../../gateway/http/lane';
import { resolvers } from '../../gateway/resolvers';
import { call, startTestGatewayAsSuperuser, type TestGateway } from '../support/gateway';

/**
 * A query text Apollo has validated once is run without Apollo when it comes again (the lane's prepared path). These
 * tests show that the second answer is the first one, byte for byte, whatever the request, and that the prepared
 * path is taken only for what Apollo has already let through.
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
    const created = await t.graphql('mutation { createClient(url: "https://prepared.example") { id } }', {}, su);
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

describe('the prepared operations', () => {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  const schema = graphqlSchema(resolvers);
  const context = () => ({ caller: { ip: '127.0.0.1' } }) as unknown as Context;
  const ask = (apollo: ReturnType<typeof createApolloServer>, body: Record<string, unknown>) =>
    apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: 'POST',
        headers: new HeaderMap([['content-type', 'application/json']]),
        search: '',
        body,
      },
      context: async () => context(),
    });

  it('holds only what Apollo has validated and run, under the operation name the request gave', async () => {
    const execution = compiledExecution(schema, 1 << 20);
    const apollo = createApolloServer(config, pino({ level: 'silent' }), execution);
    await apollo.start();
    try {
      const request = { query: 'query Kind { __typename }' };
      expect(execution.runPrepared(request, context())).toBeUndefined();
      // Refused by validation: never held.
      const invalid = { query: '{ nothing }' };
      expect((await ask(apollo, invalid)).status).toBe(400);
      expect(execution.runPrepared(invalid, context())).toBeUndefined();

      await ask(apollo, request);
      expect(await execution.runPrepared(request, context())).toEqual({ data: { __typename: 'Query' } });
      // Apollo resolved the unnamed request to `Kind`; a request naming it is another request, not yet seen.
      expect(execution.runPrepared({ ...request, operationName: 'Kind' }, context())).toBeUndefined();

      const withVariable = {
        query: 'query Kind($on: Boolean!) { __typename @include(if: $on) }',
        variables: { on: true },
      };
      await ask(apollo, withVariable);
      expect(await execution.runPrepared(withVariable, context())).toEqual({ data: { __typename: 'Query' } });
      // Variables that do not fit are Apollo's to refuse, in graphql-js's words.
      expect(execution.runPrepared({ ...withVariable, variables: { on: 'yes' } }, context())).toBeUndefined();
    } finally {
      await apollo.stop();
    }
  });

  it('keeps at most the bytes it is given, dropping the least recently used', async () => {
    const execution = compiledExecution(schema, 64 * 1024);
    const apollo = createApolloServer(config, pino({ level: 'silent' }), execution);
    await apollo.start();
    try {
      const texts = Array.from({ length: 20 }, (_, i) => ({ query: `query Q${i} { __typename }` }));
      for (const text of texts) await ask(apollo, text);
      const held = texts.filter((text) => execution.runPrepared(text, context()) !== undefined);
      // Each held text counts 8 KiB: 64 KiB holds 7 of them, the last ones asked.
      expect(held.length).toBeLessThanOrEqual(7);
      expect(held.length).toBeGreaterThan(0);
      expect(held.at(-1)).toBe(texts.at(-1));
      expect(execution.runPrepared(texts[0], context())).toBeUndefined();
    } finally {
      await apollo.stop();
    }
  });
});

describe('the lane', () => {
  it("hands Apollo a text it has not validated yet, and runs a validated one without Apollo's pipeline", async () => {
    const log = pino({ level: 'silent' });
    const execution = compiledExecution(graphqlSchema(resolvers), 1 << 20);
    const apollo = createApolloServer(t.config, log, execution);
    await apollo.start();
    const throughApollo = vi.spyOn(apollo, 'executeHTTPGraphQLRequest');
    const assets = adminAssets(path.join(adminDist, 'assets'), t.config.ADMIN_FILE_CACHE_BYTES);
    const lane = createLane({
      config: t.config,
      services: t.gateway.services,
      apollo,
      execution,
      log,
      rest: [],
      assets,
    });
    const server = http.createServer((req, res) => void (lane(req, res) || res.writeHead(404).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const me = { query: 'query Me { me { email } }' };
    try {
      const first = await call(base, 'POST', '/graphql', { json: me, token: su });
      expect(first.body).toEqual({ data: { me: { email: expect.any(String) } } });
      expect(throughApollo).toHaveBeenCalledTimes(1);
      const again = await call(base, 'POST', '/graphql', { json: me, token: su });
      expect(again.text).toBe(first.text);
      expect(throughApollo).toHaveBeenCalledTimes(1);
      // Its errors are Apollo's to answer; a GET is Apollo's whatever its text.
      const signedOut = await call(base, 'POST', '/graphql', { json: me });
      expect(signedOut.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(throughApollo).toHaveBeenCalledTimes(2);
      await call(base, 'GET', `/graphql?query=${encodeURIComponent(me.query)}`, {
        token: su,
        headers: { 'apollo-require-preflight': 'true' },
      });
      expect(throughApollo).toHaveBeenCalledTimes(3);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await apollo.stop();
    }
  });
});
