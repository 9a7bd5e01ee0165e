import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminDist } from '../../gateway/admin-files';
import { call, SUPERUSER, startTestGateway, type TestGateway } from '../support/gateway';

/**
 * Every request, whatever answers it, passes the same protections: one request of each kind shows the same security
 * headers, the request id, the CORS answer, the same access log line and the same limits.
 */
const lines: Record<string, unknown>[] = [];
const ORIGIN = 'https://allowed.example';
let t: TestGateway;
let token: string;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  t = await startTestGateway(
    { LOG_LEVEL: 'info', CORS_ORIGINS: ORIGIN, BODY_LIMIT: '2kb' },
    pino({ level: 'info' }, sink),
  );
  token = await t.superuserToken();
});
afterAll(() => t?.close());

const asset = existsSync(path.join(adminDist, 'assets'))
  ? readdirSync(path.join(adminDist, 'assets')).find((name) => name.endsWith('.js'))
  : undefined;

/** One request of each kind the server answers. */
const kinds: [string, string, string, Record<string, string>, string?][] = [
  ['REST', 'GET', '/api/v1/users/me', {}],
  ['REST, refused', 'GET', '/api/v1/items/not-an-id', {}],
  ['GraphQL', 'POST', '/graphql', { 'content-type': 'application/json' }, JSON.stringify({ query: '{ me { id } }' })],
  ['the explorer', 'GET', '/graphql', { accept: 'text/html' }],
  ['/docs', 'GET', '/docs', {}],
  ['the admin page', 'GET', '/clientes', { accept: 'text/html' }],
  ['an unknown API address', 'GET', '/api/v1/nothing-here', {}],
  ...(asset
    ? [['an admin file', 'GET', `/assets/${asset}`, {}] as [string, string, string, Record<string, string>]]
    : []),
];

const SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

describe('every kind of request', () => {
  it.each(kinds)(
    '%s: the same headers, request id, CORS answer and log line',
    async (_, method, address, headers, body) => {
      const id = `one-path-${Math.random().toString(36).slice(2)}`;
      const answer = await call(t.url, method, address, {
        token,
        headers: { ...headers, 'x-request-id': id, origin: ORIGIN },
        raw: body,
        contentType: headers['content-type'],
      });
      expect(answer.status).toBeLessThan(500);
      const reference = await call(t.url, 'GET', '/api/v1/users/me', { token });
      for (const name of SECURITY_HEADERS) expect(answer.headers.get(name), name).toBe(reference.headers.get(name));
      expect(answer.headers.get('x-powered-by')).toBeNull();
      expect(answer.headers.get('x-request-id')).toBe(id);
      expect(answer.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      await expect.poll(() => lines.find((line) => (line.req as { id?: string })?.id === id)).toBeTruthy();
      const line = lines.find((l) => (l.req as { id?: string })?.id === id)!;
      expect(
        Object.keys(line)
          .filter((k) => !['level', 'time', 'pid', 'hostname'].includes(k))
          .sort(),
      ).toEqual(['msg', 'req', 'res', 'responseTime']);
      expect(line).toMatchObject({
        msg: 'request completed',
        req: { id, method, url: address, remoteAddress: '127.0.0.1' },
        res: { statusCode: answer.status },
        responseTime: expect.any(Number),
      });
      expect(Object.keys(line.req as object).sort()).toEqual(['id', 'method', 'remoteAddress', 'url']);
    },
  );

  it.each([
    ['REST', '/api/v1/items/'],
    ['GraphQL', '/graphql'],
  ])('%s: a body over BODY_LIMIT is refused with 413, unread and without effect', async (_, address) => {
    const before = await t.sql('select count(*)::int as n from items');
    const answer = await call(t.url, 'POST', address, {
      token,
      json: { title: 'x'.repeat(4096), query: `mutation { createItem(title: "${'x'.repeat(3000)}") { id } }` },
    });
    expect(answer.status).toBe(413);
    expect(await t.sql('select count(*)::int as n from items')).toEqual(before);
  });

  it.each(kinds)('%s: headers over the server limit are refused with 431', async (_, method, address) => {
    const answer = await raw(`${method} ${address} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
  });
});

/** Sends `request` as written on a connection of its own and returns what the server wrote back until it closed. */
function raw(request: string): Promise<string> {
  const { port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

describe('addresses', () => {
  it('in absolute form are answered as their origin-form path', async () => {
    const host = new URL(t.url).host;
    const health = await raw(
      `GET http://${host}/api/v1/utils/health-check/ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    );
    expect(health).toMatch(/^HTTP\/1\.1 200 /);
    expect(health.trim().endsWith('true')).toBe(true);
    const me = await raw(
      `GET http://${host}/api/v1/users/me HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
    );
    expect(me).toMatch(/^HTTP\/1\.1 200 /);
    expect(me).toContain(SUPERUSER.email);
    const graphql = await raw(
      `GET http://${host}/graphql?query=%7B__typename%7D HTTP/1.1\r\nHost: ${host}\r\nApollo-Require-Preflight: 1\r\nConnection: close\r\n\r\n`,
    );
    expect(graphql).toMatch(/^HTTP\/1\.1 200 /);
    expect(graphql).toContain('{"data":{"__typename":"Query"}}');
  });

  it.each([
    '//api/v1/users/',
    '///api/v1/users/me',
    '/api/',
    '/api/v2/users/',
    '/api/v1/nothing',
    '/graphql/x',
    '//graphql',
    '/%2fapi/v1/x',
    '/%2Fapi/v1/users/me',
    '/%2f%2Fgraphql',
    '/%5capi/v1/x',
    '/api%2fv1/x',
    '/%2fdocs',
    '/docs/nothing-here',
    '/assets/nothing-here.js',
  ])('%s answers a JSON 404, never the admin page', async (address) => {
    const answer = await call(t.url, 'GET', address, { token, headers: { accept: 'text/html' } });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ detail: 'Not Found' });
  });

  it('of screens still answer the admin page', async () => {
    const answer = await call(t.url, 'GET', '/clientes/', { headers: { accept: 'text/html' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/(html|plain)/);
  });
});

describe('answers read with a token', () => {
  it('carry Cache-Control: no-store on REST, whatever their status, and on every GraphQL answer', async () => {
    const answers = [
      await call(t.url, 'GET', '/api/v1/users/me', { token }),
      await call(t.url, 'GET', '/api/v1/items/', { token }),
      await call(t.url, 'GET', '/api/v1/items/not-an-id', { token }),
      await call(t.url, 'GET', '/api/v1/users/me', { token: 'not-a-token' }),
      await call(t.url, 'POST', '/api/v1/items/', { token, json: {} }),
      await call(t.url, 'GET', '/api/v1/nothing', { token }),
      await call(t.url, 'POST', '/graphql', { token, json: { query: '{ me { email } }' } }),
      await call(t.url, 'POST', '/graphql', { json: { query: '{ __typename }' } }),
      await call(t.url, 'GET', '/graphql?query=%7B__typename%7D', { headers: { 'Apollo-Require-Preflight': '1' } }),
      await call(t.url, 'POST', '/graphql', { token, json: { query: '{ nope }' } }),
    ];
    for (const answer of answers) expect(answer.headers.get('cache-control'), answer.text).toBe('no-store');
  });

  it('leave public REST answers as they were', async () => {
    const health = await call(t.url, 'GET', '/api/v1/utils/health-check/');
    expect(health.headers.get('cache-control')).toBeNull();
  });
});
