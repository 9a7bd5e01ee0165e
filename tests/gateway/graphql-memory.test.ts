import { selectionOf } from '../support/declarations';
import { clientResource } from '../../gateway/clients/client.resource';
import type { GraphQLSchema } from 'graphql';
import { createRequire } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { parse, validate, specifiedRules, type DocumentNode, type Token } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { describe, expect, it, beforeAll } from 'vitest';
import { loadConfig } from '../../gateway/config';
import { COMPILED_OPERATION_BYTES } from '../../gateway/graphql/compiled-executor';
import { buildContext, type ContextRequest } from '../../gateway/graphql/context';
import type { Services } from '../../gateway/services';
import { graphqlSchema } from '../../gateway/graphql/schema';
import { DOCUMENT_BYTES_PER_TOKEN, limitRules } from '../../gateway/graphql/server';
import { resolvers } from '../../gateway/resolvers';

/**
 * The bounds of the GraphQL caches rest on two measured figures: what a parsed document holds per token, and what
 * the largest operation the limits let through holds once compiled (its document included). Measured here on the
 * heap, after collections, for the shapes an attacker would pick.
 */
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
let schema: GraphQLSchema;
beforeAll(async () => {
  schema = graphqlSchema(resolvers());
});
const CLIENT = selectionOf(clientResource);

/** The heap the values made by `make` hold, per value, made `count` times and kept alive. */
function retained<T>(count: number, make: (i: number) => T): { perValue: number; values: T[] } {
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const values = Array.from({ length: count }, (_, i) => make(i));
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  return { perValue: (after - before) / count, values };
}

const tokenCount = (document: DocumentNode) => {
  let n = 0;
  for (let token: Token | null | undefined = document.loc?.startToken; token; token = token.next) n++;
  return n;
};

/** Texts near the parser's token bound, of the shapes that hold the most per token. */
const shapes: Record<string, (i: number) => string> = {
  'short fields': (i) => `{ a${i}: __typename ${'__typename '.repeat(config.GRAPHQL_MAX_TOKENS - 10)} }`,
  'aliased lists with arguments': (i) =>
    `{ ${Array.from({ length: 180 }, (_, n) => `l${i}_${n}: allClients(page: ${n}, perPage: 1, filter: { q: "x" }) { id }`).join(' ')} }`,
  'fragments and variables': (i) =>
    `query Q${i}($p: Int) { ...F } ${Array.from({ length: 240 }, (_, n) => `fragment F${n === 0 ? '' : n} on Query { allItems(perPage: $p) { id title } }`).join(' ')}`,
  'nested selections': (i) => `{ ${Array.from({ length: 400 }, (_, n) => `m${i}_${n}: me { id email }`).join(' ')} }`,
};

describe('a parsed document', () => {
  it.each(Object.entries(shapes))(
    `(%s) holds at most ${DOCUMENT_BYTES_PER_TOKEN} bytes per token beside its text`,
    (_, shape) => {
      const { perValue, values } = retained(40, (i) => parse(shape(i), { maxTokens: config.GRAPHQL_MAX_TOKENS }));
      const tokens = tokenCount(values[0]);
      const text = values[0].loc!.source.body.length;
      const perToken = (perValue - 2 * text) / tokens;
      console.log(
        `${_}: ${tokens} tokens, ${text} characters, ${Math.round(perValue)} bytes, ${perToken.toFixed(0)} per token`,
      );
      expect(tokens).toBeGreaterThan(2000);
      expect(perToken).toBeLessThanOrEqual(DOCUMENT_BYTES_PER_TOKEN);
    },
  );
});

describe('a compiled operation', () => {
  it(`holds at most ${COMPILED_OPERATION_BYTES} bytes with its document, the largest the limits let through`, () => {
    // As many aliased full lists as the alias limit allows, as deep as fragments go, within the token and selection
    // bounds: one fragment spread in each (its own fragment each compiles to the same, and passes no more selections).
    const text = (i: number) =>
      `query Big${i} { ${Array.from({ length: config.GRAPHQL_MAX_ALIASES }, (_, n) => `a${n}: allClients(page: ${n}, perPage: 1) { ...C }`).join(' ')} } fragment C on Client { ${CLIENT} ${CLIENT} }`;
    const first = parse(text(0), { maxTokens: config.GRAPHQL_MAX_TOKENS });
    expect(validate(schema, first, [...specifiedRules, ...limitRules(config)])).toEqual([]);
    const { perValue } = retained(20, (i) => {
      const document = parse(text(i), { maxTokens: config.GRAPHQL_MAX_TOKENS });
      const compiled = compileQuery(schema, document, `Big${i}`);
      if (!isCompiledQuery(compiled)) throw new Error('not compiled');
      return compiled;
    });
    expect(perValue).toBeLessThanOrEqual(COMPILED_OPERATION_BYTES);
    // The default number kept stays a small part of the heap `npm start` allows (96 MB).
    expect(config.GRAPHQL_COMPILED_OPERATIONS * COMPILED_OPERATION_BYTES).toBeLessThanOrEqual(16 * 1024 * 1024);
  });
});

describe("a request's GraphQL context", () => {
  it('keeps the caller and its Authorization header, not the HTTP request', async () => {
    const asked: (string | undefined)[] = [];
    const services = {
      auth: { authenticate: async (authorization?: string) => (asked.push(authorization), { id: 'u1' }) },
    } as unknown as Services;
    const make = () => {
      // What Express hands the context: the request, which reaches the response, the socket and every handler's state.
      const request: ContextRequest & { state: number[] } = {
        ip: '203.0.113.9',
        headers: { authorization: 'Bearer abc.def.ghi', 'user-agent': 'probe' },
        state: Array.from({ length: 10_000 }, (_, i) => i),
      };
      return { context: buildContext(request, services), request: new WeakRef(request) };
    };
    const { context, request } = make();
    // A WeakRef's target lives until the job that made it ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    gc();
    expect(request.deref()).toBeUndefined();
    expect(context.caller).toEqual({ ip: '203.0.113.9' });
    await expect(context.user()).resolves.toEqual({ id: 'u1' });
    await context.user();
    expect(asked).toEqual(['Bearer abc.def.ghi']);
  });
});

describe("Apollo's request context for the executor", () => {
  // patches/@apollo+server+*.patch: the context Apollo makes for each request it hands to the gateway executor.
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const file = path.join(path.dirname(require.resolve('@apollo/server')), 'utils/makeGatewayGraphQLRequestContext.js');
  const { makeGatewayGraphQLRequestContext } = require(file) as {
    makeGatewayGraphQLRequestContext: (
      context: object,
      server: object,
      internals: object,
    ) => {
      response: { http: { status?: number; headers: { get(name: string): string | null } } };
    };
  };
  const oldGeneration = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;
  const requestContext = (payload: number[]) => ({
    request: { query: '{ a }', http: { method: 'POST', search: '', headers: new Map() } },
    response: { http: { headers: new Map([['x-a', '1']]), status: undefined as number | undefined } },
    contextValue: { payload },
  });

  it('reads and sets the status of the response it stands for', () => {
    const context = requestContext([]);
    const made = makeGatewayGraphQLRequestContext(context, {}, {});
    expect(made.response.http.headers.get('x-a')).toBe('1');
    made.response.http.status = 201;
    expect(context.response.http.status).toBe(201);
    context.response.http.status = 202;
    expect(made.response.http.status).toBe(202);
  });

  it('is freed young once its request is done: requests are not promoted to the old generation', () => {
    gc();
    gc();
    const before = oldGeneration();
    // The last request's context, kept to the end of the loop as a request in flight would be.
    const kept: { last?: unknown } = {};
    // 400 requests of 80 kB each: 32 MB, several times the young generation.
    for (let i = 0; i < 400; i++)
      kept.last = makeGatewayGraphQLRequestContext(requestContext(new Array(10_000).fill(i)), {}, {});
    expect(kept.last).toBeDefined();
    kept.last = undefined;
    const minor = gc as unknown as (options: { type: 'minor' }) => void;
    minor({ type: 'minor' });
    minor({ type: 'minor' });
    const promoted = oldGeneration() - before;
    console.log(`old generation grew by ${(promoted / 1024 / 1024).toFixed(1)} MB over 400 requests of 80 kB`);
    expect(promoted).toBeLessThan(4 * 1024 * 1024);
  });
});
