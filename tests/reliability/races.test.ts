import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../../gateway/gateway';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { recordFigures } from './support/figures';
import { derivedAnswer, startNuvemshopStandIn, storeFor, tokenFor, type NuvemshopStandIn } from '../support/nuvemshop';

const PARALLEL = 50;
const GRAPHQL_TYPE: Record<string, string> = { number: 'SafeInt', boolean: 'Boolean', string: 'String' };

let t: TestGateway;
let nuvemshop: NuvemshopStandIn;
const figures: Record<string, number> = {};

beforeAll(async () => {
  // The stand-in answers slowly, so every post of one code arrives while the first exchange is still under way.
  nuvemshop = await startNuvemshopStandIn(derivedAnswer(200));
  t = await startTestGateway({ NUVEMSHOP_TOKEN_URL: nuvemshop.url, DATABASE_POOL_MAX: '20' });
});

afterAll(async () => {
  recordFigures('races', figures);
  await t?.close();
  await nuvemshop?.close();
});

describe('races', () => {
  it('makes exactly one user of fifty parallel signups with one email', async () => {
    const email = 'same-moment@example.com';
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        i % 2
          ? t.request('POST', '/api/v1/users/signup', { json: { email, password: `password-${i}` } })
          : t.graphql(
              'mutation ($email: String!, $password: String!) { signup(email: $email, password: $password) { id } }',
              {
                email: email.toUpperCase(),
                password: `password-${i}`,
              },
            ),
      ),
    );
    const isGraphql = (a: (typeof answers)[number]) => 'data' in a.body || 'errors' in a.body;
    const succeeded = answers.filter((a) => (isGraphql(a) ? Boolean(a.body.data?.signup) : a.status === 200));
    expect(succeeded).toHaveLength(1);
    for (const a of answers) {
      if (a === succeeded[0]) continue;
      expect(a.status).toBeLessThan(500);
      const detail = a.body.errors ? a.body.errors[0].message : a.body.detail;
      expect(detail).toBe('The user with this email already exists in the system');
    }
    const rows = await t.sql<{ n: string }>('select count(*) as n from users where lower(email) = $1', [email]);
    figures.raceSignups = Number(rows[0].n);
    expect(figures.raceSignups).toBe(1);
  });

  it('exchanges a code once and makes one client of fifty parallel callback posts to two gateways', async () => {
    // A second gateway on the same database: its own pool and its own in-flight exchanges, as another process has.
    const second = await startGateway({ ...t.config }, pino({ level: 'silent' }));
    const secondUrl = second.url.replace('localhost', '127.0.0.1');
    const code = 'one-code-posted-fifty-times';
    const mutation = 'mutation ($code: String!) { authorizeCallback(code: $code) { message checkout_url } }';
    let answers: { status: number; body: any }[];
    try {
      answers = await Promise.all(
        Array.from({ length: PARALLEL }, async (_, i) => {
          if (i % 4 === 1) return t.request('POST', '/api/v1/callback/authorize', { json: { code } });
          if (i % 4 === 3) return t.graphql(mutation, { code });
          const response = await fetch(`${secondUrl}/api/v1/callback/authorize`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ code }),
          });
          return { status: response.status, body: await response.json() };
        }),
      );
    } finally {
      await second.close();
    }
    for (const a of answers) {
      expect(a.status, JSON.stringify(a.body)).toBe(200);
      const body = a.body.data ? a.body.data.authorizeCallback : a.body;
      expect(body).toEqual({ message: 'Store authorized successfully', checkout_url: 'https://checkout.example/pay' });
    }
    figures.raceCallbackExchanges = nuvemshop.exchanges(code);
    const clients = await t.sql<{ n: string }>('select count(*) as n from clients where nuvemshop_store_id = $1', [
      storeFor(code),
    ]);
    figures.raceCallbackClients = Number(clients[0].n);
    expect(figures.raceCallbackExchanges).toBe(1);
    expect(figures.raceCallbackClients).toBe(1);
    const token = await t.superuserToken();
    const list = await t.request('GET', '/api/v1/clients/?limit=1000', { token });
    const stored = list.body.data.filter((c: any) => c.nuvemshop_store_id === storeFor(code));
    expect(stored).toHaveLength(1);
    expect(stored[0].nuvemshop_token).toBe(tokenFor(code));
  });

  it('loses no field when parallel updates of one client each change a different field', async () => {
    // A superuser's, so the tokens read back are in clear.
    const token = await t.superuserToken();
    let lost = 0;
    for (let round = 0; round < 10; round++) {
      const created = await t.request('POST', '/api/v1/clients/', {
        token,
        json: { url: `https://round-${round}.example`, hiper_token: 'hiper-before', nuvemshop_token: 'nuvem-before' },
      });
      expect(created.status).toBe(200);
      const id = created.body.id;
      const changes: Record<string, unknown> = {
        url: `https://changed-${round}.example`,
        hiper_token: `hiper-after-${round}`,
        nuvemshop_token: `nuvem-after-${round}`,
        nuvemshop_store_id: 9_000_000 + round,
        hiper_sync_update_image: false,
        hiper_sync_update_dimensions: false,
      };
      const updates = Object.entries(changes).flatMap(([field, value], i) => [
        t.request('PUT', `/api/v1/clients/${id}`, { token, json: { [field]: value } }),
        // The same change through GraphQL, so both adapters race each other too.
        t.graphql(
          `mutation ($id: ID!, $value: ${GRAPHQL_TYPE[typeof value]}) {
            updateClient(id: $id, ${field}: $value) { id }
          }`,
          { id, value },
          token,
        ),
        ...(i === 0 ? [t.request('GET', `/api/v1/clients/${id}`, { token })] : []),
      ]);
      const answers = await Promise.all(updates);
      for (const a of answers) {
        expect(a.status).toBe(200);
        expect(a.body.errors).toBeUndefined();
      }
      const after = await t.request('GET', `/api/v1/clients/${id}`, { token });
      for (const [field, value] of Object.entries(changes)) {
        if (after.body[field] !== value) lost++;
      }
    }
    figures.raceLostFields = lost;
    expect(lost).toBe(0);
  });
});
