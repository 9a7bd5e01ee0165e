import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({
    RATE_LIMIT_WINDOW_SECONDS: '60',
    RATE_LIMIT_LOGIN: '6',
    RATE_LIMIT_LOGIN_EMAIL: '3',
    RATE_LIMIT_SIGNUP: '2',
    RATE_LIMIT_RECOVERY: '2',
    RATE_LIMIT_RESET: '2',
    RATE_LIMIT_CALLBACK: '2',
  });
});
afterAll(() => t?.close());

function expectLimited(answer: { status: number; body: any; headers: Headers }) {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual({ detail: 'Too many requests' });
  const retry = Number(answer.headers.get('retry-after'));
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(60);
}

const login = (username: string) =>
  t.request('POST', '/api/v1/login/access-token', { form: { username, password: 'wrong-password' } });

describe('rate limits on public routes', () => {
  it('limits login per email, then per client address', async () => {
    for (let i = 0; i < 3; i++) expect((await login('target@example.com')).status).toBe(400);
    expectLimited(await login('target@example.com'));
    // Another email from the same address still has budget, until the address runs out.
    expect((await login('other@example.com')).status).toBe(400);
    expect((await login('third@example.com')).status).toBe(400);
    expectLimited(await login('fourth@example.com'));
  });

  it('limits signup, recovery, reset and the callback per address, in REST and GraphQL alike', async () => {
    const signup = (n: number) =>
      t.request('POST', '/api/v1/users/signup', { json: { email: `s${n}@example.com`, password: 'password-1' } });
    expect((await signup(1)).status).toBe(200);
    const viaGraphql = await t.graphql('mutation { signup(email: "s2@example.com", password: "password-2") { id } }');
    expect(viaGraphql.body.data.signup.id).toBeTruthy();
    expectLimited(await signup(3));
    const refused = await t.graphql('mutation { signup(email: "s4@example.com", password: "password-4") { id } }');
    expect(refused.body.errors[0]).toMatchObject({
      message: 'Too many requests',
      extensions: { code: 'TOO_MANY_REQUESTS', status: 429 },
    });
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect(await t.sql("select 1 from users where email in ('s3@example.com', 's4@example.com')")).toHaveLength(0);

    for (const [path, json] of [
      ['/api/v1/password-recovery/x@example.com', undefined],
      ['/api/v1/reset-password/', { token: 'not-a-token', new_password: 'password-x' }],
      ['/api/v1/callback/authorize', { code: '' }],
    ] as const) {
      // The callback's empty code is refused by validation before it spends budget; a code spends it.
      const body = path.includes('callback') ? { code: 'some-code' } : json;
      const first = await t.request('POST', path, { json: body });
      const second = await t.request('POST', path, { json: body });
      expect(first.status, path).not.toBe(429);
      expect(second.status, path).not.toBe(429);
      expectLimited(await t.request('POST', path, { json: body }));
    }
  });
});

describe('starting synchronisations', () => {
  it('is limited per user, in REST and GraphQL alike, with a clear detail and Retry-After', async () => {
    const limited = await startTestGateway({ RATE_LIMIT_SYNC: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
    try {
      const [alice, bob] = [await limited.createUser(), await limited.createUser()];
      const client = await limited.request('POST', '/api/v1/clients/', {
        token: alice.token,
        json: { url: 'https://unconnected.example' },
      });
      const rest = (token: string) => limited.request('POST', `/api/v1/clients/${client.body.id}/sync`, { token });
      const graphql = (token: string) =>
        limited.request('POST', '/graphql', {
          token,
          json: { query: `mutation { syncClient(id: "${client.body.id}") { id } }` },
        });
      // Not connected to both platforms: 409, which still spends the budget of whoever asked.
      expect((await rest(alice.token)).status).toBe(409);
      expect((await graphql(alice.token)).body.errors[0].extensions.status).toBe(409);
      expect((await rest(alice.token)).status).toBe(409);

      const refused = await rest(alice.token);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ detail: 'Too many synchronisations started; wait before starting another' });
      const retry = Number(refused.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(60);
      const viaGraphql = await graphql(alice.token);
      expect(viaGraphql.body.errors[0]).toMatchObject({
        message: 'Too many synchronisations started; wait before starting another',
        extensions: { code: 'TOO_MANY_REQUESTS', status: 429 },
      });
      expect(viaGraphql.headers.get('retry-after')).toBeTruthy();
      // Another user has a budget of their own.
      expect((await rest(bob.token)).status).toBe(409);
      expect(await limited.sql('select 1 from sync_runs')).toHaveLength(0);
    } finally {
      await limited.close();
    }
  });
});

describe('the client address behind a proxy', () => {
  // The gateway is reached through one proxy (here the test itself, on loopback), which appends the address it was
  // reached from to X-Forwarded-For; whatever stands left of it was written by the client.
  it.each(['1', 'loopback'])(
    'with TRUST_PROXY=%s, counts the address the proxy appended, whatever the client forges before it',
    async (trustProxy) => {
      const proxied = await startTestGateway({ TRUST_PROXY: trustProxy, RATE_LIMIT_LOGIN: '3' });
      try {
        const login = (forwardedFor: string) =>
          proxied.request('POST', '/api/v1/login/access-token', {
            form: { username: 'someone@example.com', password: 'wrong-password' },
            headers: { 'X-Forwarded-For': forwardedFor },
          });
        const statuses = [];
        for (let i = 1; i <= 6; i++) statuses.push((await login(`6.6.6.${i}, 203.0.113.50`)).status);
        expect(statuses).toEqual([400, 400, 400, 429, 429, 429]);
        expect((await login('203.0.113.50')).status).toBe(429);
        // Another client behind the same proxy has a budget of its own, forged addresses or not.
        expect((await login('6.6.6.6, 203.0.113.51')).status).toBe(400);
        // GraphQL counts the same address.
        const viaGraphql = await proxied.request('POST', '/graphql', {
          json: {
            query: 'mutation { login(username: "someone@example.com", password: "wrong-password") { access_token } }',
          },
          headers: { 'X-Forwarded-For': '6.6.6.99, 203.0.113.50' },
        });
        expect(viaGraphql.body.errors[0]).toMatchObject({ message: 'Too many requests' });
      } finally {
        await proxied.close();
      }
    },
  );
  it('counts 30 failed logins with a fresh X-Forwarded-For each against the address the proxy appended', async () => {
    const proxied = await startTestGateway({ TRUST_PROXY: '1', RATE_LIMIT_LOGIN: '10' });
    try {
      const statuses = [];
      for (let i = 1; i <= 30; i++) {
        const answer = await proxied.request('POST', '/api/v1/login/access-token', {
          form: { username: `victim${i}@example.com`, password: 'wrong-password' },
          headers: { 'X-Forwarded-For': `198.51.${i}.${i}, 203.0.113.60` },
        });
        statuses.push(answer.status);
      }
      expect(statuses).toEqual([...Array(10).fill(400), ...Array(20).fill(429)]);
    } finally {
      await proxied.close();
    }
  });
});

describe('login timing', () => {
  it('spends a bcrypt comparison on unknown emails too', async () => {
    const slow = await startTestGateway({ BCRYPT_COST: '10' });
    try {
      await slow.createUser('timed@example.com', 'right-password');
      const time = async (username: string) => {
        const started = performance.now();
        const answer = await slow.request('POST', '/api/v1/login/access-token', {
          form: { username, password: 'wrong-password' },
        });
        expect(answer.body).toEqual({ detail: 'Incorrect email or password' });
        return performance.now() - started;
      };
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 7; i++) {
        known.push(await time('timed@example.com'));
        unknown.push(await time(`nobody${i}@example.com`));
      }
      // Cost 10 makes one comparison tens of milliseconds; without it an unknown email would answer in ~1 ms.
      expect(median(unknown) / median(known)).toBeGreaterThan(0.5);
    } finally {
      await slow.close();
    }
  });
});
