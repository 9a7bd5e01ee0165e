import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type Answer, type TestGateway } from '../support/gateway';
import { webhookSignature } from '../support/standins/nuvemshop-api';

/**
 * What a stranger may cost the webhook routes: the body of an unsigned request is read only when it may be taken,
 * up to a few KB, within its address's budget; an unsigned privacy request is recorded only for a client's store, a
 * few a day, and never queues a job. Each address is told apart by X-Forwarded-For behind one trusted proxy.
 */
const SECRET = 'app-secret-for-admission';
const APP = '/api/v1/webhooks/nuvemshop';
const REDACT = `${APP}/store-redact`;
const DATA_REQUEST = `${APP}/customers-data-request`;
const BUDGET = 5;
const PER_STORE_DAY = 3;

let t: TestGateway;
let superuser: string;
let address = 0;
/** A new address, as a proxy reports it. */
const newAddress = () => `198.51.100.${++address}`;

beforeAll(async () => {
  t = await startTestGateway({
    NUVEMSHOP_CLIENT_SECRET: SECRET,
    TRUST_PROXY: '1',
    RATE_LIMIT_WEBHOOK_UNSIGNED: String(BUDGET),
    WEBHOOK_UNSIGNED_PER_STORE_DAY: String(PER_STORE_DAY),
  });
  superuser = await t.superuserToken();
});
afterAll(() => t?.close());

function post(path: string, raw: string, from: string, signature?: string): Promise<Answer> {
  const headers: Record<string, string> = { 'X-Forwarded-For': from };
  if (signature !== undefined) headers['X-Linkedstore-HMAC-SHA256'] = signature;
  return t.request('POST', path, { raw, headers });
}

const webhookJobs = async () =>
  Number((await t.sql(`select count(*) as n from pgboss.job where name = 'webhook'`))[0].n);
const eventsOf = (storeId: number) =>
  t.sql<{ event: string; outcome: string; signed: boolean; client_id: string | null }>(
    'select event, outcome, signed, client_id from webhook_events where store_id = $1',
    [storeId],
  );

describe('an unsigned webhook', () => {
  it('to the app events is refused 401 before its body is read, however large', async () => {
    const answer = await post(APP, 'x'.repeat(2_000_000), newAddress());
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ detail: 'Invalid signature' });
  });

  it('is read up to 16 KB: past it 413, not recorded; a signed body of 100 KB is taken', async () => {
    const storeId = 7001;
    await t.request('POST', '/api/v1/clients/', {
      token: superuser,
      json: { url: 'https://loja-7001.example', nuvemshop_store_id: storeId },
    });
    const padding = 'p'.repeat(17 * 1024);
    const unsigned = await post(REDACT, JSON.stringify({ store_id: storeId, padding }), newAddress());
    expect(unsigned.status).toBe(413);
    expect(unsigned.body).toEqual({ detail: 'Request body is too large' });
    expect(await eventsOf(storeId)).toEqual([]);

    const body = JSON.stringify({ store_id: storeId, customer: { id: 1 }, padding: 'p'.repeat(100 * 1024) });
    const signed = await post(DATA_REQUEST, body, newAddress(), webhookSignature(body, SECRET));
    expect(signed.status).toBe(200);
    expect((await eventsOf(storeId)).map((r) => [r.event, r.signed])).toEqual([['customers/data_request', true]]);
  });

  it('spends its address’s budget: past it 429 with Retry-After, unread; other addresses are not held back', async () => {
    const from = newAddress();
    for (let i = 0; i < BUDGET; i++) {
      expect((await post(REDACT, JSON.stringify({ store_id: 424242, n: i }), from)).status).toBe(200);
    }
    const refused = await post(REDACT, JSON.stringify({ store_id: 424242 }), from);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: 'Too many requests' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Refused before a byte is read: a body far past every limit gets the same answer.
    expect((await post(REDACT, 'x'.repeat(2_000_000), from)).status).toBe(429);
    expect((await post(REDACT, JSON.stringify({ store_id: 424242 }), newAddress())).status).toBe(200);
  });

  it('failed signatures spend the same budget; then a body claiming a signature is refused unread', async () => {
    const from = newAddress();
    const body = JSON.stringify({ store_id: 424243, event: 'app/suspended', id: 1 });
    for (let i = 0; i < BUDGET; i++) expect((await post(APP, body, from, 'ab'.repeat(32))).status).toBe(401);
    expect((await post(APP, 'x'.repeat(2_000_000), from, 'ab'.repeat(32))).status).toBe(429);
  });

  it('is recorded as unsigned, only for a client’s store and a few a day, and queues no job', async () => {
    const storeId = 7002;
    await t.request('POST', '/api/v1/clients/', {
      token: superuser,
      json: { url: 'https://loja-7002.example', nuvemshop_store_id: storeId },
    });
    const jobsBefore = await webhookJobs();
    const answers = await Promise.all(
      Array.from({ length: PER_STORE_DAY + 4 }, (_, i) =>
        post(i % 2 ? REDACT : DATA_REQUEST, JSON.stringify({ store_id: storeId, n: i }), newAddress()),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const rows = await eventsOf(storeId);
    expect(rows).toHaveLength(PER_STORE_DAY);
    expect(rows.every((r) => r.outcome === 'unsigned' && !r.signed && r.client_id !== null)).toBe(true);

    // A store no client has: answered alike, nothing kept.
    const stranger = await post(REDACT, JSON.stringify({ store_id: 999_999_001 }), newAddress());
    expect(stranger.status).toBe(200);
    expect(stranger.body).toEqual({ message: 'Webhook received' });
    expect(await eventsOf(999_999_001)).toEqual([]);
    expect(await webhookJobs()).toBe(jobsBefore);
  });

  it('is parsed a few at a time: past those running and those waiting, 503 with Retry-After', async () => {
    // A store whose unsigned requests are held in their transaction: the first four run and wait there.
    const storeId = 7003;
    const holder = new Client({ connectionString: t.databaseUrl });
    await holder.connect();
    await holder.query(`select pg_advisory_lock(hashtextextended('unsigned webhooks ' || $1, 0))`, [storeId]);
    try {
      const held = Array.from({ length: 4 + 64 }, (_, i) =>
        post(REDACT, JSON.stringify({ store_id: storeId, n: i }), newAddress()),
      );
      // Every one of them is running or waiting before the next arrives.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const refused = await post(REDACT, JSON.stringify({ store_id: storeId }), newAddress());
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ detail: 'Too many unsigned webhooks are waiting; try again shortly' });
      expect(refused.headers.get('retry-after')).toBe('5');
      await holder.query(`select pg_advisory_unlock(hashtextextended('unsigned webhooks ' || $1, 0))`, [storeId]);
      expect((await Promise.all(held)).map((a) => a.status)).toEqual(Array(68).fill(200));
    } finally {
      await holder.end();
    }
  });
});
