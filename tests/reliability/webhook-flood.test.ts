import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, sql } from '../support/database';
import { call } from '../support/gateway';
import { startNuvemshopApi, webhookSignature, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { recordFigures } from './support/figures';
import { productionFlags, startGatewayProcess, type GatewayProcess } from './support/gateway-process';

/**
 * Anyone may post to the webhook routes. The built gateway runs under production's heap flags behind one trusted
 * proxy, so that each request can come from an address of its own (the worst case: no per-address budget helps):
 * floods of large unsigned bodies must leave it answering, floods of small distinct ones must not fill the database
 * or the job queue, and a signed app event sent in the middle of one is handled within 5 seconds of its answer.
 */
const SECRET = 'app-secret-for-the-flood';
const STORE = 880_001;
const PER_STORE_DAY = 20;
const APP = '/api/v1/webhooks/nuvemshop';
const PRIVACY = [`${APP}/store-redact`, `${APP}/customers-data-request`];

let database: { url: string; drop(): Promise<void> };
let api: NuvemshopApiStandIn;
let gateway: GatewayProcess;
let address = 0;

const peakRss = (pid: number) =>
  Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** One post from an address of its own; the status, or 0 when the connection was cut before an answer. */
async function post(route: string, body: string, signature?: string): Promise<number> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Forwarded-For': `10.${(++address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
  };
  if (signature !== undefined) headers['X-Linkedstore-HMAC-SHA256'] = signature;
  try {
    const answer = await fetch(gateway.url + route, { method: 'POST', headers, body });
    await answer.arrayBuffer();
    return answer.status;
  } catch {
    return 0;
  }
}

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, s) => ({ ...counts, [s]: (counts[s] ?? 0) + 1 }), {});

beforeAll(async () => {
  database = await createTestDatabase(inject('postgresUrl'));
  api = await startNuvemshopApi();
  const { token } = api.addStore(STORE);
  gateway = await startGatewayProcess(
    {
      DATABASE_URL: database.url,
      FIRST_SUPERUSER_PASSWORD: 'superuser-password',
      NUVEMSHOP_CLIENT_SECRET: SECRET,
      NUVEMSHOP_API_URL: api.url,
      PUBLIC_URL: 'https://integracao.test',
      TRUST_PROXY: '1',
      WEBHOOK_UNSIGNED_PER_STORE_DAY: String(PER_STORE_DAY),
    },
    60_000,
    productionFlags(),
  );
  const login = await call(gateway.url, 'POST', '/api/v1/login/access-token', {
    form: { username: 'admin@example.com', password: 'superuser-password' },
  });
  const created = await call(gateway.url, 'POST', '/api/v1/clients/', {
    token: login.body.access_token,
    json: { url: 'https://loja-da-enchente.example', nuvemshop_store_id: STORE, nuvemshop_token: token },
  });
  expect(created.status).toBe(200);
});

afterAll(async () => {
  await gateway?.stop();
  await api?.close();
  await database?.drop();
});

describe('64 unsigned bodies of about 1 MB at once, three rounds, to the privacy routes', () => {
  it('leave the gateway alive and answering; none is read past 16 KB', async () => {
    const body = (i: number, kb: number) => `{"store_id": ${STORE}, "padding": "${'x'.repeat(kb * 1024)}", "n": ${i}}`;
    const megabyte = (i: number) => body(i, 1000);
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      statuses.push(...(await Promise.all(Array.from({ length: 64 }, (_, i) => post(PRIVACY[i % 2], megabyte(i))))));
    }
    // Bodies claiming a signature: read to check it (up to 256 KB), never parsed.
    const claimed = await Promise.all(
      Array.from({ length: 64 }, (_, i) => post(PRIVACY[i % 2], body(i, i % 2 ? 1000 : 250), 'ab'.repeat(32))),
    );
    expect(gateway.exitCode()).toBeUndefined();
    expect(statuses.every((s) => s === 413 || s === 503 || s === 0)).toBe(true);
    expect(claimed.every((s) => s === 401 || s === 413 || s === 429 || s === 0)).toBe(true);
    const health = await call(gateway.url, 'GET', '/api/v1/utils/health-check/');
    expect(health.body).toBe(true);
    expect(gateway.output.join('\n')).not.toMatch(/heap out of memory|heap limit/i);
    const peak = peakRss(gateway.child.pid!);
    recordFigures('webhook-crash', {
      webhookCrash: `192 unsigned bodies of 1,000 KB (64 at once): ${JSON.stringify(tally(statuses))}; 64 of 250 or 1,000 KB claiming a signature: ${JSON.stringify(tally(claimed))}; alive, peak RSS ${peak.toFixed(0)} MB (flags ${productionFlags().join(' ')})`,
    });
  });
});

describe('3,000 small distinct unsigned posts, each from its own address', () => {
  it('record at most the store’s daily few, queue no job, and a signed app event meanwhile is handled within 5 s', async () => {
    const SENT = 3000;
    const statuses: number[] = [];
    let next = 0;
    const started = performance.now();
    const flood = Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < SENT) {
          const i = next++;
          // Half to the client's store, half to stores nobody has.
          const store = i % 2 ? STORE : 5_000_000 + i;
          statuses.push(await post(PRIVACY[i % 2], JSON.stringify({ store_id: store, customer: { id: i } })));
        }
      }),
    );
    // In the middle of the flood, Nuvemshop's own signed delivery.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const event = JSON.stringify({ store_id: STORE, event: 'app/suspended', id: 1 });
    expect(await post(APP, event, webhookSignature(event, SECRET))).toBe(200);
    const answered = performance.now();
    const handled = async () =>
      (
        await sql<{ outcome: string }>(
          database.url,
          `select outcome from webhook_events where store_id = $1 and signed and event = 'app/suspended'`,
          [STORE],
        )
      )[0]?.outcome;
    await expect.poll(handled, { timeout: 5000, interval: 100 }).not.toBe('recorded');
    const signedHandledMs = performance.now() - answered;
    await flood;
    const seconds = (performance.now() - started) / 1000;

    expect(gateway.exitCode()).toBeUndefined();
    expect(tally(statuses)).toEqual({ 200: SENT });
    const [rows] = await sql<{ unsigned: number; all: number }>(
      database.url,
      `select count(*) filter (where not signed)::int as unsigned, count(*)::int as all from webhook_events`,
    );
    expect(rows.unsigned).toBe(PER_STORE_DAY);
    expect(rows.all).toBe(PER_STORE_DAY + 1);
    const [jobs] = await sql<{ n: number }>(
      database.url,
      `select count(*)::int as n from pgboss.job where name = 'webhook'`,
    );
    expect(jobs.n).toBe(1);
    recordFigures('webhook-filling', {
      webhookFilling: `${SENT} unsigned posts from ${SENT} addresses in ${seconds.toFixed(1)} s (${(SENT / seconds).toFixed(0)}/s): ${rows.unsigned} rows recorded, 0 jobs; a signed app/suspended sent meanwhile handled ${Math.round(signedHandledMs)} ms after its answer`,
    });
  });
});
