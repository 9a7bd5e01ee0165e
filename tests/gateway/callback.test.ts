import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { startNuvemshopStandIn, type NuvemshopStandIn } from '../support/nuvemshop';

const CHECKOUT = 'https://checkout.example/pay';
const granted = (storeId: number | string, token: string) => ({
  status: 200,
  body: { access_token: token, token_type: 'bearer', scope: 'read_products,write_products', user_id: storeId },
});

let platform: NuvemshopStandIn;
let t: TestGateway;
let superuser: string;
const defaultAnswer = () => platform.answer;
let original: NuvemshopStandIn['answer'];

beforeAll(async () => {
  platform = await startNuvemshopStandIn();
  original = defaultAnswer();
  t = await startTestGateway({
    NUVEMSHOP_TOKEN_URL: platform.url,
    NUVEMSHOP_CLIENT_ID: '1234',
    NUVEMSHOP_CLIENT_SECRET: 'app-secret',
    NUVEMSHOP_TIMEOUT_MS: '500',
  });
  superuser = await t.superuserToken();
});
afterAll(async () => {
  await t?.close();
  await platform?.close();
});
beforeEach(() => {
  platform.answer = original;
});

const authorize = (code: unknown) => t.request('POST', '/api/v1/callback/authorize', { json: { code } });
const clientsOfStore = (storeId: number) =>
  t.sql<{ id: string; nuvemshop_token: string }>(
    'select id, nuvemshop_token from clients where nuvemshop_store_id = $1',
    [storeId],
  );

describe('store authorization callback', () => {
  it('exchanges the code, creates the store’s client and answers the checkout address', async () => {
    platform.answer = () => granted('777001', 'store-token-1');
    const answer = await authorize('code-success');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: 'Store authorized successfully', checkout_url: CHECKOUT });
    expect(platform.requests.at(-1)).toEqual({
      client_id: '1234',
      client_secret: 'app-secret',
      grant_type: 'authorization_code',
      code: 'code-success',
    });
    const rows = await clientsOfStore(777001);
    expect(rows).toHaveLength(1);
    expect(rows[0].nuvemshop_token).not.toContain('store-token-1');
    const client = await t.request('GET', `/api/v1/clients/${rows[0].id}`, { token: superuser });
    expect(client.body).toMatchObject({ nuvemshop_store_id: 777001, nuvemshop_token: 'store-token-1' });
  });

  it('reads the store id from store_id when the answer carries it instead of user_id', async () => {
    platform.answer = () => ({
      status: 200,
      body: { access_token: 'store-token-sid', token_type: 'bearer', scope: 'read_products', store_id: 777009 },
    });
    const answer = await authorize('code-store-id');
    expect(answer.status).toBe(200);
    const rows = await clientsOfStore(777009);
    expect(rows).toHaveLength(1);
    const client = await t.request('GET', `/api/v1/clients/${rows[0].id}`, { token: superuser });
    expect(client.body).toMatchObject({ nuvemshop_store_id: 777009, nuvemshop_token: 'store-token-sid' });
  });

  it('updates the client of a known store on a new install', async () => {
    platform.answer = () => granted(777002, 'first-token');
    expect((await authorize('install-1')).status).toBe(200);
    platform.answer = () => granted(777002, 'second-token');
    expect((await authorize('install-2')).status).toBe(200);
    const rows = await clientsOfStore(777002);
    expect(rows).toHaveLength(1);
    const client = await t.request('GET', `/api/v1/clients/${rows[0].id}`, { token: superuser });
    expect(client.body.nuvemshop_token).toBe('second-token');
  });

  it('exchanges a code posted twice at the same moment once, and answers both alike', async () => {
    platform.answer = () => ({ ...granted(777003, 'twice-token'), delayMs: 100 });
    const before = platform.requests.length;
    const answers = await Promise.all([authorize('double-post'), authorize('double-post'), authorize('double-post')]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(platform.requests.length - before).toBe(1);
    expect(await clientsOfStore(777003)).toHaveLength(1);
    const later = await authorize('double-post');
    expect(later.text).toBe(answers[0].text);
    expect(platform.requests.length - before).toBe(1);
  });

  it('answers 400 with the platform’s reason when the code is refused, and remembers it', async () => {
    platform.answer = () => ({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'The authorization code has expired' },
    });
    const before = platform.requests.length;
    const answer = await authorize('spent-code');
    expect(answer).toMatchObject({ status: 400, body: { detail: 'The authorization code has expired' } });
    expect((await authorize('spent-code')).body).toEqual({ detail: 'The authorization code has expired' });
    expect(platform.requests.length - before).toBe(1);
  });

  it('answers 502 when the platform cannot be reached, and lets the code be tried again', async () => {
    const down = await startTestGateway({ NUVEMSHOP_TOKEN_URL: 'http://127.0.0.1:9/apps/authorize/token' });
    try {
      const answer = await down.request('POST', '/api/v1/callback/authorize', { json: { code: 'unreachable' } });
      expect(answer).toMatchObject({ status: 502, body: { detail: 'Could not reach Nuvemshop' } });
      expect(await down.sql('select 1 from authorization_codes')).toHaveLength(0);
      expect(await down.sql('select 1 from clients')).toHaveLength(0);
    } finally {
      await down.close();
    }
  });

  it('gives up on a slow platform after the configured timeout', async () => {
    platform.answer = () => ({ ...granted(777004, 'late-token'), delayMs: 3000 });
    const started = Date.now();
    const answer = await authorize('slow-code');
    const elapsed = Date.now() - started;
    expect(answer).toMatchObject({ status: 502, body: { detail: 'Nuvemshop did not answer in time' } });
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(2500);
    expect(await clientsOfStore(777004)).toHaveLength(0);
  });

  it('answers 422 without a code, and 502 for a nonsense answer', async () => {
    const missing = await t.request('POST', '/api/v1/callback/authorize', { json: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'code'], msg: 'Field required' });
    platform.answer = () => ({ status: 200, body: { hello: 'world' } });
    expect((await authorize('odd-answer')).status).toBe(502);
  });

  it('has a GraphQL twin with the same rules', async () => {
    platform.answer = () => granted(777005, 'graphql-token');
    const mutation = 'mutation($c: String!) { authorizeCallback(code: $c) { message checkout_url } }';
    const ok = await t.graphql(mutation, { c: 'graphql-code' });
    expect(ok.body).toEqual({
      data: { authorizeCallback: { message: 'Store authorized successfully', checkout_url: CHECKOUT } },
    });
    platform.answer = () => ({ status: 400, body: { error: 'invalid_grant', error_description: 'Bad code' } });
    const refused = await t.graphql(mutation, { c: 'graphql-bad-code' });
    expect(refused.body.errors[0]).toMatchObject({
      message: 'Bad code',
      extensions: { code: 'BAD_USER_INPUT', status: 400 },
    });
  });
});
