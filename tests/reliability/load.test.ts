import http from 'node:http';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '../support/database';
import { refusal, startNuvemshopStandIn, type NuvemshopStandIn } from '../support/nuvemshop';
import { recordFigures } from './support/figures';
import { productionFlags, startGatewayProcess, type GatewayProcess } from './support/gateway-process';

/**
 * Waves of 10,000 requests at once to every anonymous route, from one loopback address and from 1,000 (Linux lets a
 * socket bind any address of 127.0.0.0/8), against the production build under production's heap flags and
 * NODE_ENV=production. The gateway must stay up, answer every request it cannot take 503 with Retry-After and a
 * `detail`, never a 500, and keep answering its health check.
 */
const WAVE = 10_000;
const ADDRESSES = 1_000;
/** A request of the wave gives up after this long; the wave cannot outlast it by much. */
const REQUEST_TIMEOUT_MS = 30_000;
const SECRET = 'load-test-app-secret';
const WRONG_SIGNATURE = 'ab'.repeat(32);

interface Shot {
  name: string;
  method: string;
  path: (i: number) => string;
  body?: (i: number) => string;
  headers?: Record<string, string>;
}

const json = { 'Content-Type': 'application/json' };
const signedWrong = { ...json, 'X-Linkedstore-HMAC-SHA256': WRONG_SIGNATURE };
const privacy = JSON.stringify({ store_id: 990_001, customer: { id: 1 } });
const appEvent = JSON.stringify({ store_id: 990_001, event: 'app/uninstalled', id: 1 });

/** Every route a stranger may call, as a stranger calls it. */
const SHOTS: Shot[] = [
  {
    name: 'login',
    method: 'POST',
    path: () => '/api/v1/login/access-token',
    body: () => 'username=victim%40example.com&password=not-the-password',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  },
  {
    name: 'signup',
    method: 'POST',
    path: () => '/api/v1/users/signup',
    body: (i) => JSON.stringify({ email: `load-${i}@example.com`, password: 'a-good-password' }),
    headers: json,
  },
  { name: 'recovery', method: 'POST', path: () => '/api/v1/password-recovery/victim@example.com' },
  {
    name: 'reset',
    method: 'POST',
    path: () => '/api/v1/reset-password/',
    body: () => JSON.stringify({ token: 'not-a-token', new_password: 'a-new-password' }),
    headers: json,
  },
  {
    name: 'callback',
    method: 'POST',
    path: () => '/api/v1/callback/authorize',
    body: (i) => JSON.stringify({ code: `refused-${i}` }),
    headers: json,
  },
  {
    name: 'webhook signed wrong',
    method: 'POST',
    path: () => '/api/v1/webhooks/nuvemshop',
    body: () => appEvent,
    headers: signedWrong,
  },
  {
    name: 'webhook unsigned',
    method: 'POST',
    path: () => '/api/v1/webhooks/nuvemshop',
    body: () => appEvent,
    headers: json,
  },
  {
    name: 'privacy signed wrong',
    method: 'POST',
    path: () => '/api/v1/webhooks/nuvemshop/customers-redact',
    body: () => privacy,
    headers: signedWrong,
  },
  {
    name: 'privacy unsigned',
    method: 'POST',
    path: () => '/api/v1/webhooks/nuvemshop/customers-data-request',
    body: () => privacy,
    headers: json,
  },
  { name: 'health check', method: 'GET', path: () => '/api/v1/utils/health-check/' },
  {
    name: 'graphql',
    method: 'POST',
    path: () => '/graphql',
    body: () => JSON.stringify({ query: '{ __typename }' }),
    headers: json,
  },
];

interface Outcome {
  shot: string;
  /** 0 when the connection was refused, cut or timed out before an answer. */
  status: number;
  retryAfter?: string;
  detail?: unknown;
}

let database: { url: string; drop(): Promise<void> };
let nuvemshop: NuvemshopStandIn;
let gateway: GatewayProcess;
let port: number;

/** One request from `localAddress`, on a connection of its own. */
function send(shot: Shot, i: number, localAddress: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const body = shot.body?.(i);
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        agent: false,
        method: shot.method,
        path: shot.path(i),
        headers: { ...shot.headers, ...(body === undefined ? {} : { 'Content-Length': Buffer.byteLength(body) }) },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', () => resolve({ shot: shot.name, status: 0 }));
        response.on('end', () => {
          let detail: unknown;
          try {
            detail = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { detail?: unknown }).detail;
          } catch {
            // not JSON: no detail to keep
          }
          const retryAfter = response.headers['retry-after'];
          resolve({ shot: shot.name, status: response.statusCode ?? 0, retryAfter, detail });
        });
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve({ shot: shot.name, status: 0 }));
    request.end(body);
  });
}

const peakRss = (pid: number) =>
  Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** The health check, asked every 200 ms from an address of its own while `during` runs; each answer's status. */
async function probing(during: Promise<unknown>): Promise<{ status: number; ms: number }[]> {
  const probes: { status: number; ms: number }[] = [];
  let done = false;
  void during.finally(() => (done = true));
  const health = SHOTS.find((s) => s.name === 'health check')!;
  while (!done) {
    const started = performance.now();
    const { status } = await send(health, 0, '127.0.200.1');
    probes.push({ status, ms: performance.now() - started });
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return probes;
}

/** WAVE requests at once, spread over every shot, each from `addressOf(i)`. */
async function wave(addressOf: (i: number) => string) {
  const started = performance.now();
  const sent = Promise.all(Array.from({ length: WAVE }, (_, i) => send(SHOTS[i % SHOTS.length], i, addressOf(i))));
  const [outcomes, probes] = await Promise.all([sent, probing(sent)]);
  return { outcomes, probes, seconds: (performance.now() - started) / 1000 };
}

function tally(outcomes: Outcome[]): Record<string, Record<number, number>> {
  const byShot: Record<string, Record<number, number>> = {};
  for (const { shot, status } of outcomes) {
    const counts = (byShot[shot] ??= {});
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return byShot;
}

/** What every wave must leave true: the process up and answering, and no answer a 5xx other than a 503 that says why. */
async function expectHeld(outcomes: Outcome[]) {
  expect(gateway.exitCode(), gateway.output.slice(-3).join('\n')).toBeUndefined();
  expect(gateway.output.join('\n')).not.toMatch(/heap limit|heap out of memory|FATAL/i);
  const failures = outcomes.filter((o) => o.status >= 500 && o.status !== 503);
  expect(failures).toEqual([]);
  for (const refused of outcomes.filter((o) => o.status === 503)) {
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.detail).toEqual(expect.any(String));
  }
  // A connection past MAX_CONNECTIONS is closed unanswered (0 here); of those taken, the bounds turned some away.
  expect(outcomes.some((o) => o.status === 503)).toBe(true);
  const health = await send(
    SHOTS.find((s) => s.name === 'health check')!,
    0,
    '127.0.200.2',
  );
  expect(health.status).toBe(200);
}

const summary = (result: Awaited<ReturnType<typeof wave>>) => {
  const statuses: Record<number, number> = {};
  for (const { status } of result.outcomes) statuses[status] = (statuses[status] ?? 0) + 1;
  const answered = result.probes.filter((p) => p.status === 200);
  const slowest = Math.max(0, ...answered.map((p) => p.ms));
  return (
    `${WAVE} requests in ${result.seconds.toFixed(1)} s: ${JSON.stringify(statuses)}; health check during it ` +
    `${answered.length} of ${result.probes.length} answered 200, slowest ${Math.round(slowest)} ms; ` +
    `peak RSS ${peakRss(gateway.child.pid!).toFixed(0)} MB`
  );
};

beforeAll(async () => {
  database = await createTestDatabase(inject('postgresUrl'));
  nuvemshop = await startNuvemshopStandIn(() => refusal());
});

// A gateway of its own for each wave: what one wave did to a process is not the next one's starting point.
beforeEach(async () => {
  gateway = await startGatewayProcess(
    {
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      SECRET_KEY: 'a-production-secret-key-for-the-load-test',
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      FIRST_SUPERUSER_PASSWORD: 'superuser-password',
      FRONTEND_HOST: 'https://integracao.test',
      CHECKOUT_URL: 'https://integracao.test/pagamento',
      NUVEMSHOP_CLIENT_ID: '4242',
      NUVEMSHOP_CLIENT_SECRET: SECRET,
      NUVEMSHOP_TOKEN_URL: nuvemshop.url,
    },
    60_000,
    productionFlags(),
  );
  port = Number(new URL(gateway.url).port);
});

afterEach(async () => {
  await gateway?.stop();
});

afterAll(async () => {
  await nuvemshop?.close();
  await database?.drop();
});

describe(`${WAVE} requests at once to every anonymous route`, () => {
  it('from one address: the gateway stays up, refuses what it cannot take with 503 and answers its health check', async () => {
    const result = await wave(() => '127.0.0.1');
    console.log(summary(result), tally(result.outcomes));
    await expectHeld(result.outcomes);
    // One address never has more than its share in flight: most of what was taken of its wave is turned away unread.
    const answered = result.outcomes.filter((o) => o.status !== 0);
    expect(answered.filter((o) => o.status === 503).length).toBeGreaterThan(answered.length / 2);
    recordFigures('load-one-address', { loadOneAddress: summary(result) });
  });

  it(`from ${ADDRESSES} addresses: the same`, async () => {
    const result = await wave((i) => `127.1.${Math.floor((i % ADDRESSES) / 250)}.${((i % ADDRESSES) % 250) + 1}`);
    console.log(summary(result), tally(result.outcomes));
    await expectHeld(result.outcomes);
    recordFigures('load-many-addresses', { loadManyAddresses: summary(result) });
  });
});
