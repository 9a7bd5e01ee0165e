import { Client as PgClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type Answer, type TestGateway } from '../support/gateway';
import { startNuvemshopStandIn, type NuvemshopStandIn } from '../support/nuvemshop';
import { startNuvemshopApi, webhookSignature, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';

const SECRET = 'app-secret-for-webhooks';
const WEBHOOK_URL = 'https://integracao.test/api/v1/webhooks/nuvemshop';
const APP = '/api/v1/webhooks/nuvemshop';
const PRIVACY = {
  'store/redact': `${APP}/store-redact`,
  'customers/redact': `${APP}/customers-redact`,
  'customers/data_request': `${APP}/customers-data-request`,
} as const;

let platform: NuvemshopStandIn;
let api: NuvemshopApiStandIn;
let t: TestGateway;
let superuser: string;
let nextStore = 910_000;
let nextCode = 0;
let nextId = 1;

beforeAll(async () => {
  [platform, api] = await Promise.all([
    startNuvemshopStandIn(),
    startNuvemshopApi({ bucket: { size: 40, drainPerSecond: 40 } }),
  ]);
  t = await startTestGateway({
    NUVEMSHOP_TOKEN_URL: platform.url,
    NUVEMSHOP_CLIENT_ID: '1234',
    NUVEMSHOP_CLIENT_SECRET: SECRET,
    NUVEMSHOP_API_URL: api.url,
    NUVEMSHOP_TIMEOUT_MS: '2000',
  });
  superuser = await t.superuserToken();
});
afterAll(async () => {
  await t?.close();
  await Promise.all([platform?.close(), api?.close()]);
});

/** Posts a body as Nuvemshop does: signed with `secret` unless told otherwise (null: no signature at all). */
function deliver(path: string, payload: unknown, signature: string | null = 'good'): Promise<Answer> {
  const raw = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const headers: Record<string, string> = {};
  if (signature === 'good') headers['X-Linkedstore-HMAC-SHA256'] = webhookSignature(raw, SECRET);
  else if (signature !== null) headers['X-Linkedstore-HMAC-SHA256'] = signature;
  return t.request('POST', path, { raw, headers });
}

const appEvent = (storeId: number, event: string, id = nextId++) => ({ store_id: storeId, event, id });

interface EventRow {
  id: string;
  event: string;
  client_id: string | null;
  outcome: string;
  note: string | null;
  signed: boolean;
  received_at: Date;
}
const eventsOf = (storeId: number) =>
  t.sql<EventRow>('select * from webhook_events where store_id = $1 order by received_at, created_at', [storeId]);
const countEvents = async () => Number((await t.sql('select count(*) as n from webhook_events'))[0].n);

interface ClientRow {
  id: string;
  url: string;
  name: string | null;
  sync_state: string;
  has_token: boolean;
  has_hiper: boolean;
  installed_at: Date | null;
  redacted_at: Date | null;
}
const clientOf = async (storeId: number) =>
  (
    await t.sql<ClientRow>(
      `select id, url, name, sync_state, nuvemshop_token is not null as has_token, hiper_token is not null as has_hiper,
        installed_at, redacted_at from clients where nuvemshop_store_id = $1`,
      [storeId],
    )
  )[0];

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`still waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until no webhook of the store is waiting for its job, and answers its webhooks. */
const settled = (storeId: number, count: number) =>
  until(
    () => eventsOf(storeId),
    (rows) => rows.length === count && rows.every((r) => r.outcome !== 'recorded'),
    `${count} handled webhooks of store ${storeId}`,
  );

/** The app installed through /callback, as the store owner does: a new store, or a new token for a known one. */
async function install(storeId: number): Promise<void> {
  let token: string;
  try {
    token = api.reinstall(storeId);
  } catch {
    token = api.addStore(storeId).token;
  }
  platform.answer = () => ({
    status: 200,
    body: { access_token: token, token_type: 'bearer', scope: 'read_products,write_products', user_id: storeId },
  });
  const answer = await t.request('POST', '/api/v1/callback/authorize', { json: { code: `install-${++nextCode}` } });
  expect(answer.status).toBe(200);
}

const registered = (storeId: number) =>
  until(
    async () => api.store(storeId).webhooks.map((w) => `${w.event} ${w.url}`),
    (hooks) => hooks.length >= 3,
    'the webhooks registered',
  );

describe('Nuvemshop webhooks', () => {
  it('refuses a missing or wrong signature on every route with 401 and records nothing; records a good one', async () => {
    const storeId = nextStore++;
    const routes: [string, unknown][] = [
      [APP, appEvent(storeId, 'app/suspended')],
      [PRIVACY['store/redact'], { store_id: storeId }],
      [PRIVACY['customers/redact'], { store_id: storeId, customer: { id: 1 }, orders_to_redact: [] }],
      [PRIVACY['customers/data_request'], { store_id: storeId, customer: { id: 1 }, data_request: { id: 9 } }],
    ];
    const before = await countEvents();
    for (const [path, payload] of routes) {
      const raw = JSON.stringify(payload);
      const wrong = [
        'f'.repeat(64),
        webhookSignature(raw, 'another-secret'),
        webhookSignature(`${raw} `, SECRET),
        webhookSignature(raw, SECRET).slice(0, 63),
        '',
      ];
      for (const signature of wrong) {
        const answer = await deliver(path, raw, signature);
        expect(answer.status, `${path} ${signature}`).toBe(401);
        expect(answer.body).toEqual({ detail: 'Invalid signature' });
      }
    }
    // An app event without any signature is refused too; a privacy request without one is recorded (below).
    expect((await deliver(APP, routes[0][1], null)).status).toBe(401);
    expect(await countEvents()).toBe(before);

    for (const [path, payload] of routes) {
      const answer = await deliver(path, payload);
      expect(answer.status, path).toBe(200);
      expect(answer.body).toEqual({ message: 'Webhook received' });
    }
    // The signature is over the bytes as sent: other spacing, the same signature check.
    const spaced = `{ "store_id": ${storeId},  "event": "app/resumed", "id": ${nextId++} }`;
    expect((await deliver(APP, spaced)).status).toBe(200);
    const rows = await settled(storeId, 5);
    expect(rows.map((r) => [r.event, r.signed])).toEqual([
      ['app/suspended', true],
      ['store/redact', true],
      ['customers/redact', true],
      ['customers/data_request', true],
      ['app/resumed', true],
    ]);
  });

  it('records a privacy request without a signature, acknowledges customers’ requests, and never erases unsigned', async () => {
    const storeId = nextStore++;
    await install(storeId);
    await registered(storeId);
    const client = await clientOf(storeId);
    await t.request('PUT', `/api/v1/clients/${client.id}`, {
      token: superuser,
      json: { url: client.url, hiper_token: 'hiper-key-of-the-store' },
    });
    api.uninstall(storeId);
    expect((await deliver(APP, appEvent(storeId, 'app/uninstalled'))).status).toBe(200);
    await settled(storeId, 1);

    const unsigned = await deliver(PRIVACY['store/redact'], { store_id: storeId }, null);
    expect(unsigned.status).toBe(200);
    const customers = { store_id: storeId, customer: { id: 5, email: 'c@example.com' }, orders_to_redact: [1] };
    expect((await deliver(PRIVACY['customers/redact'], customers, null)).status).toBe(200);
    expect((await deliver(PRIVACY['customers/data_request'], { ...customers, data_request: { id: 3 } })).status).toBe(
      200,
    );
    const rows = await settled(storeId, 4);
    expect(rows.slice(1).map((r) => [r.event, r.signed, r.outcome, r.client_id])).toEqual([
      ['store/redact', false, 'unsigned', client.id],
      ['customers/redact', false, 'unsigned', client.id],
      ['customers/data_request', true, 'handled', client.id],
    ]);
    expect(rows[1].note).toBe('Sem assinatura: registrado, nada apagado');
    expect(rows[2].note).toBe('Sem assinatura: registrado, nada feito');
    expect(rows[3].note).toMatch(/não guarda dados de clientes da loja/);
    expect(await clientOf(storeId)).toMatchObject({ has_hiper: true, redacted_at: null });
  });

  it('erases a store’s tokens on a signed store/redact 48 hours after its uninstall, keeping the client', async () => {
    const storeId = nextStore++;
    await install(storeId);
    await registered(storeId);
    const client = await clientOf(storeId);
    await t.request('PUT', `/api/v1/clients/${client.id}`, {
      token: superuser,
      json: { url: client.url, hiper_token: 'hiper-key-of-the-store' },
    });
    api.uninstall(storeId);
    await deliver(APP, appEvent(storeId, 'app/uninstalled'));
    await settled(storeId, 1);

    // Sent early (the testing tool does): it waits, as a job due 48 h after the uninstall.
    expect((await deliver(PRIVACY['store/redact'], { store_id: storeId })).status).toBe(200);
    const [uninstall, early] = await until(
      () => eventsOf(storeId),
      (rows) => rows.length === 2 && !!rows[1].note,
      'the early redact looked at',
    );
    expect(early).toMatchObject({ outcome: 'recorded', signed: true });
    expect(early.note).toMatch(/^Apagamento previsto para \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} \(horário de Brasília\)/);
    const [job] = await t.sql<{ start_after: Date }>(
      `select start_after from pgboss.job where name = 'webhook' and data->>'id' = $1 and state = 'created'`,
      [early.id],
    );
    const due = new Date(uninstall.received_at).getTime() + 48 * 3600_000;
    expect(Math.abs(new Date(job.start_after).getTime() - due)).toBeLessThan(2000);
    expect(await clientOf(storeId)).toMatchObject({ has_hiper: true, redacted_at: null });

    // 49 hours later, as far as the store's history says:
    await t.sql(`update webhook_events set received_at = received_at - interval '49 hours' where id = $1`, [
      uninstall.id,
    ]);
    await t.sql(`update clients set installed_at = installed_at - interval '50 hours' where id = $1`, [client.id]);
    expect((await deliver(PRIVACY['store/redact'], { store_id: storeId, again: true })).status).toBe(200);
    const rows = await until(
      () => eventsOf(storeId),
      (found) => found.length === 3 && found[2].outcome !== 'recorded',
      'the late redact handled',
    );
    const late = rows[2];
    expect(late).toMatchObject({ event: 'store/redact', outcome: 'handled' });
    expect(late.note).toMatch(/tokens e 0 vínculos de produtos/);
    const after = await clientOf(storeId);
    expect(after).toMatchObject({ id: client.id, has_token: false, has_hiper: false, sync_state: 'disconnected' });
    expect(after.redacted_at).not.toBeNull();
  });

  it('reads a new store’s URL and name on install and registers its three webhooks once', async () => {
    const storeId = nextStore++;
    await install(storeId);
    expect(await registered(storeId)).toEqual([
      `app/uninstalled ${WEBHOOK_URL}`,
      `app/suspended ${WEBHOOK_URL}`,
      `app/resumed ${WEBHOOK_URL}`,
    ]);
    const client = await until(
      () => clientOf(storeId),
      (c) => c.name !== null,
      'the store name',
    );
    expect(client).toMatchObject({
      url: `https://loja${storeId}.lojavirtualnuvem.com.br`,
      name: `Loja ${storeId}`,
      sync_state: 'not_connected',
      has_token: true,
    });
    expect(client.installed_at).not.toBeNull();

    // A new install while they are still registered: listed, none added.
    const posts = () => api.requestsOf(storeId).filter((r) => r.route === 'POST /webhooks').length;
    const lists = () => api.requestsOf(storeId).filter((r) => r.route === 'GET /webhooks').length;
    expect(posts()).toBe(3);
    await install(storeId);
    await until(
      async () => lists(),
      (n) => n === 2,
      'the second listing',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(posts()).toBe(3);
    expect(api.store(storeId).webhooks).toHaveLength(3);

    // A store whose record cannot be read: the install works, the URL is left for staff, the webhooks registered.
    const other = nextStore++;
    api.addStore(other);
    api.inject({ store: other, method: 'GET', path: '/store', status: 500, times: 10 });
    await install(other);
    await registered(other);
    expect(await clientOf(other)).toMatchObject({ url: `nuvemshop://${other}`, name: null, has_token: true });
    api.clearFaults();
  });

  it('follows uninstall, suspension, resumption and a new install, calling no suspended store', async () => {
    const storeId = nextStore++;
    await install(storeId);
    await registered(storeId);
    await until(
      () => clientOf(storeId),
      (c) => c.name !== null,
      'the store name',
    );
    const calls = () => api.requestsOf(storeId).map((r) => `${r.method} ${r.path} ${r.status}`);
    let seen = calls().length;
    const callsSince = () => {
      const made = calls().slice(seen);
      seen = calls().length;
      return made;
    };
    callsSince();
    let count = 0;

    api.suspend(storeId);
    await deliver(APP, appEvent(storeId, 'app/suspended'));
    await settled(storeId, ++count);
    expect((await clientOf(storeId)).sync_state).toBe('suspended');

    api.resume(storeId);
    await deliver(APP, appEvent(storeId, 'app/resumed'));
    await settled(storeId, ++count);
    expect((await clientOf(storeId)).sync_state).toBe('not_connected');
    // Each asked the store once; its answer decided.
    expect(callsSince()).toEqual(['GET /store 402', 'GET /store 200']);

    api.uninstall(storeId);
    await deliver(APP, appEvent(storeId, 'app/uninstalled'));
    const rows = await settled(storeId, ++count);
    expect(rows.at(-1)).toMatchObject({ outcome: 'handled' });
    expect(await clientOf(storeId)).toMatchObject({ sync_state: 'disconnected', has_token: false });
    // It asked whether the app is still installed: the token is dead.
    expect(callsSince()).toEqual(['GET /store 401']);
    // A resume changes nothing for a disconnected client.
    await deliver(APP, appEvent(storeId, 'app/resumed'));
    expect((await settled(storeId, ++count)).at(-1)).toMatchObject({ outcome: 'ignored' });

    const before = await clientOf(storeId);
    await install(storeId);
    await registered(storeId);
    const after = await clientOf(storeId);
    expect(after).toMatchObject({ sync_state: 'not_connected', has_token: true });
    expect(new Date(after.installed_at!).getTime()).toBeGreaterThan(new Date(before.installed_at!).getTime());
    expect(callsSince()).toEqual([
      'GET /webhooks 200',
      'POST /webhooks 201',
      'POST /webhooks 201',
      'POST /webhooks 201',
    ]);

    // Suspended, then uninstalled: the uninstall is believed without a call to the suspended store.
    api.suspend(storeId);
    await deliver(APP, appEvent(storeId, 'app/suspended'));
    await settled(storeId, ++count);
    expect(callsSince()).toEqual(['GET /store 402']);
    api.uninstall(storeId);
    await deliver(APP, appEvent(storeId, 'app/uninstalled'));
    await settled(storeId, ++count);
    expect(await clientOf(storeId)).toMatchObject({ sync_state: 'disconnected', has_token: false });
    expect(callsSince()).toEqual([]);

    // Staff see the store's webhooks from its client.
    const listed = await t.request('GET', `/api/v1/webhook-events/?client_id=${after.id}`, { token: superuser });
    expect(listed.status).toBe(200);
    expect(listed.body.count).toBe(count);
    const user = await t.createUser();
    const graphql = await t.graphql(
      `query ($id: ID!) { allWebhookEvents(filter: { client_id: $id }) { event outcome received_at }
        disconnected: _allClientsMeta(filter: { sync_state: disconnected }) { count } }`,
      { id: after.id },
      user.token,
    );
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.allWebhookEvents).toHaveLength(count);
    expect(graphql.body.data.disconnected.count).toBeGreaterThanOrEqual(1);
  });

  it('handles a webhook delivered twice once, and ignores an uninstall older than the latest install', async () => {
    const storeId = nextStore++;
    await install(storeId);
    await registered(storeId);
    const twice = appEvent(storeId, 'app/suspended');
    const answers = await Promise.all([deliver(APP, twice), deliver(APP, twice)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect((await deliver(APP, twice)).status).toBe(200);
    const rows = await settled(storeId, 1);
    expect(rows[0]).toMatchObject({ event: 'app/suspended', outcome: 'handled' });
    await deliver(APP, appEvent(storeId, 'app/resumed'));
    await settled(storeId, 2);

    // Uninstalled and installed again at Nuvemshop; the uninstall's webhook arrives after the new install.
    api.uninstall(storeId);
    await install(storeId);
    await deliver(APP, appEvent(storeId, 'app/uninstalled'));
    const late = (await settled(storeId, 3))[2];
    expect(late).toMatchObject({ event: 'app/uninstalled', outcome: 'ignored' });
    expect(late.note).toMatch(/anterior à última instalação do aplicativo na loja/);
    expect(await clientOf(storeId)).toMatchObject({ sync_state: 'not_connected', has_token: true });
  });

  it('takes every app/suspended and app/resumed (the app’s id on each) as a reason to ask GET /store once', async () => {
    const storeId = nextStore++;
    await install(storeId);
    await registered(storeId);
    // Nuvemshop names the app in `id`: every suspension of every store has the same body.
    const APP_ID = 1948209;
    const suspended = { store_id: storeId, event: 'app/suspended', id: APP_ID };
    const resumed = { store_id: storeId, event: 'app/resumed', id: APP_ID };
    const asked = () =>
      api
        .requestsOf(storeId)
        .filter((r) => r.path === '/store')
        .map((r) => r.status);
    let count = 0;
    const stateAfter = async (payload: Record<string, unknown>, deliveries = 1) => {
      for (let i = 0; i < deliveries; i++) expect((await deliver(APP, payload)).status).toBe(200);
      await settled(storeId, ++count);
      return (await clientOf(storeId)).sync_state;
    };
    const before = asked().length;

    // A first cycle, the suspension delivered twice: one event, one question.
    api.suspend(storeId);
    expect(await stateAfter(suspended, 2)).toBe('suspended');
    api.resume(storeId);
    expect(await stateAfter(resumed)).toBe('not_connected');
    // A second cycle in the same install, with the very same bodies, counts like the first.
    api.suspend(storeId);
    expect(await stateAfter(suspended)).toBe('suspended');
    api.resume(storeId);
    expect(await stateAfter(resumed)).toBe('not_connected');
    // A stale suspension arriving after the resumption leaves the working store working.
    expect(await stateAfter(suspended)).toBe('not_connected');
    // A resumption arriving while the store is cut off does not unsuspend it.
    api.suspend(storeId);
    expect(await stateAfter(resumed)).toBe('suspended');
    expect(asked().slice(before)).toEqual([402, 200, 402, 200, 200, 402]);
    const rows = await eventsOf(storeId);
    expect(rows.map((r) => `${r.event} ${r.outcome}`)).toEqual([
      'app/suspended handled',
      'app/resumed handled',
      'app/suspended handled',
      'app/resumed handled',
      'app/suspended handled',
      'app/resumed handled',
    ]);
  });

  it('answers within 3 s while another transaction holds the client’s row', async () => {
    const storeId = nextStore++;
    await install(storeId);
    await registered(storeId);
    const locker = new PgClient({ connectionString: t.databaseUrl });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('select * from clients where nuvemshop_store_id = $1 for update', [storeId]);
      api.suspend(storeId);
      const answer = await deliver(APP, appEvent(storeId, 'app/suspended'));
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(3000);
      const [row] = await eventsOf(storeId);
      expect(row).toMatchObject({ outcome: 'recorded', client_id: null });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await clientOf(storeId)).sync_state).toBe('not_connected');
    } finally {
      await locker.query('commit').catch(() => undefined);
      await locker.end();
    }
    await settled(storeId, 1);
    expect((await clientOf(storeId)).sync_state).toBe('suspended');
  });

  it('refuses a 2 MB body with 413 and records nothing', async () => {
    const storeId = nextStore++;
    const before = await countEvents();
    const big = JSON.stringify({ ...appEvent(storeId, 'app/suspended'), padding: 'x'.repeat(2 * 1024 * 1024) });
    for (const path of [APP, PRIVACY['customers/data_request']]) {
      const answer = await deliver(path, big);
      expect(answer.status, path).toBe(413);
      expect(answer.body).toEqual({ detail: 'Request body is too large' });
    }
    expect(await countEvents()).toBe(before);
  });
});
