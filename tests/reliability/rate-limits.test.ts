import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '../support/database';
import { recordFigures } from './support/figures';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process';
import { call } from '../support/gateway';

const SIGNUP_BUDGET = 6;
const LOGIN_BUDGET = 8;

let database: { url: string; drop(): Promise<void> };
const gateways: GatewayProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase(inject('postgresUrl'));
  const env = {
    DATABASE_URL: database.url,
    FIRST_SUPERUSER_PASSWORD: 'superuser-password',
    RATE_LIMIT_WINDOW_SECONDS: '600',
    RATE_LIMIT_SIGNUP: String(SIGNUP_BUDGET),
    RATE_LIMIT_LOGIN: String(LOGIN_BUDGET),
    RATE_LIMIT_LOGIN_EMAIL: '1000',
  };
  // One after the other: the first applies the migrations, the second finds them applied.
  gateways.push(await startGatewayProcess(env));
  gateways.push(await startGatewayProcess(env));
});

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  await database?.drop();
});

describe('rate limits shared by two gateway processes on one database', () => {
  it('runs two separate processes', () => {
    expect(gateways).toHaveLength(2);
    expect(gateways[0].child.pid).not.toBe(gateways[1].child.pid);
    expect(gateways[0].url).not.toBe(gateways[1].url);
  });

  it('spends one signup budget whichever process answers', async () => {
    const answers = [];
    for (let i = 0; i < SIGNUP_BUDGET * 2; i++) {
      const gateway = gateways[i % 2];
      const answer = await call(gateway.url, 'POST', '/api/v1/users/signup', {
        json: { email: `shared-budget-${i}@example.com`, password: 'a-good-password' },
      });
      answers.push({
        process: i % 2,
        status: answer.status,
        detail: answer.body?.detail,
        retry: answer.headers.get('retry-after'),
      });
    }
    const allowed = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    // Two budgets of their own would have let all twelve through.
    expect(allowed).toHaveLength(SIGNUP_BUDGET);
    expect(limited).toHaveLength(SIGNUP_BUDGET);
    expect(answers.slice(0, SIGNUP_BUDGET).every((a) => a.status === 200)).toBe(true);
    for (const a of limited) {
      expect(a.detail).toBe('Too many requests');
      expect(Number(a.retry)).toBeGreaterThan(0);
    }
    // Each process refused some: the counter the other one spent is the one it reads.
    expect(new Set(limited.map((a) => a.process))).toEqual(new Set([0, 1]));
  });

  it('keeps the login budget exact under a parallel burst on both processes', async () => {
    const burst = await Promise.all(
      Array.from({ length: LOGIN_BUDGET * 3 }, (_, i) =>
        call(gateways[i % 2].url, 'POST', '/api/v1/login/access-token', {
          form: { username: 'nobody@example.com', password: 'not-the-password' },
        }),
      ),
    );
    const statuses = burst.map((a) => a.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(LOGIN_BUDGET);
    expect(statuses.filter((s) => s === 429)).toHaveLength(LOGIN_BUDGET * 2);
    recordFigures('rate-limits', {
      rateLimitBudget: `signup ${SIGNUP_BUDGET}, login ${LOGIN_BUDGET} per window`,
      rateLimitAllowed: `signup ${SIGNUP_BUDGET} of ${SIGNUP_BUDGET * 2}, login ${LOGIN_BUDGET} of ${LOGIN_BUDGET * 3}`,
    });
  });
});
