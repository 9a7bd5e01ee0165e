import fc from 'fast-check';
import { Client } from 'pg';
import { expect, inject } from 'vitest';
import { startTestGateway, type TestGateway } from '../../support/gateway';
import { derivedAnswer, startNuvemshopStandIn, type NuvemshopStandIn } from '../../support/nuvemshop';
import { recordFigures } from './figures';

/**
 * What the fuzzing suites share: a gateway on a database of its own, hostile values, and the check every case
 * passes (no 5xx, no stack trace, and a refused request leaves every table as it was).
 */
export const fuzzSeed = () => inject('fuzzSeed');

const ONE_MB = 'x'.repeat(1024 * 1024);
const STACK_TRACE = /\bat \S+ \(?[\w/.-]+:\d+:\d+\)?|node_modules|\/work\/|\.ts:\d+:\d+/;
const TABLES = ['users', 'deleted_users', 'items', 'clients', 'authorization_codes'];
const SNAPSHOT = TABLES.map(
  (table) =>
    `select '${table}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from ${table} x`,
).join(' union all ');

export interface FuzzTarget {
  t: TestGateway;
  /** Ids of records that exist (never the superuser's own), so hostile bodies also reach real records. */
  knownIds: string[];
  bearer(choice: string): string | undefined;
  send(method: string, path: string, body?: string, contentType?: string, token?: string): Promise<Sent>;
  /** Sends one case and checks its answer; a refused case must not have changed any table. */
  check(label: string, request: () => Promise<Sent>): Promise<void>;
  cases: number;
  refused: number;
  close(): Promise<void>;
}

interface Sent {
  status: number;
  text: string;
}

/** Starts a fuzz target for a suite, and prints the seed the suite draws from (to replay it). */
export async function startFuzzSuite(label: string): Promise<{ target: FuzzTarget; seed: number }> {
  const target = await startFuzzTarget();
  const seed = fuzzSeed();
  console.log(`${label} fuzz seed ${seed} (replay with FUZZ_SEED=${seed})`);
  return { target, seed };
}

/** Records the cases a suite ran and refused (as `<key>Cases`, `<key>Refused`) with its seed, and closes its target. */
export async function finishFuzzSuite(name: string, key: string, target: FuzzTarget | undefined, seed: number) {
  if (target) recordFigures(name, { [`${key}Cases`]: target.cases, [`${key}Refused`]: target.refused, fuzzSeed: seed });
  await target?.close();
}

export async function startFuzzTarget(): Promise<FuzzTarget> {
  const nuvemshop: NuvemshopStandIn = await startNuvemshopStandIn(derivedAnswer());
  const t = await startTestGateway({ NUVEMSHOP_TOKEN_URL: nuvemshop.url });
  const db = new Client({ connectionString: t.databaseUrl });
  await db.connect();
  const snapshot = async () => {
    const rows = (await db.query<{ t: string; h: string }>(SNAPSHOT)).rows;
    return Object.fromEntries(rows.map((r) => [r.t, r.h]));
  };
  const superuser = await t.superuserToken();
  const someone = await t.createUser();
  const item = await t.request('POST', '/api/v1/items/', { token: someone.token, json: { title: 'fuzz item' } });
  const client = await t.request('POST', '/api/v1/clients/', {
    token: someone.token,
    json: { url: 'https://fuzz.example' },
  });
  const victim = await t.createUser();
  // Cases run one at a time, so the tables as the previous case left them are the tables before the next one.
  let tables = await snapshot();

  const send = async (method: string, path: string, body?: string, contentType?: string, token?: string) => {
    const headers: Record<string, string> = {};
    if (contentType) headers['Content-Type'] = contentType;
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(t.url + path, { method, headers, body });
    return { status: response.status, text: await response.text() };
  };

  const target: FuzzTarget = {
    t,
    knownIds: [someone.id, victim.id, item.body.id, client.body.id],
    bearer: (choice) =>
      choice === 'superuser'
        ? superuser
        : choice === 'user'
          ? someone.token
          : choice === 'none'
            ? undefined
            : choice || 'x',
    send,
    cases: 0,
    refused: 0,
    check: async (label, request) => {
      const { status, text } = await request();
      target.cases++;
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
      const after = await snapshot();
      if (status >= 400 || graphqlRefused) {
        target.refused++;
        expect(after, `${label} was refused (${status}) but changed a table`).toEqual(tables);
      }
      tables = after;
    },
    close: async () => {
      await db.end();
      await t.close();
      await nuvemshop.close();
    },
  };
  return target;
}

// ---- hostile values -------------------------------------------------------------------------------------------

/** Replaces lone surrogates, which cannot be put in a URL. */
export const wellFormed = (s: string) =>
  s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

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
  'a'.repeat(128),
  'a'.repeat(200),
  'a'.repeat(254),
  'a'.repeat(255),
  'a'.repeat(256),
  `${'a'.repeat(243)}@example.com`,
  `${'a'.repeat(244)}@example.com`,
  `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.com`,
  'a'.repeat(10_000),
  '00000000-0000-0000-0000-000000000000',
  '__proto__',
  'constructor',
];

/** Names every JavaScript object answers to: a lookup by a caller's string must never find them. */
export const prototypeName = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'toJSON',
  '__defineGetter__',
  '__lookupSetter__',
);

export const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PAYLOADS) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 300 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 100 }) },
  { weight: 1, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.uuid() },
  // Around the 255-character bounds of the text columns.
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 240, maxLength: 260 }) },
);

/** A hostile value as JSON text, so numbers JSON.stringify cannot write (1e400, 2^64 + 1) can be sent too. */
export const hostileJson: fc.Arbitrary<string> = fc.oneof(
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

const emails = fc.constantFrom(
  'someone@example.com',
  'Other.Person@Example.org',
  'admin@example.com',
  `${'long'.repeat(60)}@example.com`,
);
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
  filter: fc.record(
    { q: fc.string({ maxLength: 20 }), ids: fc.array(fc.uuid(), { maxLength: 3 }) },
    { requiredKeys: [] },
  ),
};
export const validFor = (target: FuzzTarget, name: string): fc.Arbitrary<unknown> =>
  name === 'id'
    ? fc.oneof(fc.constantFrom(...target.knownIds), fc.uuid())
    : Object.hasOwn(VALID, name)
      ? VALID[name]
      : fc.string({ maxLength: 20 });

/** One field's value as JSON text: valid, hostile, a prototype's name, or (undefined) left out. */
export const fieldValue = (target: FuzzTarget, name: string) =>
  fc.oneof(
    { weight: 2, arbitrary: validFor(target, name).map((v) => JSON.stringify(v)) },
    { weight: 3, arbitrary: hostileJson },
    { weight: 1, arbitrary: prototypeName.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

export const objectText = (entries: [string, string | undefined][]) =>
  `{${entries
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
    .join(',')}}`;

/** Whose token a case sends: mostly the superuser's, so hostile values reach the checks behind authentication. */
export const tokenFor = () =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant('superuser') },
    { weight: 2, arbitrary: fc.constant('user') },
    { weight: 1, arbitrary: fc.constant('none') },
    {
      weight: 1,
      arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 200 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'x')),
    },
  );
