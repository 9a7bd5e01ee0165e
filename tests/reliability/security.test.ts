import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptToken } from '../../gateway/database/token-cipher';
import { startTestGateway, SUPERUSER, type TestGateway } from '../support/gateway';
import { mailJobs } from '../support/mail-jobs';
import { startNuvemshopStandIn, type NuvemshopStandIn } from '../support/nuvemshop';
import { recordFigures } from './support/figures';

/**
 * What an outside attacker found, each closed and measured: caller mistakes answered as such, store credentials for
 * staff only, a slow store platform that cannot starve the pool, no account lockout by strangers, the last superuser
 * kept, and no schema hints in production.
 */

// Every gateway of this file runs in this process, which holds one token encryption key: they share it.
const TOKEN_ENCRYPTION_KEY = randomBytes(32).toString('base64');
const CALLBACK_TIMEOUT_MS = 2000;
const LOGIN_ACCOUNT_BUDGET = 30;
const figures: Record<string, string | number> = {};
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;

const logLines: { level: number; msg?: string }[] = [];
const capture = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) });

let t: TestGateway;
let production: TestGateway;
let nuvemshop: NuvemshopStandIn;
let su: string;

beforeAll(async () => {
  nuvemshop = await startNuvemshopStandIn();
  t = await startTestGateway(
    {
      TOKEN_ENCRYPTION_KEY,
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'true',
      RATE_LIMIT_LOGIN_EMAIL: '10',
      RATE_LIMIT_LOGIN_ACCOUNT: String(LOGIN_ACCOUNT_BUDGET),
      NUVEMSHOP_TOKEN_URL: nuvemshop.url,
      NUVEMSHOP_TIMEOUT_MS: String(CALLBACK_TIMEOUT_MS),
    },
    capture,
  );
  production = await startTestGateway({
    NODE_ENV: 'production',
    TOKEN_ENCRYPTION_KEY,
    SECRET_KEY: randomBytes(32).toString('hex'),
  });
  su = await t.superuserToken();
});

afterAll(async () => {
  recordFigures('security', figures);
  await t?.close();
  await production?.close();
  await nuvemshop?.close();
});

const postGraphql = (g: TestGateway, body: unknown, token?: string) =>
  g.request('POST', '/graphql', { json: body, token });

describe('caller mistakes in GraphQL', () => {
  it('answers each with a client error and its reason, and logs none of them as an error', async () => {
    const before = logLines.length;
    const refusals: [unknown, number, string, string][] = [
      [
        { query: '{ __typename }', operationName: 'Nope' },
        400,
        'OPERATION_RESOLUTION_FAILURE',
        'Unknown operation named "Nope".',
      ],
      [
        { query: 'query A { __typename } query B { __typename }' },
        400,
        'OPERATION_RESOLUTION_FAILURE',
        'Must provide operation name if query contains multiple operations.',
      ],
      [
        { query: 'query A { __typename } query B { __typename }', operationName: 'C' },
        400,
        'OPERATION_RESOLUTION_FAILURE',
        'Unknown operation named "C".',
      ],
      [
        { query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } } },
        400,
        'BAD_REQUEST',
        'provided sha does not match query',
      ],
      [
        { extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } },
        200,
        'PERSISTED_QUERY_NOT_FOUND',
        'PersistedQueryNotFound',
      ],
      [
        { query: '{ __typename }', extensions: { persistedQuery: { version: 2, sha256Hash: 'f'.repeat(64) } } },
        400,
        'BAD_REQUEST',
        'Unsupported persisted query version',
      ],
    ];
    let sent = 0;
    for (const [body, status, code, message] of refusals) {
      const answer = await postGraphql(t, body, su);
      sent++;
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body.errors[0]).toMatchObject({ message, extensions: { code } });
    }
    // The two operations of a document still run by name.
    const named = await postGraphql(t, {
      query: 'query A { a: __typename } query B { b: __typename }',
      operationName: 'B',
    });
    expect(named.body).toEqual({ data: { b: 'Query' } });

    await t.request('POST', '/api/v1/clients/', { token: su, json: { url: 'https://sorted.example' } });
    await t.request('POST', '/api/v1/items/', { token: su, json: { title: 'sorted' } });
    for (const list of ['allClients', 'allItems', 'allUsers']) {
      for (const sortField of [
        'constructor',
        '__proto__',
        'toString',
        'hasOwnProperty',
        'valueOf',
        '__defineGetter__',
      ]) {
        const answer = await postGraphql(
          t,
          { query: `query($s: String) { ${list}(sortField: $s, perPage: 2) { id } }`, variables: { s: sortField } },
          su,
        );
        sent++;
        expect(answer.status, `${list} ${sortField}`).toBe(200);
        expect(answer.body.errors, `${list} ${sortField}`).toBeUndefined();
        expect(answer.body.data[list].length).toBeGreaterThan(0);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100)); // request logs are written asynchronously
    const errors = logLines.slice(before).filter((line) => line.level >= 50);
    expect(errors).toEqual([]);
    figures.securityCallerMistakes = `${sent} sent, 0 answered 500, 0 logged as errors`;
  });
});

describe('store credentials are for staff only', () => {
  it('makes a stranger in production wait for a superuser before signing in', async () => {
    expect(production.config.USERS_OPEN_REGISTRATION).toBe('approval');
    const stranger = { email: 'stranger@example.com', password: 'stranger-password' };
    const signup = await production.request('POST', '/api/v1/users/signup', { json: stranger });
    expect(signup.status).toBe(200);
    expect(signup.body).toMatchObject({ email: stranger.email, is_active: false, is_superuser: false });
    const form = { username: stranger.email, password: stranger.password };
    const waiting = await production.request('POST', '/api/v1/login/access-token', { form });
    expect(waiting.status).toBe(400);
    expect(waiting.body).toEqual({ detail: 'Inactive user' });
    const viaGraphql = await production.graphql(
      'mutation($u: String!, $p: String!) { login(username: $u, password: $p) { access_token } }',
      { u: stranger.email, p: stranger.password },
    );
    expect(viaGraphql.body.errors[0]).toMatchObject({ message: 'Inactive user' });

    const admin = await production.superuserToken();
    const approved = await production.request('PATCH', `/api/v1/users/${signup.body.id}`, {
      token: admin,
      json: { is_active: true },
    });
    expect(approved.body.is_active).toBe(true);
    const signedIn = await production.request('POST', '/api/v1/login/access-token', { form });
    expect(signedIn.status).toBe(200);
    figures.securityRegistration = 'production default approval: login before approval 400 Inactive user, after 200';
  });

  it('shows an approved ordinary user masked tokens, and a masked value sent back keeps the real token', async () => {
    const admin = await production.superuserToken();
    const hiper = `hiper-${randomBytes(16).toString('hex')}`;
    const nuvem = `nuvem-${randomBytes(16).toString('hex')}`;
    const created = await production.request('POST', '/api/v1/clients/', {
      token: admin,
      json: { url: 'https://store.example', hiper_token: hiper, nuvemshop_token: nuvem, nuvemshop_store_id: 77 },
    });
    expect(created.body).toMatchObject({ hiper_token: hiper, nuvemshop_token: nuvem });

    const member = await production.request('POST', '/api/v1/users/', {
      token: admin,
      json: { email: 'member@example.com', password: 'member-password' },
    });
    expect(member.body.is_active).toBe(true);
    const token = await production.login('member@example.com', 'member-password');
    const masked = { hiper_token: `••••••••${hiper.slice(-4)}`, nuvemshop_token: `••••••••${nuvem.slice(-4)}` };
    const got = await production.request('GET', `/api/v1/clients/${created.body.id}`, { token });
    expect(got.body).toEqual({ ...created.body, ...masked });
    const listed = await production.request('GET', '/api/v1/clients/', { token });
    expect(listed.body.data).toEqual([{ ...created.body, ...masked }]);
    const viaGraphql = await production.graphql(
      'query($id: ID!) { Client(id: $id) { hiper_token nuvemshop_token } allClients { hiper_token } }',
      { id: created.body.id },
      token,
    );
    expect(viaGraphql.body.data).toEqual({ Client: masked, allClients: [{ hiper_token: masked.hiper_token }] });
    expect(JSON.stringify([got.body, listed.body, viaGraphql.body])).not.toContain(hiper.slice(0, 12));

    // The edit dialog sends every field back as it was shown, with the one the user changed.
    const { id, ...fields } = got.body;
    const put = await production.request('PUT', `/api/v1/clients/${id}`, {
      token,
      json: { ...fields, url: 'https://renamed.example' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ url: 'https://renamed.example', ...masked });
    const updated = await production.graphql(
      'mutation($id: ID!, $h: String) { updateClient(id: $id, hiper_token: $h, hiper_sync_update_image: false) { id } }',
      { id, h: masked.hiper_token },
      token,
    );
    expect(updated.body.errors).toBeUndefined();
    const [row] = await production.sql<{ hiper_token: string; nuvemshop_token: string; url: string }>(
      'select url, hiper_token, nuvemshop_token from clients where id = $1',
      [id],
    );
    expect(row.url).toBe('https://renamed.example');
    expect(decryptToken(row.hiper_token)).toBe(hiper);
    expect(decryptToken(row.nuvemshop_token)).toBe(nuvem);

    // A new token typed in clear by an ordinary user is stored, and answered masked.
    const rotated = await production.request('PUT', `/api/v1/clients/${id}`, {
      token,
      json: { nuvemshop_token: 'rotated-nuvemshop-token' },
    });
    expect(rotated.body.nuvemshop_token).toBe('••••••••oken');
    const [after] = await production.sql<{ nuvemshop_token: string }>(
      'select nuvemshop_token from clients where id = $1',
      [id],
    );
    expect(decryptToken(after.nuvemshop_token)).toBe('rotated-nuvemshop-token');
    figures.securityMaskedTokens = 'ordinary user: masked in REST and GraphQL; masked round trip kept both tokens';
  });

  it('refuses every signup when registration is closed, in REST and GraphQL', async () => {
    const closed = await startTestGateway({ USERS_OPEN_REGISTRATION: 'closed', TOKEN_ENCRYPTION_KEY });
    try {
      const rest = await closed.request('POST', '/api/v1/users/signup', {
        json: { email: 'nobody@example.com', password: 'a-good-password' },
      });
      expect(rest.status).toBe(403);
      expect(rest.body).toEqual({ detail: 'Open user registration is forbidden on this server' });
      const graphql = await closed.graphql(
        'mutation { signup(email: "nobody@example.com", password: "a-good-password") { id } }',
      );
      expect(graphql.body.errors[0]).toMatchObject({
        message: 'Open user registration is forbidden on this server',
        extensions: { code: 'FORBIDDEN', status: 403 },
      });
      expect((await closed.graphql('{ registration }')).body.data).toEqual({ registration: 'closed' });
      expect(await closed.sql("select 1 from users where email = 'nobody@example.com'")).toEqual([]);
    } finally {
      await closed.close();
    }
  });
});

describe('a slow store platform', () => {
  it('holds no database connection while it is asked: other requests answer throughout', async () => {
    nuvemshop.answer = () => ({ status: 200, body: { access_token: 'late', user_id: 1 }, delayMs: 30_000 });
    const callbacks = Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        t.request('POST', '/api/v1/callback/authorize', { json: { code: `slow-code-${i}` } }),
      ),
    );
    let settled = false;
    void callbacks.then(() => (settled = true));
    const me: { status: number; ms: number }[] = [];
    while (!settled) {
      const answer = await t.request('GET', '/api/v1/users/me', { token: su, timeoutMs: 5000 });
      me.push({ status: answer.status, ms: answer.ms });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const answers = await callbacks;
    for (const answer of answers) {
      expect(answer.status).toBe(502);
      expect(answer.body).toEqual({ detail: 'Nuvemshop did not answer in time' });
    }
    expect(me.length).toBeGreaterThan(10);
    expect(me.filter((m) => m.status !== 200)).toEqual([]);
    const slowest = Math.max(...me.map((m) => m.ms));
    expect(slowest).toBeLessThan(1000);
    // Unspent codes are released: posted again once the platform answers, they are exchanged.
    expect(await t.sql('select 1 from authorization_codes where status = 0')).toEqual([]);
    nuvemshop.answer = () => ({ status: 200, body: { access_token: 'in-time', user_id: 9090 } });
    const again = await t.request('POST', '/api/v1/callback/authorize', { json: { code: 'slow-code-0' } });
    expect(again.status).toBe(200);
    figures.securitySlowPlatform = `15 callbacks held ${CALLBACK_TIMEOUT_MS} ms by the platform (pool of ${t.config.DATABASE_POOL_MAX}): GET /users/me ${me.length} answered 200, slowest ${slowest.toFixed(0)} ms`;
  });
});

describe('login throttling', () => {
  const login = (email: string, password: string, address: string) =>
    t.request('POST', '/api/v1/login/access-token', {
      form: { username: email, password },
      headers: { 'X-Forwarded-For': address },
    });

  it('stops a stranger guessing from one address without stopping the owner elsewhere', async () => {
    const owner = { email: 'owner@example.com', password: 'the-owners-password' };
    expect((await t.request('POST', '/api/v1/users/', { token: su, json: owner })).status).toBe(200);
    const statuses = [];
    for (let i = 0; i < 15; i++) statuses.push((await login(owner.email, `guess-${i}`, '203.0.113.7')).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses.slice(10)).toEqual(Array(5).fill(429));
    // The stranger's address is refused even with the right password; the owner's is not.
    expect((await login(owner.email, owner.password, '203.0.113.7')).status).toBe(429);
    const fromHome = await login(owner.email, owner.password, '198.51.100.20');
    expect(fromHome.status).toBe(200);
    figures.securityLockout = 'stranger: 10 wrong passwords then 429; owner from another address: 200';
  });

  it('throttles guessing one account from many addresses, while its owner signs in from a known address', async () => {
    const owner = { email: 'owner@example.com', password: 'the-owners-password' };
    let allowed = 0;
    let address = 0;
    for (; address < LOGIN_ACCOUNT_BUDGET * 2; address++) {
      const answer = await login(owner.email, `distributed-${address}`, `192.0.2.${address + 1}`);
      if (answer.status === 400) allowed++;
      else expect(answer.status).toBe(429);
    }
    // The stranger of the test above spent 10 of the account's failures.
    expect(allowed).toBe(LOGIN_ACCOUNT_BUDGET - 10);
    expect((await login(owner.email, owner.password, '198.51.100.20')).status).toBe(200);
    figures.securityDistributedGuessing = `${address} addresses, 1 guess each: ${allowed} checked, then 429; owner from a known address: 200`;
  });

  it('keeps a hash, never a typed email or address, in the rate-limit table', async () => {
    const keys = (await t.sql<{ key: string }>('select key from rate_limits')).map((r) => r.key);
    expect(keys.length).toBeGreaterThan(10);
    const typed = keys.filter((k) => /@|owner|example|203\.0|198\.51|192\.0|127\.0/.test(k));
    expect(typed).toEqual([]);
    figures.securityRateLimitKeys = `${keys.length} rate-limit keys, ${typed.length} holding an email or address`;
  });
});

describe('reset links in the logs', () => {
  it('in production, says so once at start and never logs a usable token', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'trace' }, { write: (line: string) => lines.push(line) });
    const production = await startTestGateway(
      {
        NODE_ENV: 'production',
        SECRET_KEY: randomBytes(32).toString('hex'),
        TOKEN_ENCRYPTION_KEY,
        FIRST_SUPERUSER_PASSWORD: 'superuser-password',
        LOG_LEVEL: 'trace',
      },
      log,
    );
    try {
      const notices = () => lines.filter((l) => l.includes('password recovery and account emails cannot be sent'));
      expect(notices()).toHaveLength(1);
      const admin = await production.superuserToken();
      const user = { email: 'prod.nosmtp@example.com' };
      const created = await production.request('POST', '/api/v1/users/', {
        token: admin,
        json: { email: user.email, password: 'a-good-password' },
      });
      expect(created.status).toBe(200);
      for (let i = 0; i < 3; i++) {
        expect((await production.request('POST', `/api/v1/password-recovery/${user.email}`)).status).toBe(200);
      }
      const jobs = async () =>
        (await mailJobs(production, admin)).filter(
          (j) => j.to === user.email && j.kind === 'password-recovery' && j.state === 'completed',
        );
      await expect.poll(async () => (await jobs()).length, { timeout: 10_000 }).toBe(3);
      for (const job of await jobs()) {
        expect(job).toMatchObject({ sent: false, not_sent_reason: 'SMTP is not configured' });
      }
      const text = lines.join('\n');
      expect(text).not.toMatch(/reset-password\?token=/);
      expect(text).not.toMatch(JWT);
      expect(notices()).toHaveLength(1);
      figures.securityResetTokenLogs = `production without SMTP: 1 notice at start, 3 recoveries, 0 reset links or tokens in ${lines.length} log lines`;
    } finally {
      await production.close();
    }
  });
});

describe('the last word stays with a superuser', () => {
  it('refuses a superuser removing their own superuser flag or deactivating themselves, in REST and GraphQL', async () => {
    const suId = (await t.request('GET', '/api/v1/users/me', { token: su })).body.id;
    const detail = 'Super users are not allowed to demote or deactivate themselves';
    for (const json of [{ is_superuser: false }, { is_active: false }, { is_active: false, full_name: 'x' }]) {
      const answer = await t.request('PATCH', `/api/v1/users/${suId}`, { token: su, json });
      expect(answer.status, JSON.stringify(json)).toBe(403);
      expect(answer.body).toEqual({ detail });
    }
    for (const args of ['is_superuser: false', 'is_active: false']) {
      const answer = await t.graphql(`mutation($id: ID!) { updateUser(id: $id, ${args}) { id } }`, { id: suId }, su);
      expect(answer.body.errors[0]).toMatchObject({ message: detail, extensions: { code: 'FORBIDDEN', status: 403 } });
    }
    const [row] = await t.sql<{ is_superuser: boolean; is_active: boolean; full_name: string | null }>(
      'select is_superuser, is_active, full_name from users where id = $1',
      [suId],
    );
    expect(row).toEqual({ is_superuser: true, is_active: true, full_name: null });
    // Keeping the flags as they are is no demotion.
    const kept = await t.request('PATCH', `/api/v1/users/${suId}`, {
      token: su,
      json: { is_superuser: true, is_active: true, full_name: 'Still in charge' },
    });
    expect(kept.status).toBe(200);
    expect((await t.login(SUPERUSER.email, SUPERUSER.password)).length).toBeGreaterThan(0);
    figures.securitySelfDemotion = 'REST 3 refused (403), GraphQL 2 refused (FORBIDDEN), superuser unchanged';
  });
});

describe('schema hints', () => {
  it('gives no "Did you mean" suggestions in production, as it allows no introspection', async () => {
    const typo = '{ allClientz { id } }';
    const development = await t.graphql(typo, {}, su);
    expect(development.body.errors[0].message).toContain('Did you mean');
    const admin = await production.superuserToken();
    const answers = await Promise.all(
      [typo, '{ me { emial } }', 'mutation { logn(username: "a", password: "b") { access_token } }'].map((q) =>
        production.graphql(q, {}, admin),
      ),
    );
    const hinted = answers.filter((a) => /Did you mean/.test(JSON.stringify(a.body)));
    expect(answers.every((a) => a.status === 400)).toBe(true);
    expect(hinted).toEqual([]);
    const introspection = await production.graphql('{ __schema { types { name } } }', {}, admin);
    expect(introspection.body.errors[0].message).toMatch(/introspection/i);
    figures.securitySuggestions = `production: ${answers.length} misspelt queries, ${hinted.length} suggestions`;
  });
});
