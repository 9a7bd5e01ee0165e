import { selectionOf } from '../support/declarations';
import { clientResource } from '../../gateway/resources/client.resource';
import type { GraphQLSchema } from 'graphql';
import v8 from 'node:v8';
import vm from 'node:vm';
import { parse, validate, specifiedRules, type DocumentNode, type Token } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { describe, expect, it } from 'vitest';
import { beforeAll } from 'vitest';
import { loadConfig } from '../../gateway/config';
import { COMPILED_OPERATION_BYTES } from '../../gateway/graphql/compiled-executor';
import { graphqlSchema } from '../../gateway/graphql/schema';
import { DOCUMENT_BYTES_PER_TOKEN, limitRules } from '../../gateway/graphql/server';
import { resolvers } from '../../gateway/resolvers';
import { loadResources } from '../../gateway/resources';

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
  await loadResources();
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
