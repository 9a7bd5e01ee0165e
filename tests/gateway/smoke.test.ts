import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway();
});
afterAll(() => t?.close());

describe('gateway start', () => {
  it('answers the health check', async () => {
    const answer = await t.request('GET', '/api/v1/utils/health-check/');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(true);
  });

  it('created the first superuser from the configuration', async () => {
    const token = await t.superuserToken();
    const me = await t.request('GET', '/api/v1/users/me', { token });
    expect(me.body).toMatchObject({ email: 'admin@example.com', is_superuser: true, is_active: true });
  });
});
