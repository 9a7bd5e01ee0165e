import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type Answer, type TestGateway } from '../support/gateway';
import { webhookSignature } from '../support/standins/nuvemshop-api';

/**
 * A budget that guards work is spent before the work: requests sent all at once from one address, or at one account
 * from many, get exactly the budget's worth of checks, however many there are. Each address is told apart by
 * X-Forwarded-For behind one trusted proxy.
 */
const SECRET = 'app-secret-for-budgets';
const APP = '/api/v1/webhooks/nuvemshop';
const WEBHOOK_BUDGET = 5;
const EMAIL_BUDGET = 4;
const ACCOUNT_BUDGET = 6;
const AT_ONCE = 30;

let t: TestGateway;
let address = 0;
const newAddress = () => `198.51.100.${++address}`;

beforeAll(async () => {
  t = await startTestGateway({
    NUVEMSHOP_CLIENT_SECRET: SECRET,
    TRUST_PROXY: '1',
    RATE_LIMIT_WEBHOOK_UNSIGNED: String(WEBHOOK_BUDGET),
    RATE_LIMIT_LOGIN: '1000',
    RATE_LIMIT_LOGIN_EMAIL: String(EMAIL_BUDGET),
    RATE_LIMIT_LOGIN_ACCOUNT: String(ACCOUNT_BUDGET),
  });
});
afterAll(() => t?.close());

const statuses = (answers: Answer[]) =>
  answers.reduce<Record<number, number>>((counts, a) => ({ ...counts, [a.status]: (counts[a.status] ?? 0) + 1 }), {});

function webhook(from: string, body: string, signature: string): Promise<Answer> {
  return t.request('POST', APP, {
    raw: body,
    headers: { 'X-Forwarded-For': from, 'X-Linkedstore-HMAC-SHA256': signature },
  });
}

function login(from: string, username: string, password: string): Promise<Answer> {
  return t.request('POST', '/api/v1/login/access-token', {
    form: { username, password },
    headers: { 'X-Forwarded-For': from },
  });
}

describe('webhook signatures sent at once from one address', () => {
  it(`check ${WEBHOOK_BUDGET} wrong signatures of ${AT_ONCE}; the rest are refused 429 unread`, async () => {
    const from = newAddress();
    const body = JSON.stringify({ store_id: 515_001, event: 'app/suspended', id: 1 });
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => webhook(from, body, 'ab'.repeat(32))));
    expect(statuses(answers)).toEqual({ 401: WEBHOOK_BUDGET, 429: AT_ONCE - WEBHOOK_BUDGET });
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.body).toEqual({ detail: 'Too many requests' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    for (const checked of answers.filter((a) => a.status === 401)) {
      expect(checked.body).toEqual({ detail: 'Invalid signature' });
    }
  });

  it('that hold give their reservation back: Nuvemshop’s deliveries never spend the budget', async () => {
    const from = newAddress();
    const bodies = Array.from({ length: AT_ONCE }, (_, i) =>
      JSON.stringify({ store_id: 515_002, event: 'app/uninstalled', id: 100 + i }),
    );
    // A budget's worth at a time, round after round: six budgets in all, every one taken.
    const valid: Answer[] = [];
    for (let round = 0; round * WEBHOOK_BUDGET < AT_ONCE; round++) {
      const share = bodies.slice(round * WEBHOOK_BUDGET, (round + 1) * WEBHOOK_BUDGET);
      valid.push(...(await Promise.all(share.map((body) => webhook(from, body, webhookSignature(body, SECRET))))));
    }
    expect(statuses(valid)).toEqual({ 200: AT_ONCE });
    // All of the address's budget is still there for failures.
    const body = bodies[0];
    const wrong = await Promise.all(
      Array.from({ length: WEBHOOK_BUDGET + 3 }, () => webhook(from, body, 'cd'.repeat(32))),
    );
    expect(statuses(wrong)).toEqual({ 401: WEBHOOK_BUDGET, 429: 3 });
  });
});

describe('wrong passwords sent at once', () => {
  it(`from one address at one email: ${EMAIL_BUDGET} checked of ${AT_ONCE}, the rest 429`, async () => {
    const { email } = await t.createUser();
    const from = newAddress();
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => login(from, email, 'not-the-password')));
    expect(statuses(answers)).toEqual({ 400: EMAIL_BUDGET, 429: AT_ONCE - EMAIL_BUDGET });
    expect(answers.find((a) => a.status === 400)!.body).toEqual({ detail: 'Incorrect email or password' });
    expect(answers.find((a) => a.status === 429)!.body).toEqual({ detail: 'Too many requests' });
  });

  it(`from ${AT_ONCE} addresses at one account: ${ACCOUNT_BUDGET} checked, the rest 429; the owner still signs in`, async () => {
    const { email } = await t.createUser(undefined, 'the-owners-password');
    // The owner signs in first, from home: an address the account knows.
    const home = newAddress();
    expect((await login(home, email, 'the-owners-password')).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, () => login(newAddress(), email, 'not-the-password')),
    );
    expect(statuses(answers)).toEqual({ 400: ACCOUNT_BUDGET, 429: AT_ONCE - ACCOUNT_BUDGET });
    expect((await login(home, email, 'the-owners-password')).status).toBe(200);
  });

  it('a right password gives back what it reserved on the account', async () => {
    const { email } = await t.createUser(undefined, 'the-owners-password');
    // Each sign-in from a new address reserves a failure on the account and gives it back.
    for (let i = 0; i < ACCOUNT_BUDGET + 2; i++) {
      expect((await login(newAddress(), email, 'the-owners-password')).status).toBe(200);
    }
    const wrong = await Promise.all(
      Array.from({ length: ACCOUNT_BUDGET + 2 }, () => login(newAddress(), email, 'not-the-password')),
    );
    expect(statuses(wrong)).toEqual({ 400: ACCOUNT_BUDGET, 429: 2 });
  });
});
