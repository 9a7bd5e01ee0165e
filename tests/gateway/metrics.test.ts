import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { register as globalRegistry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../gateway/config';
import { GatewayMetrics } from '../../gateway/metrics/gateway-metrics';
import { NuvemshopClient } from '../../gateway/platforms/nuvemshop.client';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';

const TOKEN = 'a-metrics-token-for-the-tests-0123456789';
const USER_AGENT = 'Sistema de Integracao (admin@example.com)';

/** One sample of Prometheus' text format: its name, its labels and its value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Reads Prometheus' text format, refusing any line that is neither a comment nor a sample. */
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, name, value] of (match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) {
        labels[name] = value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      }
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

/** The samples named `name` whose labels include `labels`. */
const samplesOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

/** The one sample named `name` with exactly these labels' values, or undefined. */
const valueOf = (samples: Sample[], name: string, labels: Record<string, string>) => {
  const found = samplesOf(samples, name, labels);
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
};

let t: TestGateway;
let off: TestGateway;
let nuvemshop: NuvemshopApiStandIn;

beforeAll(async () => {
  [t, off, nuvemshop] = await Promise.all([
    startTestGateway({ METRICS_TOKEN: TOKEN }),
    startTestGateway(),
    startNuvemshopApi({ bucket: { size: 40, drainPerSecond: 40 } }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), off?.close(), nuvemshop?.close()]);
});

/** A scrape with the token: its samples. */
async function scrape(): Promise<Sample[]> {
  const answer = await t.request('GET', '/metrics', { token: TOKEN });
  expect(answer.status).toBe(200);
  return parse(answer.text);
}

describe('/metrics without METRICS_TOKEN', () => {
  it('is an unknown address: the same 404 as one, with or without a token', async () => {
    const unknown = await off.request('GET', '/api/v1/no-such-address');
    expect(unknown.status).toBe(404);
    for (const token of [undefined, TOKEN]) {
      const answer = await off.request('GET', '/metrics', { token });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(unknown.body);
      expect(answer.headers.get('content-type')).toBe(unknown.headers.get('content-type'));
      expect(answer.text).not.toContain('http_requests_total');
    }
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  it('answers 401 with WWW-Authenticate: Bearer without the token or with another', async () => {
    const cases = [
      [undefined, 'Not authenticated'],
      ['not-the-token', 'Could not validate credentials'],
      // The token's start only: a comparison of the shorter length would take it.
      [TOKEN.slice(0, 16), 'Could not validate credentials'],
      [`${TOKEN}x`, 'Could not validate credentials'],
    ] as const;
    for (const [token, detail] of cases) {
      const answer = await t.request('GET', '/metrics', { token });
      expect(answer.status, token).toBe(401);
      expect(answer.body).toEqual({ detail });
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
      expect(answer.text).not.toContain('http_requests_total');
    }
    const basic = await t.request('GET', '/metrics', { headers: { Authorization: `Basic ${TOKEN}` } });
    expect(basic.status).toBe(401);
  });

  it("answers Prometheus' text format, Node's process metrics included, kept by no cache", async () => {
    const answer = await t.request('GET', '/metrics', { token: TOKEN });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(globalRegistry.contentType);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.text).toMatch(/^# TYPE http_requests_total counter$/m);
    expect(answer.text).toMatch(/^# TYPE http_request_duration_seconds histogram$/m);
    const samples = parse(answer.text);
    expect(samplesOf(samples, 'process_cpu_user_seconds_total')).toHaveLength(1);
    expect(samplesOf(samples, 'nodejs_heap_size_used_bytes')).toHaveLength(1);
  });

  it('counts requests by their route’s pattern, never by their address', async () => {
    const su = await t.superuserToken();
    const ids = [randomUUID(), randomUUID()];
    const route = { method: 'GET', route: '/api/v1/clients/:id' };
    const before = await scrape();
    for (const id of ids) expect((await t.request('GET', `/api/v1/clients/${id}`, { token: su })).status).toBe(404);
    await t.request('GET', '/api/v1/no-such-address');
    const after = await scrape();

    const counted = (samples: Sample[], labels: Record<string, string>) =>
      valueOf(samples, 'http_requests_total', labels) ?? 0;
    expect(counted(after, { ...route, status: '404' }) - counted(before, { ...route, status: '404' })).toBe(2);
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    expect(counted(after, unmatched) - counted(before, unmatched)).toBe(1);
    const timed = (samples: Sample[]) => valueOf(samples, 'http_request_duration_seconds_count', route) ?? 0;
    expect(timed(after) - timed(before)).toBe(2);
    const withinTimeout = valueOf(after, 'http_request_duration_seconds_bucket', { ...route, le: '30' });
    expect(withinTimeout).toBe(timed(after));
    // The sign-in and the scrape before are counted too, each by its route.
    expect(counted(after, { method: 'POST', route: '/api/v1/login/access-token', status: '200' })).toBeGreaterThan(0);
    expect(counted(after, { method: 'GET', route: '/metrics', status: '200' })).toBeGreaterThan(0);

    const routes = new Set(samplesOf(after, 'http_requests_total').map((s) => s.labels.route));
    for (const id of ids) expect([...routes].filter((r) => r.includes(id))).toEqual([]);
    expect([...routes].filter((r) => !r.startsWith('/') && r !== 'unmatched')).toEqual([]);
  });

  it('shows the jobs of every queue by state, read when scraped', async () => {
    const state = (samples: Sample[], name: string) => valueOf(samples, 'jobs', { queue: 'mail', state: name });
    const before = await scrape();
    expect(state(before, 'active')).toBe(0);
    expect(state(before, 'failed')).toBe(0);
    await t.sql(`insert into pgboss.job (name, data, state) values ('mail', '{}', 'failed'), ('mail', '{}', 'failed')`);
    // Waiting a day for its start: no worker takes it meanwhile.
    await t.sql(`insert into pgboss.job (name, data, start_after) values ('mail', '{}', now() + interval '1 day')`);
    const after = await scrape();
    expect(state(after, 'failed')).toBe(2);
    expect(state(after, 'queued')).toBe((state(before, 'queued') ?? 0) + 1);
    const queues = new Set(samplesOf(after, 'jobs').map((s) => s.labels.queue));
    expect(queues).toContain('sync');
    expect(queues).toContain('order');
    expect([...queues].filter((queue) => queue.startsWith('__pgboss__'))).toEqual([]);
    for (const queue of queues) {
      expect(
        samplesOf(after, 'jobs', { queue })
          .map((s) => s.labels.state)
          .sort(),
      ).toEqual(['active', 'failed', 'queued']);
    }
  });

  it('shows the runs by kind and status and the orders by state, read when scraped', async () => {
    const [client] = await t.sql<{ id: string }>(
      `insert into clients (id, url, created_at) values (gen_random_uuid(), 'https://metrics.example', now())
        returning id`,
    );
    const run = (kind: string, state: string) =>
      t.sql<{ id: string }>(
        `insert into sync_runs (id, client_id, kind, trigger, state, queued_at, finished_at, errors)
          values (gen_random_uuid(), $1, $2, 'manual', $3, now(), now(), '[]') returning id`,
        [client.id, kind, state],
      );
    const order = (state: string, number: number) =>
      t.sql(
        `insert into orders (id, client_id, nuvemshop_order_id, state, lines, history, received_at, updated_at)
          values (gen_random_uuid(), $1, $2, $3, '[]', '[]', now(), now())`,
        [client.id, number, state],
      );
    const before = await scrape();
    const [failed] = await run('catalogue', 'failed');
    await run('stock', 'succeeded');
    await run('stock', 'succeeded');
    await order('held', 9001);
    await order('held', 9002);
    await order('sent', 9003);
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string>) =>
      (valueOf(after, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);
    expect(delta('sync_runs', { kind: 'catalogue', status: 'failed' })).toBe(1);
    expect(delta('sync_runs', { kind: 'stock', status: 'succeeded' })).toBe(2);
    expect(delta('orders', { state: 'held' })).toBe(2);
    expect(delta('orders', { state: 'sent' })).toBe(1);

    // A state whose rows are gone reads 0, rather than vanishing from the scrape.
    await t.sql(`delete from sync_runs where id = $1`, [failed.id]);
    const later = await scrape();
    expect(valueOf(before, 'sync_runs', { kind: 'catalogue', status: 'failed' })).toBeUndefined();
    expect(valueOf(later, 'sync_runs', { kind: 'catalogue', status: 'failed' })).toBe(0);
  });

  it('shows how long Nuvemshop calls waited for the store’s bucket, a 429’s wait apart', async () => {
    const storeId = 7100;
    const store = nuvemshop.addStore(storeId);
    const client = new NuvemshopClient({ baseUrl: nuvemshop.url, userAgent: USER_AGENT, timeoutMs: 5000 }).store(
      storeId,
      store.token,
    );
    const waits = (samples: Sample[], suffix: '_count' | '_sum', reason: string) =>
      valueOf(samples, `nuvemshop_bucket_wait_seconds${suffix}`, { reason }) ?? 0;
    const before = await scrape();
    nuvemshop.inject({ store: storeId, path: '/store', status: 429 });
    expect((await client.getStore()).id).toBe(storeId);
    expect(nuvemshop.requestsOf(storeId).map((r) => r.status)).toEqual([429, 200]);
    const after = await scrape();

    expect(waits(after, '_count', 'bucket') - waits(before, '_count', 'bucket')).toBe(1);
    expect(waits(after, '_count', '429') - waits(before, '_count', '429')).toBe(1);
    // The forced 429 filled the bucket: 40 requests draining 40 a second is a reset of a second.
    expect(waits(after, '_sum', '429') - waits(before, '_sum', '429')).toBeGreaterThan(0.9);
    expect(waits(after, '_sum', 'bucket') - waits(before, '_sum', 'bucket')).toBeLessThan(0.5);
  });

  it('answers the rest of a scrape when one count cannot be read, and says which', async () => {
    const lines: string[] = [];
    const log = pino(
      { level: 'warn' },
      new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString()), done()) }),
    );
    const metrics = new GatewayMetrics(async (statement) => {
      if (/from orders/.test(statement)) throw new Error('relation "orders" does not exist');
      return t.sql(statement);
    }, log);
    metrics.request('GET', '/api/v1/clients/:id', 200, 0.01);
    const text = await metrics.text();
    const samples = parse(text);
    expect(valueOf(samples, 'http_requests_total', { route: '/api/v1/clients/:id', status: '200' })).toBe(1);
    expect(samplesOf(samples, 'jobs', { queue: 'mail' }).length).toBe(3);
    expect(samplesOf(samples, 'sync_runs').length).toBeGreaterThan(0);
    expect(text).toMatch(/^# TYPE orders gauge$/m);
    expect(samplesOf(samples, 'orders')).toEqual([]);
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { level: 40, metric: 'orders', err: { message: 'relation "orders" does not exist' } },
    ]);
  });
});

describe('METRICS_TOKEN', () => {
  const production = {
    NODE_ENV: 'production',
    SECRET_KEY: 'a-production-secret-key-of-some-length',
    FIRST_SUPERUSER_PASSWORD: 'a-production-password',
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    FRONTEND_HOST: 'https://admin.integracao.example',
    CHECKOUT_URL: 'https://pay.integracao.example/checkout',
  };

  it('is off unless set, and production refuses a short one, naming it', () => {
    expect(loadConfig(production).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ ...production, METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ ...production, METRICS_TOKEN: 'x'.repeat(16) }).METRICS_TOKEN).toBe('x'.repeat(16));
    expect(() => loadConfig({ ...production, METRICS_TOKEN: 'x'.repeat(15) })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, METRICS_TOKEN: 'x'.repeat(15) })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ METRICS_TOKEN: 'short' }).METRICS_TOKEN).toBe('short');
    expect(() => loadConfig({ METRICS_TOKEN: 'two words' })).toThrow(/METRICS_TOKEN/);
  });
});
