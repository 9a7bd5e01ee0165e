import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fieldValue,
  finishFuzzSuite,
  hostileJson,
  hostileString,
  objectText,
  startFuzzSuite,
  tokenFor,
  validFor,
  wellFormed,
  type FuzzTarget,
} from './support/fuzz';

/**
 * Hostile values in every body field, query and path parameter of every REST route (read from the OpenAPI
 * document, so a new route is fuzzed without being listed here).
 */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_REST_RUNS ?? 190);
// With the GraphQL suite's 5,000, at least 10,000 cases a run; a smaller FUZZ_REST_RUNS (to replay quickly) lowers it.
const MINIMUM_CASES = process.env.FUZZ_REST_RUNS ? 0 : 5_000;

let target: FuzzTarget;
let seed: number;

beforeAll(async () => {
  ({ target, seed } = await startFuzzSuite('REST'));
});

afterAll(() => finishFuzzSuite('fuzz-rest', 'fuzzRest', target, seed));

interface RestOperation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  bodyFields: string[];
  form: boolean;
}

async function restOperations(): Promise<RestOperation[]> {
  const doc = (await target.t.request('GET', '/api/v1/openapi.json')).body;
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
    validFor(target, name).map(String),
    hostileString.map((s) => s.slice(0, 4000)),
    fc.constantFrom('', '.', '..', '%', '%zz', 'null', '-1', '1e400'),
  );

/** Fields no body may set (privileges, ownership, ids, the prototype), sent along with every body. */
const SMUGGLED = ['is_superuser', '__proto__', 'owner_id', 'id'];
const bodyFieldsOf = (op: RestOperation) => (op.bodyFields.length ? [...op.bodyFields, ...SMUGGLED] : []);

function restCase(op: RestOperation) {
  const bodyFields = bodyFieldsOf(op);
  return fc.record({
    token: tokenFor(),
    params: fc.tuple(...op.pathParams.map((name) => pathValue(name))),
    query: fc.tuple(
      ...op.queryParams.map((name) =>
        fc.oneof(
          { weight: 2, arbitrary: validFor(target, name).map(String) },
          { weight: 3, arbitrary: hostileString.map((s) => s.slice(0, 4000)) },
          { weight: 1, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.constant(['1', '2']) },
        ),
      ),
    ),
    fields: fc.tuple(...bodyFields.map((name) => fieldValue(target, name))),
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
        const entries = bodyFieldsOf(op).map((name, i) => [name, c.fields[i]] as [string, string | undefined]);
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
            c.shape === 'value'
              ? c.raw
              : c.shape === 'malformed'
                ? c.malformed
                : objectText(c.fields.length ? entries : []);
        }
      }
      await target.check(`#${index} ${op.method} ${urlPath.slice(0, 200)}`, () =>
        target.send(op.method, urlPath, body, contentType, target.bearer(c.token)),
      );
    }),
    { seed: seed + index, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
  );
}

describe('fuzzing the REST API', () => {
  it('answers hostile requests without a 5xx or a stack trace, and refusals change nothing', async () => {
    const operations = await restOperations();
    const withInput = operations.filter(
      (op) => op.pathParams.length + op.queryParams.length + op.bodyFields.length > 0,
    );
    expect(withInput.length).toBeGreaterThan(20);
    for (const [i, op] of operations.entries()) await runRest(op, i);
    expect(target.cases).toBeGreaterThanOrEqual(MINIMUM_CASES);
  }, 900_000);
});
