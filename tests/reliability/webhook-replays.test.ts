import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, sql } from '../support/database';
import { call } from '../support/gateway';
import { startNuvemshopApi, webhookSignature, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { recordFigures } from './support/figures';
import { productionFlags, startGatewayProcess, type GatewayProcess } from './support/gateway-process';

/**
 * Signed bodies can be captured and sent again by anyone, as often as they like: the signature covers the body and
 * nothing else. The built gateway, behind one trusted proxy so that each post comes from an address of its own, must
 * answer every one 200 (Nuvemshop must not retry) and store a bounded number of rows: one per body within minutes,
 * the day's cap per store, a few for a store no client has, and count what it dropped.
 */
const SECRET = 'app-secret-for-the-replays';
const CLIENT_STORE = 881_001;
const STRANGER = 881_999;
const PER_STORE_DAY = 300;
const UNKNOWN_PER_DAY = 20;
const APP = '/api/v1/webhooks/nuvemshop';

let database: { url: string; drop(): Promise<void> };
let api: NuvemshopApiStandIn;
let gateway: GatewayProcess;
let su: string;
let address = 0;

/** One signed post from an address of its own; the status, or 0 when the connection was cut before an answer. */
async function post(body: string): Promise<number> {
  const headers = {
    'Content-Type': 'application/json',
    'X-Forwarded-For': `10.${(++address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
    'X-Linkedstore-HMAC-SHA256': webhookSignature(body, SECRET),
  };
  try {
    const answer = await fetch(gateway.url + APP, { method: 'POST', headers, body });
    await answer.arrayBuffer();
    return answer.status;
  } catch {
    return 0;
  }
}

/** Sends `count` bodies, 16 at once; answers their statuses tallied and the seconds it took. */
async function flood(count: number, body: (i: number) => string) {
  const tally: Record<number, number> = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        const status = await post(body(next++));
        tally[status] = (tally[status] ?? 0) + 1;
      }
    }),
  );
  return { tally, seconds: (performance.now() - started) / 1000 };
}

const rowsOf = async (storeId: number) =>
  (
    await sql<{ n: number }>(database.url, `select count(*)::int as n from webhook_events where store_id = $1`, [
      storeId,
    ])
  )[0].n;

/** The store's day as staff read it on the "Webhooks por dia" screen (its REST list). */
async function dayOf(storeId: number) {
  const list = await call(gateway.url, 'GET', '/api/v1/webhook-days/?limit=1000', { token: su });
  expect(list.status).toBe(200);
  return (list.body.data as { store_id: number; recorded: number; dropped: number }[]).find(
    (d) => d.store_id === storeId,
  );
}

beforeAll(async () => {
  database = await createTestDatabase(inject('postgresUrl'));
  api = await startNuvemshopApi();
  const { token } = api.addStore(CLIENT_STORE);
  gateway = await startGatewayProcess(
    {
      DATABASE_URL: database.url,
      FIRST_SUPERUSER_PASSWORD: 'superuser-password',
      NUVEMSHOP_CLIENT_SECRET: SECRET,
      NUVEMSHOP_API_URL: api.url,
      PUBLIC_URL: 'https://integracao.test',
      TRUST_PROXY: '1',
      WEBHOOK_SIGNED_PER_STORE_DAY: String(PER_STORE_DAY),
      WEBHOOK_SIGNED_UNKNOWN_STORE_PER_DAY: String(UNKNOWN_PER_DAY),
    },
    60_000,
    productionFlags(),
  );
  const login = await call(gateway.url, 'POST', '/api/v1/login/access-token', {
    form: { username: 'admin@example.com', password: 'superuser-password' },
  });
  su = login.body.access_token;
  const created = await call(gateway.url, 'POST', '/api/v1/clients/', {
    token: su,
    json: { url: 'https://loja-do-eco.example', nuvemshop_store_id: CLIENT_STORE, nuvemshop_token: token },
  });
  expect(created.status).toBe(200);
});

afterAll(async () => {
  await gateway?.stop();
  await api?.close();
  await database?.drop();
});

describe('captured signed bodies sent again and again', () => {
  it('3,000 duplicates of one delivery add one row', async () => {
    const body = JSON.stringify({ store_id: CLIENT_STORE, event: 'order/paid', id: 4_000_001 });
    const { tally, seconds } = await flood(3000, () => body);
    expect(tally).toEqual({ 200: 3000 });
    expect(await rowsOf(CLIENT_STORE)).toBe(1);
    expect(await dayOf(CLIENT_STORE)).toMatchObject({ recorded: 1, dropped: 0 });
    recordFigures('webhook-duplicates', {
      webhookDuplicates: `3,000 duplicates of one signed order/paid in ${seconds.toFixed(1)} s: 1 row`,
    });
  });

  it('2,000 replays of 50 bodies for a store no client has add the few of its day, and count the rest', async () => {
    const { tally } = await flood(2000, (i) =>
      JSON.stringify({ store_id: STRANGER, event: 'order/updated', id: 5_000_000 + (i % 50) }),
    );
    expect(tally).toEqual({ 200: 2000 });
    expect(await rowsOf(STRANGER)).toBe(UNKNOWN_PER_DAY);
    // Each of the 30 bodies past the cap is dropped once: its replays within the window are the same delivery.
    expect(await dayOf(STRANGER)).toMatchObject({ recorded: UNKNOWN_PER_DAY, dropped: 50 - UNKNOWN_PER_DAY });
  });

  it('a client store’s distinct deliveries stop at the day’s cap, the dropped ones counted exactly', async () => {
    const SENT = 500;
    const { tally, seconds } = await flood(SENT, (i) =>
      JSON.stringify({ store_id: CLIENT_STORE, event: 'order/updated', id: 6_000_000 + i }),
    );
    expect(tally).toEqual({ 200: SENT });
    expect(gateway.exitCode()).toBeUndefined();
    expect(await rowsOf(CLIENT_STORE)).toBe(PER_STORE_DAY);
    // The one row of the first test counted against the same day.
    expect(await dayOf(CLIENT_STORE)).toMatchObject({ recorded: PER_STORE_DAY, dropped: SENT + 1 - PER_STORE_DAY });
    const [jobs] = await sql<{ n: number }>(database.url, `select count(*)::int as n from pgboss.job`);
    recordFigures('webhook-cap', {
      webhookCap: `${SENT} distinct signed deliveries of one store in ${seconds.toFixed(1)} s with a cap of ${PER_STORE_DAY}: ${PER_STORE_DAY} rows, ${SENT + 1 - PER_STORE_DAY} counted as dropped; ${jobs.n} jobs in the queue`,
    });
  });
});
