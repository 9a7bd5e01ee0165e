import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import {
  buildSchema,
  getNamedType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLSchema,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fieldValue,
  finishFuzzSuite,
  hostileString,
  objectText,
  prototypeName,
  startFuzzSuite,
  tokenFor,
  wellFormed,
  type FuzzTarget,
} from './support/fuzz';

/** Hostile values in every argument of every GraphQL operation (from schema/schema.graphql), and hostile documents. */
const RUNS_PER_OPERATION = Number(process.env.FUZZ_GRAPHQL_RUNS ?? 150);
const DOCUMENT_RUNS = Number(process.env.FUZZ_DOCUMENT_RUNS ?? 1000);
// With the REST suite's 5,000, at least 10,000 cases a run; smaller run counts (to replay quickly) lower it.
const MINIMUM_CASES = process.env.FUZZ_GRAPHQL_RUNS || process.env.FUZZ_DOCUMENT_RUNS ? 0 : 5_000;

let target: FuzzTarget;
let schema: GraphQLSchema;
let seed: number;

beforeAll(async () => {
  ({ target, seed } = await startFuzzSuite('GraphQL'));
  schema = buildSchema(readFileSync(path.join(__dirname, '..', '..', 'schema', 'schema.graphql'), 'utf8'));
});

afterAll(() => finishFuzzSuite('fuzz-graphql', 'fuzzGraphql', target, seed));

function selection(field: GraphQLField<unknown, unknown>): string {
  const type = getNamedType(field.type);
  return isObjectType(type) ? `{ ${Object.keys(type.getFields()).join(' ')} }` : '';
}

/**
 * What travels beside the document: an operation name (its own, none, a prototype's or a hostile one), a second
 * operation in the same document, and an automatic-persisted-query extension whose hash matches, does not, comes
 * without its query, or has an unknown version.
 */
const envelope = fc.record({
  operationName: fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: fc.constant('Fuzzed') },
    { weight: 1, arbitrary: prototypeName },
    { weight: 1, arbitrary: hostileString },
  ),
  secondOperation: fc.boolean(),
  persisted: fc.constantFrom('none', 'none', 'none', 'match', 'mismatch', 'hash-only', 'version'),
});

type Envelope = typeof envelope extends fc.Arbitrary<infer E> ? E : never;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The request body (as JSON text, so variables may hold numbers JSON.stringify cannot write). */
function requestBody(query: string, variables: string, e: Envelope) {
  const document = e.secondOperation ? `${query} query Second { __typename }` : query;
  const parts: string[] = [];
  if (e.persisted !== 'hash-only') parts.push(`"query":${JSON.stringify(document)}`);
  parts.push(`"variables":${variables}`);
  if (e.operationName !== undefined) parts.push(`"operationName":${JSON.stringify(e.operationName)}`);
  if (e.persisted !== 'none') {
    const sha256Hash = e.persisted === 'mismatch' ? sha256(`${document} `) : sha256(document);
    const version = e.persisted === 'version' ? 2 : 1;
    parts.push(`"extensions":{"persistedQuery":{"version":${version},"sha256Hash":"${sha256Hash}"}}`);
  }
  return `{${parts.join(',')}}`;
}

function graphqlCase(field: GraphQLField<unknown, unknown>) {
  return fc.record({
    token: tokenFor(),
    args: fc.tuple(...field.args.map((arg: GraphQLArgument) => fieldValue(target, arg.name))),
    inline: fc.boolean(),
    envelope,
  });
}

async function runGraphql(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>, index: number) {
  await fc.assert(
    fc.asyncProperty(graphqlCase(field), async (c) => {
      const given = field.args.map((arg, i) => [arg, c.args[i]] as const).filter(([, v]) => v !== undefined);
      let query: string;
      let variables = '{}';
      if (c.inline) {
        // Values written into the document itself: a JSON string is a GraphQL string; anything else may not parse.
        const args = given.map(([arg, v]) => `${arg.name}: ${v}`).join(', ');
        query = `${kind} Fuzzed { ${field.name}${args ? `(${args})` : ''} ${selection(field)} }`;
      } else {
        const declared = given.map(([arg]) => `$${arg.name}: ${String(arg.type)}`).join(', ');
        const args = given.map(([arg]) => `${arg.name}: $${arg.name}`).join(', ');
        const call = `${field.name}${args ? `(${args})` : ''} ${selection(field)}`;
        query = `${kind} Fuzzed${declared ? ` (${declared})` : ''} { ${call} }`;
        variables = objectText(given.map(([arg, v]) => [arg.name, v]));
      }
      const body = requestBody(query, variables, c.envelope);
      await target.check(`#${index} ${kind} ${field.name}`, () =>
        target.send('POST', '/graphql', body, 'application/json', target.bearer(c.token)),
      );
    }),
    { seed: seed + index, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
  );
}

/** Whole documents that are hostile in themselves: deep, wide, aliased, batched, or not GraphQL at all. */
const hostileDocument = fc.oneof(
  fc.integer({ min: 1, max: 15_000 }).map((n) => `{ ${'me { '.repeat(n)}id${' }'.repeat(n)} }`),
  fc.integer({ min: 1, max: 20_000 }).map((n) => '{'.repeat(n) + '}'.repeat(n)),
  fc
    .integer({ min: 1, max: 500 })
    .map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: me { id }`).join(' ')} }`),
  fc.integer({ min: 1, max: 5000 }).map((n) => `{ ${'__typename '.repeat(n)}}`),
  fc.integer({ min: 1, max: 300 }).map((n) => `{ allUsers(perPage: 1000) { ${'id '.repeat(n)}} }`),
  fc.integer({ min: 1, max: 200 }).map((n) => `query { ${'...F '.repeat(n)} } fragment F on Query { me { id } }`),
  fc.constant('fragment A on Query { ...B } fragment B on Query { ...A } { ...A }'),
  fc.constant('{ __schema { types { name fields { name } } } }'),
  fc.string({ maxLength: 300 }),
  hostileString,
);

async function runDocuments(): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      hostileDocument,
      tokenFor(),
      fc.constantFrom('single', 'batch', 'get'),
      async (query, token, how) => {
        const operation = { query };
        if (how === 'get') {
          const url = `/graphql?query=${encodeURIComponent(wellFormed(query).slice(0, 6000))}`;
          await target.check('GET document', async () => {
            const response = await fetch(target.t.url + url, {
              headers: { Authorization: `Bearer ${target.bearer(token) ?? ''}`, 'Apollo-Require-Preflight': 'true' },
            });
            return { status: response.status, text: await response.text() };
          });
          return;
        }
        const body = JSON.stringify(how === 'batch' ? Array.from({ length: 20 }, () => operation) : operation);
        await target.check(`${how} document`, () =>
          target.send('POST', '/graphql', body, 'application/json', target.bearer(token)),
        );
      },
    ),
    { seed, numRuns: DOCUMENT_RUNS, endOnFailure: true },
  );
}

describe('fuzzing the GraphQL API', () => {
  it('answers hostile arguments and documents without an internal error, and refusals change nothing', async () => {
    const fields = [
      ...Object.values(schema.getQueryType()!.getFields()).map((f) => ['query', f] as const),
      ...Object.values(schema.getMutationType()!.getFields()).map((f) => ['mutation', f] as const),
    ];
    for (const [i, [kind, field]] of fields.entries()) await runGraphql(kind, field, 1000 + i);
    await runDocuments();
    expect(target.cases).toBeGreaterThanOrEqual(MINIMUM_CASES);
  }, 900_000);
});
