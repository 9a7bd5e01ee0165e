import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { Browser } from 'playwright-core';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, SUPERUSER, type TestGateway } from '../support/gateway';
import { launchBrowser, login, openPage } from '../e2e/support/browser';

const ALLOWED_ORIGIN = 'https://admin.example.com';
const REQUEST_TIMEOUT_MS = 1500;
// Both gateways of this file run in one process, which holds one token encryption key: they share it.
const TOKEN_ENCRYPTION_KEY = randomBytes(32).toString('base64');

let t: TestGateway;
let browser: Browser;

beforeAll(async () => {
  t = await startTestGateway({
    CORS_ORIGINS: `${ALLOWED_ORIGIN}, https://other-admin.example.com`,
    REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    TOKEN_ENCRYPTION_KEY,
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const PAGES = ['/', '/login', '/docs/', '/graphql', '/api/v1/utils/health-check/', '/api/v1/openapi.json', '/nowhere'];

describe('security headers', () => {
  it.each(PAGES)('%s carries helmet headers, a Content-Security-Policy and no X-Powered-By', async (page) => {
    const answer = await t.request('GET', page, { headers: { Accept: 'text/html' } });
    const h = answer.headers;
    expect(h.get('x-powered-by')).toBeNull();
    const csp = h.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self'(;|$)/); // no inline or eval scripts
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(h.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(h.get('referrer-policy')).toBe('no-referrer');
    expect(h.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(h.get('x-request-id')).toMatch(/^[\w-]+$/);
  });

  it('keeps the admin, /docs and the GraphQL explorer working under the Content-Security-Policy', async () => {
    const violations = async (path: string, ready: (page: import('playwright-core').Page) => Promise<unknown>) => {
      const { page, errors, context } = await openPage(browser, t.url);
      const outside: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(t.url) && !request.url().startsWith('data:')) outside.push(request.url());
      });
      await page.goto(path);
      await ready(page);
      await context.close();
      return { errors, outside };
    };
    const admin = await violations('/login', async (page) => {
      await login(page, SUPERUSER.email, SUPERUSER.password);
    });
    const docs = await violations('/docs/', (page) => page.locator('.swagger-ui .info .title').waitFor());
    const explorer = await violations('/graphql', (page) =>
      page.getByRole('button', { name: /Execute query/i }).waitFor(),
    );
    for (const seen of [admin, docs, explorer]) {
      expect(seen.errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
      expect(seen.errors).toEqual([]);
      expect(seen.outside).toEqual([]);
    }
  });
});

describe('CORS', () => {
  it('answers a preflight from a configured origin', async () => {
    const answer = await t.request('OPTIONS', '/api/v1/users/me', {
      headers: {
        Origin: ALLOWED_ORIGIN,
        'Access-Control-Request-Method': 'PATCH',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(answer.status).toBeLessThan(300);
    expect(answer.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(answer.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
  });

  it.each(['https://evil.example', 'null', 'https://admin.example.com.evil.example', 'http://admin.example.com'])(
    'grants nothing to %s',
    async (origin) => {
      const preflight = await t.request('OPTIONS', '/api/v1/users/me', {
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'authorization',
        },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      const token = await t.superuserToken();
      const read = await t.request('GET', '/api/v1/users/me', { token, headers: { Origin: origin } });
      expect(read.headers.get('access-control-allow-origin')).toBeNull();
      const graphql = await t.request('POST', '/graphql', {
        json: { query: '{ me { id } }' },
        token,
        headers: { Origin: origin },
      });
      expect(graphql.headers.get('access-control-allow-origin')).toBeNull();
    },
  );
});

describe('body size limit', () => {
  const big = 'x'.repeat(200 * 1024);
  it.each([
    [
      'REST JSON',
      '/api/v1/users/signup',
      JSON.stringify({ email: 'big@example.com', password: big }),
      'application/json',
    ],
    [
      'REST form',
      '/api/v1/login/access-token',
      `username=big%40example.com&password=${big}`,
      'application/x-www-form-urlencoded',
    ],
    ['GraphQL', '/graphql', JSON.stringify({ query: `{ me { id } } # ${big}` }), 'application/json'],
  ])('refuses a %s body over the limit with 413', async (_kind, path, raw, contentType) => {
    const answer = await t.request('POST', path, { raw, contentType });
    expect(answer.status).toBe(413);
    expect(answer.text).not.toMatch(/\bat \S+ \(/);
    const count = await t.sql<{ n: string }>("select count(*) as n from users where email = 'big@example.com'");
    expect(Number(count[0].n)).toBe(0);
  });
});

describe('request timeout', () => {
  it('answers 503 when a request runs past the timeout, and the gateway keeps serving', async () => {
    const token = await t.superuserToken();
    const created = await t.request('POST', '/api/v1/clients/', { token, json: { url: 'https://locked.example' } });
    // Another session holds the client's row: the update waits on it for longer than the timeout.
    const blocker = new Client({ connectionString: t.databaseUrl });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('select * from clients where id = $1 for update', [created.body.id]);
    try {
      const started = performance.now();
      const answer = await t.request('PUT', `/api/v1/clients/${created.body.id}`, {
        token,
        json: { url: 'https://late.example' },
      });
      const took = performance.now() - started;
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ detail: 'The request took too long and was stopped' });
      expect(took).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
      expect(took).toBeLessThan(REQUEST_TIMEOUT_MS + 2000);
      const health = await t.request('GET', '/api/v1/utils/health-check/');
      expect(health.status).toBe(200);
    } finally {
      await blocker.query('rollback');
      await blocker.end();
    }
  });

  it.each([
    [
      'a body that never finishes',
      'POST /api/v1/users/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{"email":',
    ],
    ['headers that never finish', 'GET /api/v1/users/me HTTP/1.1\r\nHost: x\r\nX-Slow: '],
  ])('does not wait forever for %s', async (_kind, partial) => {
    const { port } = new URL(t.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    const started = performance.now();
    const outcome = await new Promise<{ ms: number; reply: string }>((resolve) => {
      let reply = '';
      let answeredAt: number | undefined;
      socket.on('data', (chunk) => {
        answeredAt ??= performance.now();
        reply += chunk.toString();
      });
      // Bounded means answered (408 or 503) or cut off, whichever comes first.
      socket.on('close', () => resolve({ ms: (answeredAt ?? performance.now()) - started, reply }));
      socket.on('error', () => undefined);
      socket.write(partial);
      setTimeout(() => socket.destroy(), 45_000);
    });
    expect(outcome.ms, outcome.reply).toBeLessThan(REQUEST_TIMEOUT_MS + 2000);
    expect(outcome.reply === '' || /^HTTP\/1\.1 (408|503|400)/.test(outcome.reply)).toBe(true);
  });
});

describe('GraphQL', () => {
  it('refuses batched operations, running none of them', async () => {
    const token = await t.superuserToken();
    const before = await t.sql<{ n: string }>('select count(*) as n from items');
    const batch = Array.from({ length: 3 }, (_, i) => ({
      query: `mutation { createItem(title: "batched ${i}") { id } }`,
    }));
    const answer = await t.request('POST', '/graphql', { json: batch, token });
    expect(answer.status).toBe(400);
    expect(answer.text).not.toMatch(/\bat \S+ \(/);
    const after = await t.sql<{ n: string }>('select count(*) as n from items');
    expect(after[0].n).toBe(before[0].n);
  });

  it('answers introspection outside production', async () => {
    const answer = await t.graphql('{ __schema { queryType { name } } }');
    expect(answer.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
  });

  it('turns introspection off with NODE_ENV=production; the admin works from its build-time schema', async () => {
    const production = await startTestGateway({
      NODE_ENV: 'production',
      SECRET_KEY: randomBytes(32).toString('hex'),
      TOKEN_ENCRYPTION_KEY,
      FIRST_SUPERUSER_PASSWORD: SUPERUSER.password,
    });
    try {
      expect(production.config.NODE_ENV).toBe('production');
      for (const query of ['{ __schema { types { name } } }', '{ __type(name: "User") { name fields { name } } }']) {
        const answer = await production.graphql(query);
        expect(answer.status).toBe(400);
        expect(answer.body.data).toBeUndefined();
        expect(answer.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
        expect(answer.body.errors[0].message).toMatch(/introspection/i);
        expect(answer.text).not.toMatch(/\bat \S+ \(/);
      }
      const token = await production.superuserToken();
      const me = await production.graphql('{ me { email } }', undefined, token);
      expect(me.body.data).toEqual({ me: { email: SUPERUSER.email } });
      const { page, errors, context } = await openPage(browser, production.url);
      await login(page, SUPERUSER.email, SUPERUSER.password);
      await page.goto('/items');
      await page.waitForLoadState('networkidle');
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await production.close();
    }
  });
});
