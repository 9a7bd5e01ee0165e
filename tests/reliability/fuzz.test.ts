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
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { recordFigures } from './support/figures';
import { startNuvemshopStandIn, type NuvemshopStandIn } from './support/nuvemshop-stand-in';

/**
 * Hostile values in every REST body, query and path parameter and every GraphQL argument. No answer may be a 5xx or
 * show a stack trace, and a refused request (4xx) must leave every table as it was.
 */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);
const REST_RUNS = Number(process.env.FUZZ_REST_RUNS ?? 180);
const GRAPHQL_RUNS = Number(process.env.FUZZ_GRAPHQL_RUNS ?? 140);
const DOCUMENT_RUNS = Number(process.env.FUZZ_DOCUMENT_RUNS ?? 400);
const MINIMUM_CASES = 10_000;

const ONE_MB = 'x'.repeat(1024 * 1024);
const STACK_TRACE = /\bat \S+ \(?[\w/.-]+:\d+:\d+\)?|node_modules|\/work\/|\.ts:\d+:\d+/;

let t: TestGateway;
let nuvemshop: NuvemshopStandIn;
let db: Client;
let schema: GraphQLSchema;
let superuser: string;
let user: string;
let knownIds: string[];
let cases = 0;
let refused = 0;
/** The tables as the last case left them. */
let tables: Record<string, string>;

const TABLES = ['users', 'deleted_users', 'items', 'clients', 'authorization_codes'];
const SNAPSHOT = TABLES.map(
  (table) => `select '${table}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from ${table} x`,
).join(' union all ');

async function snapshot(): Promise<Record<string, string>> {
  const rows = (await db.query<{ t: string; h: string }>(SNAPSHOT)).rows;
  return Object.fromEntries(rows.map((r) => [r.t, r.h]));
}

beforeAll(async () => {
  nuvemshop = await startNuvemshopStandIn();
  t = await startTestGateway({ NUVEMSHOP_TOKEN_URL: nuvemshop.tokenUrl });
  db = new Client({ connectionString: t.databaseUrl });
  await db.connect();
  schema = buildSchema(readFileSync(path.join(__dirname, '..', '..', 'schema', 'schema.graphql'), 'utf8'));
  superuser = await t.superuserToken();
  const someone = await t.createUser();
  user = someone.token;
  const item = await t.request('POST', '/api/v1/items/', { token: user, json: { title: 'fuzz item' } });
  const client = await t.request('POST', '/api/v1/clients/', { token: user, json: { url: 'https://fuzz.example' } });
  const victim = await t.createUser();
  knownIds = [someone.id, victim.id, item.body.id, client.body.id];
  tables = await snapshot();
  console.log(`fuzz seed ${SEED} (replay with FUZZ_SEED=${SEED})`);
});

afterAll(async () => {
  recordFigures('fuzz', { fuzzCases: cases, fuzzSeed: SEED, fuzzRefused: refused });
  await db?.end();
  await t?.close();
  await nuvemshop?.close();
});

// ---- hostile values -------------------------------------------------------------------------------------------

/** Replaces lone surrogates, which cannot be put in a URL. */
const wellFormed = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

const PAYLOADS = [
  '',
  ' ',
  '\u0000',
  '\u202e\u0000\uffff',
  'null',
  'undefined',
  'NaN',
  "' OR '1'='1",
  "'; drop table users; --",
  '" OR 1=1 --',
  "1' union select email, hashed_password from users --",
  '%',
  '_',
  '\\',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(document.cookie)>',
  '"><svg/onload=alert(1)>',
  '{{7*7}}',
  '${7*7}',
  '../../../../etc/passwd',
  '%00',
  '%2e%2e%2f',
  'admin@example.com',
  'a@b',
  'Ω≈ç√∫˜µ≤≥÷',
  '🙂'.repeat(200),
  'é'.repeat(300),
  'a'.repeat(255),
  'a'.repeat(256),
  'a'.repeat(10_000),
  '00000000-0000-0000-0000-000000000000',
  '__proto__',
  'constructor',
];

const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PAYLOADS) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 300 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 100 }) },
  { weight: 1, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.uuid() },
);

/** A hostile value as JSON text, so numbers JSON.stringify cannot write (1e400, 2^64 + 1) can be sent too. */
const hostileJson: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: hostileString.map((s) => JSON.stringify(s)) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'null',
      'true',
      'false',
      '0',
      '-1',
      '-0',
      '1.5',
      '1e400',
      '-1e400',
      '1e-400',
      '9007199254740993',
      '18446744073709551617',
      '123456789012345678901234567890123456789',
      '[]',
      '{}',
      '[null]',
      '{"$ne": null}',
      '{"$gt": ""}',
      '{"__proto__": {"isSuperuser": true, "is_superuser": true}}',
      '{"constructor": {"prototype": {"polluted": true}}}',
    ),
  },
  { weight: 2, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 20_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 10_000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)) },
  { weight: 1, arbitrary: fc.constant(JSON.stringify(ONE_MB)) },
);

const emails = fc.constantFrom('someone@example.com', 'Other.Person@Example.org', 'admin@example.com');
/** Well-formed values by field name, so that hostile values also reach the checks behind the first one. */
const VALID: Record<string, fc.Arbitrary<unknown>> = {
  email: emails,
  username: emails,
  password: fc.constantFrom('a-valid-password', 'another-valid-one'),
  new_password: fc.constantFrom('a-valid-password', 'another-valid-one'),
  current_password: fc.constant('not-the-current-password'),
  full_name: fc.string({ maxLength: 40 }),
  title: fc.string({ minLength: 1, maxLength: 40 }),
  description: fc.string({ maxLength: 40 }),
  url: fc.webUrl(),
  hiper_token: fc.string({ maxLength: 64 }),
  nuvemshop_token: fc.string({ maxLength: 64 }),
  nuvemshop_store_id: fc.nat({ max: 1_000_000_000 }),
  hiper_sync_update_image: fc.boolean(),
  hiper_sync_update_dimensions: fc.boolean(),
  is_active: fc.boolean(),
  is_superuser: fc.boolean(),
  token: fc.string({ minLength: 1, maxLength: 64 }),
  code: fc.string({ minLength: 1, maxLength: 40 }),
  skip: fc.nat(200),
  limit: fc.nat(200),
  page: fc.nat(50),
  perPage: fc.nat(100),
  sortField: fc.constantFrom('email', 'title', 'url', 'created_at', 'full_name', 'nuvemshop_store_id'),
  sortOrder: fc.constantFrom('ASC', 'DESC', 'asc'),
  filter: fc.record({ q: fc.string({ maxLength: 20 }), ids: fc.array(fc.uuid(), { maxLength: 3 }) }, { requiredKeys: [] }),
};
const validId = () => fc.oneof(fc.constantFrom(...knownIds), fc.uuid());
const validFor = (name: string) => (name === 'id' ? validId() : (VALID[name] ?? fc.string({ maxLength: 20 })));

/** One field's value as JSON text: valid, hostile, or (undefined) left out. */
const fieldValue = (name: string) =>
  fc.oneof(
    { weight: 2, arbitrary: validFor(name).map((v) => JSON.stringify(v)) },
    { weight: 3, arbitrary: hostileJson },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

const objectText = (entries: [string, string | undefined][]) =>
  `{${entries
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
    .join(',')}}`;

const tokenFor = () =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant('superuser') },
    { weight: 2, arbitrary: fc.constant('user') },
    { weight: 1, arbitrary: fc.constant('none') },
    { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 200 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'x')) },
  );
const bearer = (choice: string) =>
  choice === 'superuser' ? superuser : choice === 'user' ? user : choice === 'none' ? undefined : choice || 'x';

// ---- checks ---------------------------------------------------------------------------------------------------

async function send(
  method: string,
  urlPath: string,
  body: string | undefined,
  contentType: string | undefined,
  token: string | undefined,
) {
  const headers: Record<string, string> = {};
  if (contentType) headers['Content-Type'] = contentType;
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(t.url + urlPath, { method, headers, body });
  return { status: response.status, text: await response.text() };
}

/** Sends one case and checks it; a refused case must not have changed any table. */
async function check(label: string, request: () => Promise<{ status: number; text: string }>): Promise<void> {
  const { status, text } = await request();
  cases++;
  expect(status, `${label}: ${text.slice(0, 500)}`).toBeLessThan(500);
  expect(text, label).not.toMatch(STACK_TRACE);
  let graphqlRefused = false;
  if (text.startsWith('{')) {
    const body = JSON.parse(text);
    for (const error of body.errors ?? []) {
      expect(error.extensions?.stacktrace, label).toBeUndefined();
      expect(error.extensions?.code, `${label}: ${error.message}`).not.toBe('INTERNAL_SERVER_ERROR');
      graphqlRefused = true;
    }
  }
  // Cases run one at a time, so the tables as the previous case left them are the tables before this one.
  const after = await snapshot();
  if (status >= 400 || graphqlRefused) {
    refused++;
    expect(after, `${label} was refused (${status}) but changed a table`).toEqual(tables);
  }
  tables = after;
}

// ---- REST -----------------------------------------------------------------------------------------------------

interface RestOperation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
  form: boolean;
}

async function restOperations(): Promise<RestOperation[]> {
  const doc = (await t.request('GET', '/api/v1/openapi.json')).body;
  const resolve = (schemaRef: any) =>
    schemaRef?.$ref ? doc.components.schemas[schemaRef.$ref.split('/').pop()] : schemaRef;
  const operations: RestOperation[] = [];
  for (const [p, methods] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      const params: any[] = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      const form = 'application/x-www-form-urlencoded' in content;
      const bodySchema = resolve((content['application/json'] ?? content['application/x-www-form-urlencoded'])?.schema);
      operations.push({
        method: method.toUpperCase(),
        path: p,
        pathParams: params.filter((x) => x.in === 'path').map((x) => x.name),
        queryParams: params.filter((x) => x.in === 'query').map((x) => x.name),
        bodyFields: Object.keys(bodySchema?.properties ?? {}),
        form,
      });
    }
  }
  return operations;
}

const pathValue = (name: string) =>
  fc.oneof(
    validFor(name).map(String),
    hostileString.map((s) => s.slice(0, 4000)),
    fc.constantFrom('', '.', '..', '%', '%zz', 'null', '-1', '1e400'),
  );

function restCase(op: RestOperation) {
  const bodyFields = op.bodyFields.length ? [...op.bodyFields, 'is_superuser', '__proto__', 'owner_id', 'id'] : [];
  return fc.record({
    token: tokenFor(),
    params: fc.tuple(...op.pathParams.map((name) => pathValue(name))),
    query: fc.tuple(
      ...op.queryParams.map((name) =>
        fc.oneof(
          { weight: 2, arbitrary: validFor(name).map(String) },
          { weight: 3, arbitrary: hostileString.map((s) => s.slice(0, 4000)) },
          { weight: 1, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.constant(['1', '2']) },
        ),
      ),
    ),
    fields: fc.tuple(...bodyFields.map((name) => fieldValue(name))),
    shape: fc.constantFrom('object', 'object', 'object', 'object', 'value', 'malformed', 'wrong type'),
    raw: hostileJson,
    malformed: fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('{', '{"a":', '{"a":1,}', "{'a':1}", '\u0000')),
  });
}

async function runRest(op: RestOperation, index: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(restCase(op), async (c) => {
      let urlPath = '/api/v1' + op.path;
      op.pathParams.forEach((name, i) => {
        urlPath = urlPath.replace(`{${name}}`, encodeURIComponent(wellFormed(c.params[i])));
      });
      const query = op.queryParams
        .flatMap((name, i) => {
          const v = c.query[i];
          if (v === undefined) return [];
          const values = Array.isArray(v) ? v : [v];
          return values.map((x) => `${name}=${encodeURIComponent(wellFormed(x))}`);
        })
        .join('&');
      if (query) urlPath += `?${query}`;
      let body: string | undefined;
      let contentType: string | undefined;
      if (op.bodyFields.length) {
        const fields = [...op.bodyFields, 'is_superuser', '__proto__', 'owner_id', 'id'];
        const entries = fields.map((name, i) => [name, c.fields[i]] as [string, string | undefined]);
        if (op.form) {
          contentType = 'application/x-www-form-urlencoded';
          const form = new URLSearchParams();
          for (const [k, v] of entries) {
            if (v !== undefined) form.set(k, wellFormed(v.startsWith('"') ? JSON.parse(v) : v));
          }
          body = c.shape === 'malformed' ? wellFormed(c.malformed) : form.toString();
        } else {
          contentType = c.shape === 'wrong type' ? 'text/plain' : 'application/json';
          body =
            c.shape === 'value' ? c.raw : c.shape === 'malformed' ? c.malformed : objectText(c.fields.length ? entries : []);
        }
      }
      await check(`#${index} ${op.method} ${urlPath.slice(0, 200)}`, () =>
        send(op.method, urlPath, body, contentType, bearer(c.token)),
      );
    }),
    { seed: SEED + index, numRuns: REST_RUNS, endOnFailure: true },
  );
}

// ---- GraphQL --------------------------------------------------------------------------------------------------

function selection(field: GraphQLField<unknown, unknown>): string {
  const type = getNamedType(field.type);
  return isObjectType(type) ? `{ ${Object.keys(type.getFields()).join(' ')} }` : '';
}

function graphqlCase(field: GraphQLField<unknown, unknown>) {
  return fc.record({
    token: tokenFor(),
    args: fc.tuple(
      ...field.args.map((arg: GraphQLArgument) =>
        fc.oneof(
          { weight: 2, arbitrary: validFor(arg.name).map((v) => JSON.stringify(v)) },
          { weight: 3, arbitrary: hostileJson },
          { weight: 1, arbitrary: fc.constant(undefined) },
        ),
      ),
    ),
    inline: fc.boolean(),
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
        query = `${kind} { ${field.name}${args ? `(${args})` : ''} ${selection(field)} }`;
      } else {
        const declared = given.map(([arg]) => `$${arg.name}: ${String(arg.type)}`).join(', ');
        const args = given.map(([arg]) => `${arg.name}: $${arg.name}`).join(', ');
        query = `${kind}${declared ? ` (${declared})` : ''} { ${field.name}${args ? `(${args})` : ''} ${selection(field)} }`;
        variables = objectText(given.map(([arg, v]) => [arg.name, v]));
      }
      const body = `{"query":${JSON.stringify(query)},"variables":${variables}}`;
      await check(`#${index} ${kind} ${field.name}`, () =>
        send('POST', '/graphql', body, 'application/json', bearer(c.token)),
      );
    }),
    { seed: SEED + index, numRuns: GRAPHQL_RUNS, endOnFailure: true },
  );
}

/** Whole documents that are hostile in themselves: deep, wide, aliased, batched, or not GraphQL at all. */
const hostileDocument = fc.oneof(
  fc.integer({ min: 1, max: 15_000 }).map((n) => `{ ${'me { '.repeat(n)}id${' }'.repeat(n)} }`),
  fc.integer({ min: 1, max: 20_000 }).map((n) => '{'.repeat(n) + '}'.repeat(n)),
  fc.integer({ min: 1, max: 500 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: me { id }`).join(' ')} }`),
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
    fc.asyncProperty(hostileDocument, tokenFor(), fc.constantFrom('single', 'batch', 'get'), async (query, token, how) => {
      const operation = { query };
      if (how === 'get') {
        const url = `/graphql?query=${encodeURIComponent(wellFormed(query).slice(0, 6000))}`;
        await check('GET document', async () => {
          const response = await fetch(t.url + url, {
            headers: { Authorization: `Bearer ${bearer(token) ?? ''}`, 'Apollo-Require-Preflight': 'true' },
          });
          return { status: response.status, text: await response.text() };
        });
        return;
      }
      const body = JSON.stringify(how === 'batch' ? Array.from({ length: 20 }, () => operation) : operation);
      await check(`${how} document`, () => send('POST', '/graphql', body, 'application/json', bearer(token)));
    }),
    { seed: SEED, numRuns: DOCUMENT_RUNS, endOnFailure: true },
  );
}

describe('fuzzing every input', () => {
  it('answers hostile REST requests without a 5xx or a stack trace, and refusals change nothing', async () => {
    const operations = await restOperations();
    const withInput = operations.filter((op) => op.pathParams.length + op.queryParams.length + op.bodyFields.length > 0);
    expect(withInput.length).toBeGreaterThan(20);
    for (const [i, op] of operations.entries()) await runRest(op, i);
  }, 600_000);

  it('answers hostile GraphQL arguments without an internal error, and refusals change nothing', async () => {
    const fields = [
      ...Object.values(schema.getQueryType()!.getFields()).map((f) => ['query', f] as const),
      ...Object.values(schema.getMutationType()!.getFields()).map((f) => ['mutation', f] as const),
    ];
    for (const [i, [kind, field]] of fields.entries()) await runGraphql(kind, field, 1000 + i);
    await runDocuments();
    expect(cases).toBeGreaterThanOrEqual(MINIMUM_CASES);
  }, 600_000);
});
