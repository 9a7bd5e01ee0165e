import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema } from 'graphql';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenIssuer } from '../../gateway/auth/tokens';
import { startTestGateway, type Answer, type TestGateway } from '../support/gateway';
import { CALLERS, MATRIX, operationName, type CallerKind, type MatrixRow } from './authorization-matrix';
import { recordFigures } from './support/figures';
import { derivedAnswer, startNuvemshopStandIn, type NuvemshopStandIn } from '../support/nuvemshop';
import { webhookSignature } from '../support/standins/nuvemshop-api';

interface Person {
  id: string;
  email: string;
  password: string;
  token: string;
}

/** A caller of one kind: its token (none for anonymous) and, when it has one, the user behind it. */
interface Caller {
  token?: string;
  person?: Person;
}

/** The records of one matrix row: a fresh set of callers, and another user whose data no refused call may reveal. */
interface Fixture {
  callers: Record<CallerKind, Caller>;
  victim: Person & { itemId: string; clientId: string };
}

type RestCall = {
  method: string;
  path: string;
  json?: unknown;
  form?: Record<string, string>;
  raw?: string;
  headers?: Record<string, string>;
};
type GraphqlCall = { query: string; variables?: Record<string, unknown> };
type Build<C> = (f: Fixture, caller: Caller) => Promise<C> | C;

let t: TestGateway;
let nuvemshop: NuvemshopStandIn;
let issuer: TokenIssuer;
let adminToken: string;
let sequence = 0;
const unique = (prefix: string) => `${prefix}-${++sequence}-${Date.now()}`;
const MARK = 'matrix-private';

beforeAll(async () => {
  nuvemshop = await startNuvemshopStandIn(derivedAnswer());
  t = await startTestGateway({ NUVEMSHOP_TOKEN_URL: nuvemshop.url, NUVEMSHOP_CLIENT_SECRET: WEBHOOK_SECRET });
  issuer = new TokenIssuer(
    t.config.SECRET_KEY,
    t.config.ACCESS_TOKEN_EXPIRE_MINUTES,
    t.config.RESET_TOKEN_EXPIRE_HOURS,
  );
  adminToken = await t.superuserToken();
});

afterAll(async () => {
  await t?.close();
  await nuvemshop?.close();
});

const ok = (answer: Answer, what: string) => {
  if (answer.status !== 200) throw new Error(`${what} failed: ${answer.status} ${answer.text}`);
  return answer.body;
};

async function person(options: { superuser?: boolean; active?: boolean } = {}): Promise<Person> {
  const email = `${unique('person')}@example.com`;
  const password = 'person-password';
  const created = ok(
    await t.request('POST', '/api/v1/users/', {
      token: adminToken,
      json: {
        email,
        password,
        full_name: `${MARK} name`,
        is_superuser: options.superuser ?? false,
        is_active: options.active ?? true,
      },
    }),
    'create user',
  );
  const token = options.active === false ? '' : await t.login(email, password);
  return { id: created.id, email, password, token };
}

const accessClaims = (id: string, ver = 0) => ({ sub: id, ver, typ: 'access' });

async function fixture(): Promise<Fixture> {
  const [user, superuser, inactive, deleted, expired, stale, victim] = await Promise.all([
    person(),
    person({ superuser: true }),
    person({ active: false }),
    person(),
    person(),
    person(),
    person(),
  ]);
  // An inactive user's token as the gateway would sign it, of the current token version: only is_active can refuse it.
  inactive.token = issuer.issueAccess({ id: inactive.id, tokenVersion: 0 });
  ok(await t.request('DELETE', `/api/v1/users/${deleted.id}`, { token: adminToken }), 'delete user');
  const expiredToken = jwt.sign(
    { ...accessClaims(expired.id), exp: Math.floor(Date.now() / 1000) - 60 },
    t.config.SECRET_KEY,
    {
      algorithm: 'HS256',
    },
  );
  const otherKeyToken = jwt.sign(accessClaims(user.id), 'another-secret-key-that-is-long-enough', {
    algorithm: 'HS256',
    expiresIn: 3600,
  });
  // Changed from another session of the same user: the session that changes a password keeps working, every other
  // earlier one (this caller's) ends.
  ok(
    await t.request('PATCH', '/api/v1/users/me/password', {
      token: await t.login(stale.email, stale.password),
      json: { current_password: stale.password, new_password: 'changed-password' },
    }),
    'change password',
  );
  const item = ok(
    await t.request('POST', '/api/v1/items/', {
      token: victim.token,
      json: { title: `${MARK} item`, description: MARK },
    }),
    'create item',
  );
  const client = ok(
    await t.request('POST', '/api/v1/clients/', {
      token: victim.token,
      json: { url: `https://${unique(MARK)}.example`, hiper_token: `${MARK}-hiper`, nuvemshop_token: `${MARK}-nuvem` },
    }),
    'create client',
  );
  return {
    callers: {
      anonymous: {},
      user: { token: user.token, person: user },
      superuser: { token: superuser.token, person: superuser },
      inactive: { token: inactive.token, person: inactive },
      deleted: { token: deleted.token, person: deleted },
      expired: { token: expiredToken, person: expired },
      otherKey: { token: otherKeyToken, person: user },
      beforePasswordChange: { token: stale.token, person: stale },
    },
    victim: { ...victim, itemId: item.id, clientId: client.id },
  };
}

/** A queued mail's id: one put in the queue as the mail worker's own would be, for the cells that read one. */
async function mailJobId(): Promise<string> {
  const [job] = await t.sql<{ id: string }>(`insert into pgboss.job (name, data) values ('mail', $1) returning id`, [
    { kind: 'new-account', email: `${MARK}-mail@example.com` },
  ]);
  return job.id;
}

/** A finished sync run and a product link of the victim's client, stored as the sync worker's own would be. */
async function syncRunId(f: Fixture): Promise<string> {
  const [run] = await t.sql<{ id: string }>(
    `insert into sync_runs (id, client_id, kind, trigger, state, queued_at, errors)
      values (gen_random_uuid(), $1, 'catalogue', 'manual', 'succeeded', now(), '[]') returning id`,
    [f.victim.clientId],
  );
  return run.id;
}
/** The victim's client's health row, worked out by the gateway's own check. */
async function healthId(f: Fixture): Promise<string> {
  await t.gateway.services.health.refresh();
  const [row] = await t.sql<{ id: string }>(`select id from client_health where client_id = $1`, [f.victim.clientId]);
  return row.id;
}
/** A divergence the reconciliation found in the victim's store. */
async function divergenceId(f: Fixture): Promise<string> {
  const [row] = await t.sql<{ id: string }>(
    `insert into divergences (id, client_id, sku, kind, store_value, state, first_seen, last_seen)
      values (gen_random_uuid(), $1, 'LOJA-1', 'only_in_store', 'Só da loja', 'open', now(), now()) returning id`,
    [f.victim.clientId],
  );
  return row.id;
}
/** An order of the victim's client, already sent to Hiper. */
async function orderId(f: Fixture): Promise<string> {
  const [order] = await t.sql<{ id: string }>(
    `insert into orders (id, client_id, nuvemshop_order_id, number, state, payment_status, total, customer_name, lines,
                         history, received_at, sent_at, updated_at, hiper_order_id)
      values (gen_random_uuid(), $1, (random() * 1e9)::bigint, 101, 'sent', 'paid', '65.00', 'Maria', '[]', '[]',
              now(), now(), now(), 'H-1') returning id`,
    [f.victim.clientId],
  );
  return order.id;
}
async function productLinkId(f: Fixture): Promise<string> {
  const [link] = await t.sql<{ id: string }>(
    `insert into product_links (id, client_id, hiper_id, sku, name, nuvemshop_product_id, nuvemshop_variant_id)
      values (gen_random_uuid(), $1, gen_random_uuid()::text, '3001', 'Produto', 1, 2) returning id`,
    [f.victim.clientId],
  );
  return link.id;
}

/** A location of the victim's client, as reading its store makes one (its own key given). */
async function locationId(f: Fixture): Promise<string> {
  const [location] = await t.sql<{ id: string }>(
    `insert into locations (id, client_id, nuvemshop_location_id, name, priority, is_default, created_at, updated_at)
      values (gen_random_uuid(), $1, gen_random_uuid()::text, 'Depósito', 1, false, now(), now()) returning id`,
    [f.victim.clientId],
  );
  return location.id;
}
/** A stock movement written at a location of the victim's client. */
async function stockMovementId(f: Fixture): Promise<string> {
  const [movement] = await t.sql<{ id: string }>(
    `insert into stock_movements (id, client_id, location_id, sku, value, previous, reason)
      values (gen_random_uuid(), $1, $2, '3001', 4, 5, 'hiper') returning id`,
    [f.victim.clientId, await locationId(f)],
  );
  return movement.id;
}

const WEBHOOK_SECRET = 'webhook-secret-of-the-app';

/** A webhook as Nuvemshop posts it, signed with the app's secret or, when `wrong`, with another. */
function webhook(path: string, payload: Record<string, unknown>, wrong = false): RestCall {
  const raw = JSON.stringify(payload);
  const signature = webhookSignature(raw, wrong ? 'not-the-secret' : WEBHOOK_SECRET);
  return { method: 'POST', path, raw, headers: { 'X-Linkedstore-HMAC-SHA256': signature } };
}
const storeEvent = () => ({ store_id: 700_000 + ++sequence, event: 'app/resumed', id: sequence });
const privacyRequest = () => ({ store_id: 700_000 + ++sequence, customer: { id: sequence } });

/** A store's day of signed webhooks, for the cells that read one. */
async function webhookDayId(): Promise<string> {
  const [row] = await t.sql<{ id: string }>(
    `insert into webhook_days (id, store_id, day) values (gen_random_uuid(), 1, current_date) returning id`,
  );
  return row.id;
}

/** The audit event of the victim's client's creation, recorded by the gateway. */
async function auditEventId(f: Fixture): Promise<string> {
  const [row] = await t.sql<{ id: string }>(`select id from audit_events where record_id = $1 limit 1`, [
    f.victim.clientId,
  ]);
  return row.id;
}

/** A received webhook's id, for the cells that read one. */
async function webhookEventId(): Promise<string> {
  const [row] = await t.sql<{ id: string }>(
    `insert into webhook_events (id, event, store_id, received_at, delivery_key)
     values (gen_random_uuid(), 'app/resumed', 1, now(), $1) returning id`,
    [unique('delivery')],
  );
  return row.id;
}

/** A record made for one cell, so that cells which change or delete it do not depend on each other. */
const freshItem = async (token: string) =>
  ok(await t.request('POST', '/api/v1/items/', { token, json: { title: `${MARK} fresh item` } }), 'create item')
    .id as string;
const freshClient = async () =>
  ok(
    await t.request('POST', '/api/v1/clients/', {
      token: adminToken,
      json: { url: `https://${unique(`${MARK}-fresh`)}.example` },
    }),
    'create client',
  ).id as string;
/** A client deleted (so archived) for one cell: restored or purged by it, or refused. */
const archivedClient = async () => {
  const id = await freshClient();
  ok(await t.request('DELETE', `/api/v1/clients/${id}`, { token: adminToken }), 'archive client');
  return id;
};
const freshUser = async () => (await person()).id;
/** The caller's own item when it can make one; the other user's otherwise (the call is refused either way). */
const ownItem = async (f: Fixture, caller: Caller) =>
  caller.token && (caller === f.callers.user || caller === f.callers.superuser)
    ? freshItem(caller.token)
    : freshItem(f.victim.token);
const ownId = (f: Fixture, caller: Caller) => caller.person?.id ?? f.victim.id;
const resetToken = async () => {
  const someone = await person();
  return issuer.issueReset({ id: someone.id, tokenVersion: 0 });
};

const REST: Record<string, Build<RestCall>> = {
  'POST /login/access-token': (f) => ({
    method: 'POST',
    path: '/login/access-token',
    form: { username: f.victim.email, password: f.victim.password },
  }),
  'POST /login/test-token': () => ({ method: 'POST', path: '/login/test-token' }),
  'POST /password-recovery/{email}': (f) => ({ method: 'POST', path: `/password-recovery/${f.victim.email}` }),
  'POST /reset-password/': async () => ({
    method: 'POST',
    path: '/reset-password/',
    json: { token: await resetToken(), new_password: 'a-new-password' },
  }),
  'POST /password-recovery-html-content/{email}': (f) => ({
    method: 'POST',
    path: `/password-recovery-html-content/${f.victim.email}`,
  }),
  'GET /users/': () => ({ method: 'GET', path: '/users/' }),
  'POST /users/': () => ({
    method: 'POST',
    path: '/users/',
    json: { email: `${unique('new')}@example.com`, password: 'new-password' },
  }),
  'GET /users/me': () => ({ method: 'GET', path: '/users/me' }),
  'PATCH /users/me': () => ({ method: 'PATCH', path: '/users/me', json: { full_name: 'Renamed' } }),
  'PATCH /users/me/password': (_f, caller) => ({
    method: 'PATCH',
    path: '/users/me/password',
    json: { current_password: caller.person?.password ?? 'person-password', new_password: 'another-password' },
  }),
  'DELETE /users/me': () => ({ method: 'DELETE', path: '/users/me' }),
  'POST /users/signup': () => ({
    method: 'POST',
    path: '/users/signup',
    json: { email: `${unique('signup')}@example.com`, password: 'signup-password' },
  }),
  'GET /users/{id} (another user)': (f) => ({ method: 'GET', path: `/users/${f.victim.id}` }),
  'GET /users/{id} (own)': (f, caller) => ({ method: 'GET', path: `/users/${ownId(f, caller)}` }),
  'PATCH /users/{id}': async () => ({
    method: 'PATCH',
    path: `/users/${await freshUser()}`,
    json: { full_name: 'Changed' },
  }),
  'DELETE /users/{id}': async () => ({ method: 'DELETE', path: `/users/${await freshUser()}` }),
  'GET /items/': () => ({ method: 'GET', path: '/items/' }),
  'POST /items/': () => ({ method: 'POST', path: '/items/', json: { title: 'New item' } }),
  "GET /items/{id} (another user's)": (f) => ({ method: 'GET', path: `/items/${f.victim.itemId}` }),
  'GET /items/{id} (own)': async (f, caller) => ({ method: 'GET', path: `/items/${await ownItem(f, caller)}` }),
  "PUT /items/{id} (another user's)": async (f) => ({
    method: 'PUT',
    path: `/items/${await freshItem(f.victim.token)}`,
    json: { title: 'Changed' },
  }),
  'PUT /items/{id} (own)': async (f, caller) => ({
    method: 'PUT',
    path: `/items/${await ownItem(f, caller)}`,
    json: { title: 'Changed' },
  }),
  "DELETE /items/{id} (another user's)": async (f) => ({
    method: 'DELETE',
    path: `/items/${await freshItem(f.victim.token)}`,
  }),
  'DELETE /items/{id} (own)': async (f, caller) => ({ method: 'DELETE', path: `/items/${await ownItem(f, caller)}` }),
  'GET /clients/': () => ({ method: 'GET', path: '/clients/' }),
  'POST /clients/': () => ({ method: 'POST', path: '/clients/', json: { url: `https://${unique('new')}.example` } }),
  'GET /archived-clients/': () => ({ method: 'GET', path: '/archived-clients/' }),
  'GET /archived-clients/{id}': async () => ({ method: 'GET', path: `/archived-clients/${await archivedClient()}` }),
  'POST /clients/{id}/restore': async () => ({ method: 'POST', path: `/clients/${await archivedClient()}/restore` }),
  'POST /clients/{id}/purge': async () => ({ method: 'POST', path: `/clients/${await archivedClient()}/purge` }),
  'GET /clients/{id}': (f) => ({ method: 'GET', path: `/clients/${f.victim.clientId}` }),
  'GET /mail-jobs/': () => ({ method: 'GET', path: '/mail-jobs/' }),
  // The victim's client has no store id: a signed-in caller is answered 409, past every authorization check.
  'POST /clients/{id}/sync': (f) => ({ method: 'POST', path: `/clients/${f.victim.clientId}/sync`, json: {} }),
  'GET /sync-runs/': (f) => ({ method: 'GET', path: `/sync-runs/?client_id=${f.victim.clientId}` }),
  'GET /sync-runs/{id}': async (f) => ({ method: 'GET', path: `/sync-runs/${await syncRunId(f)}` }),
  'GET /client-health/': (f) => ({ method: 'GET', path: `/client-health/?client_id=${f.victim.clientId}` }),
  'GET /activity/': (f) => ({ method: 'GET', path: `/activity/?client_id=${f.victim.clientId}&days=7` }),
  'GET /client-health/{id}': async (f) => ({ method: 'GET', path: `/client-health/${await healthId(f)}` }),
  'GET /audit-events/': (f) => ({ method: 'GET', path: `/audit-events/?record_id=${f.victim.clientId}` }),
  'GET /audit-events/{id}': async (f) => ({ method: 'GET', path: `/audit-events/${await auditEventId(f)}` }),
  'GET /divergences/': (f) => ({ method: 'GET', path: `/divergences/?client_id=${f.victim.clientId}&state=open` }),
  'GET /divergences/{id}': async (f) => ({ method: 'GET', path: `/divergences/${await divergenceId(f)}` }),
  'GET /orders/': (f) => ({ method: 'GET', path: `/orders/?client_id=${f.victim.clientId}` }),
  'GET /orders/{id}': async (f) => ({ method: 'GET', path: `/orders/${await orderId(f)}` }),
  'POST /orders/{id}/resend': async (f) => ({ method: 'POST', path: `/orders/${await orderId(f)}/resend` }),
  'POST /orders/{id}/mark-sent': async (f) => ({
    method: 'POST',
    path: `/orders/${await orderId(f)}/mark-sent`,
    json: {},
  }),
  'POST /clients/{id}/orders/sweep': (f) => ({ method: 'POST', path: `/clients/${f.victim.clientId}/orders/sweep` }),
  'GET /product-links/': (f) => ({ method: 'GET', path: `/product-links/?client_id=${f.victim.clientId}&q=Produto` }),
  'GET /product-links/{id}': async (f) => ({ method: 'GET', path: `/product-links/${await productLinkId(f)}` }),
  'GET /locations/': (f) => ({ method: 'GET', path: `/locations/?client_id=${f.victim.clientId}` }),
  'GET /locations/{id}': async (f) => ({ method: 'GET', path: `/locations/${await locationId(f)}` }),
  'PUT /locations/{id}': async (f) => ({
    method: 'PUT',
    path: `/locations/${await locationId(f)}`,
    json: { hiper_token: unique('hiper-key') },
  }),
  'DELETE /locations/{id}': async (f) => ({ method: 'DELETE', path: `/locations/${await locationId(f)}` }),
  'POST /locations/{id}/default': async (f) => ({ method: 'POST', path: `/locations/${await locationId(f)}/default` }),
  'POST /clients/{id}/locations/read': (f) => ({
    method: 'POST',
    path: `/clients/${f.victim.clientId}/locations/read`,
  }),
  'PUT /clients/{id}/locations/priorities': async (f) => ({
    method: 'PUT',
    path: `/clients/${f.victim.clientId}/locations/priorities`,
    // Every live location of the client, first = priority 0.
    json: [await locationId(f)],
  }),
  'GET /stock-movements/': (f) => ({ method: 'GET', path: `/stock-movements/?client_id=${f.victim.clientId}` }),
  'GET /stock-movements/{id}': async (f) => ({ method: 'GET', path: `/stock-movements/${await stockMovementId(f)}` }),
  'GET /mail-jobs/{id}': async () => ({ method: 'GET', path: `/mail-jobs/${await mailJobId()}` }),
  'PUT /clients/{id}': async () => ({
    method: 'PUT',
    path: `/clients/${await freshClient()}`,
    json: { url: `https://${unique('changed')}.example` },
  }),
  'DELETE /clients/{id}': async () => ({ method: 'DELETE', path: `/clients/${await freshClient()}` }),
  'POST /callback/authorize': () => ({ method: 'POST', path: '/callback/authorize', json: { code: unique('code') } }),
  'GET /webhook-events/': () => ({ method: 'GET', path: '/webhook-events/' }),
  'GET /webhook-events/{id}': async () => ({ method: 'GET', path: `/webhook-events/${await webhookEventId()}` }),
  'GET /webhook-days/': () => ({ method: 'GET', path: '/webhook-days/' }),
  'GET /webhook-days/{id}': async () => ({ method: 'GET', path: `/webhook-days/${await webhookDayId()}` }),
  'POST /webhooks/nuvemshop (signed)': () => webhook('/webhooks/nuvemshop', storeEvent()),
  'POST /webhooks/nuvemshop (wrong signature)': () => webhook('/webhooks/nuvemshop', storeEvent(), true),
  ...Object.fromEntries(
    ['store-redact', 'customers-redact', 'customers-data-request'].flatMap((kind) => [
      [`POST /webhooks/nuvemshop/${kind} (signed)`, () => webhook(`/webhooks/nuvemshop/${kind}`, privacyRequest())],
      [
        `POST /webhooks/nuvemshop/${kind} (wrong signature)`,
        () => webhook(`/webhooks/nuvemshop/${kind}`, privacyRequest(), true),
      ],
    ]),
  ),
  'GET /utils/health-check/': () => ({ method: 'GET', path: '/utils/health-check/' }),
  'GET /openapi.json': () => ({ method: 'GET', path: '/openapi.json' }),
};

const USER_FIELDS = '{ id email full_name is_active is_superuser }';
const ITEM_FIELDS = '{ id title description owner_id }';
const CLIENT_FIELDS = '{ id url hiper_token nuvemshop_token nuvemshop_store_id }';

const GRAPHQL: Record<string, Build<GraphqlCall>> = {
  'query me': () => ({ query: `{ me ${USER_FIELDS} }` }),
  'query allUsers': () => ({ query: `{ allUsers ${USER_FIELDS} }` }),
  'query _allUsersMeta': () => ({ query: '{ _allUsersMeta { count } }' }),
  'query MailJob': async () => ({
    query: 'query ($id: ID!) { MailJob(id: $id) { id kind to state } }',
    variables: { id: await mailJobId() },
  }),
  'query allMailJobs': () => ({ query: '{ allMailJobs { id kind to state attempts last_error } }' }),
  'query _allMailJobsMeta': () => ({ query: '{ _allMailJobsMeta(filter: { state: failed }) { count } }' }),
  'query User (another user)': (f) => ({
    query: `query ($id: ID!) { User(id: $id) ${USER_FIELDS} }`,
    variables: { id: f.victim.id },
  }),
  'query User (own)': (f, caller) => ({
    query: `query ($id: ID!) { User(id: $id) ${USER_FIELDS} }`,
    variables: { id: ownId(f, caller) },
  }),
  'query allItems': () => ({ query: `{ allItems ${ITEM_FIELDS} }` }),
  'query _allItemsMeta': () => ({ query: '{ _allItemsMeta { count } }' }),
  "query Item (another user's)": (f) => ({
    query: `query ($id: ID!) { Item(id: $id) ${ITEM_FIELDS} }`,
    variables: { id: f.victim.itemId },
  }),
  'query Item (own)': async (f, caller) => ({
    query: `query ($id: ID!) { Item(id: $id) ${ITEM_FIELDS} }`,
    variables: { id: await ownItem(f, caller) },
  }),
  'query allClients': () => ({ query: `{ allClients ${CLIENT_FIELDS} }` }),
  'query _allClientsMeta': () => ({ query: '{ _allClientsMeta { count } }' }),
  'query Client': (f) => ({
    query: `query ($id: ID!) { Client(id: $id) ${CLIENT_FIELDS} }`,
    variables: { id: f.victim.clientId },
  }),
  'query allSyncRuns': (f) => ({
    query: 'query ($id: ID) { allSyncRuns(filter: { client_id: $id }) { id state created errors } }',
    variables: { id: f.victim.clientId },
  }),
  'query _allSyncRunsMeta': () => ({ query: '{ _allSyncRunsMeta { count } }' }),
  'query SyncRun': async (f) => ({
    query: 'query ($id: ID!) { SyncRun(id: $id) { id state } }',
    variables: { id: await syncRunId(f) },
  }),
  'query allClientHealths': (f) => ({
    query: 'query ($id: ID) { allClientHealths(filter: { client_id: $id }) { id health reasons } }',
    variables: { id: f.victim.clientId },
  }),
  'query dailyActivity': (f) => ({
    query: 'query ($id: ID) { dailyActivity(client_id: $id, days: 7) { days { day rate_limited } } }',
    variables: { id: f.victim.clientId },
  }),
  'query _allClientHealthsMeta': () => ({ query: '{ _allClientHealthsMeta { count } }' }),
  'query ClientHealth': async (f) => ({
    query: 'query ($id: ID!) { ClientHealth(id: $id) { id health } }',
    variables: { id: await healthId(f) },
  }),
  'query allAuditEvents': (f) => ({
    query: 'query ($id: String) { allAuditEvents(filter: { record_id: $id }) { id action changes } }',
    variables: { id: f.victim.clientId },
  }),
  'query _allAuditEventsMeta': () => ({ query: '{ _allAuditEventsMeta { count } }' }),
  'query AuditEvent': async (f) => ({
    query: 'query ($id: ID!) { AuditEvent(id: $id) { id action } }',
    variables: { id: await auditEventId(f) },
  }),
  'query allDivergences': (f) => ({
    query:
      'query ($id: ID) { allDivergences(filter: { client_id: $id, state: open }) { id sku store_value hiper_value } }',
    variables: { id: f.victim.clientId },
  }),
  'query _allDivergencesMeta': () => ({ query: '{ _allDivergencesMeta { count } }' }),
  'query Divergence': async (f) => ({
    query: 'query ($id: ID!) { Divergence(id: $id) { id kind state } }',
    variables: { id: await divergenceId(f) },
  }),
  'query allProductLinks': (f) => ({
    query: 'query ($id: ID) { allProductLinks(filter: { client_id: $id, q: "Produto" }) { id sku state } }',
    variables: { id: f.victim.clientId },
  }),
  'query _allProductLinksMeta': () => ({ query: '{ _allProductLinksMeta { count } }' }),
  'query ProductLink': async (f) => ({
    query: 'query ($id: ID!) { ProductLink(id: $id) { id sku } }',
    variables: { id: await productLinkId(f) },
  }),
  'query allOrders': (f) => ({
    query: 'query ($id: ID) { allOrders(filter: { client_id: $id }) { id state number } }',
    variables: { id: f.victim.clientId },
  }),
  'query _allOrdersMeta': () => ({ query: '{ _allOrdersMeta { count } }' }),
  'query Order': async (f) => ({
    query: 'query ($id: ID!) { Order(id: $id) { id state } }',
    variables: { id: await orderId(f) },
  }),
  'mutation resendOrder': async (f) => ({
    query: 'mutation ($id: ID!) { resendOrder(id: $id) { id state } }',
    variables: { id: await orderId(f) },
  }),
  'mutation markOrderSent': async (f) => ({
    query: 'mutation ($id: ID!) { markOrderSent(id: $id) { id state } }',
    variables: { id: await orderId(f) },
  }),
  'query allLocations': (f) => ({
    query: 'query ($id: ID) { allLocations(filter: { client_id: $id }) { id name } }',
    variables: { id: f.victim.clientId },
  }),
  'query _allLocationsMeta': () => ({ query: '{ _allLocationsMeta { count } }' }),
  'query Location': async (f) => ({
    query: 'query ($id: ID!) { Location(id: $id) { id name } }',
    variables: { id: await locationId(f) },
  }),
  'mutation updateLocation': async (f) => ({
    query: 'mutation ($id: ID!, $key: String) { updateLocation(id: $id, hiper_token: $key) { id hiper_token } }',
    variables: { id: await locationId(f), key: unique('hiper-key') },
  }),
  'mutation deleteLocation': async (f) => ({
    query: 'mutation ($id: ID!) { deleteLocation(id: $id) { id } }',
    variables: { id: await locationId(f) },
  }),
  'mutation setDefaultLocation': async (f) => ({
    query: 'mutation ($id: ID!) { setDefaultLocation(id: $id) { id is_default } }',
    variables: { id: await locationId(f) },
  }),
  'mutation readStoreLocations': (f) => ({
    query: 'mutation ($id: ID!) { readStoreLocations(id: $id) { id } }',
    variables: { id: f.victim.clientId },
  }),
  'mutation setLocationPriorities': async (f) => ({
    query: 'mutation ($id: ID!, $ids: [ID!]!) { setLocationPriorities(id: $id, location_ids: $ids) { id priority } }',
    variables: { id: f.victim.clientId, ids: [await locationId(f)] },
  }),
  'query allStockMovements': (f) => ({
    query: 'query ($id: ID) { allStockMovements(filter: { client_id: $id }) { id sku value } }',
    variables: { id: f.victim.clientId },
  }),
  'query _allStockMovementsMeta': () => ({ query: '{ _allStockMovementsMeta { count } }' }),
  'query StockMovement': async (f) => ({
    query: 'query ($id: ID!) { StockMovement(id: $id) { id sku } }',
    variables: { id: await stockMovementId(f) },
  }),
  'mutation sweepOrders': (f) => ({
    query: 'mutation ($id: ID!) { sweepOrders(client_id: $id) }',
    variables: { id: f.victim.clientId },
  }),
  'mutation syncClient': (f) => ({
    query: 'mutation ($id: ID!) { syncClient(id: $id, kind: catalogue) { id state } }',
    variables: { id: f.victim.clientId },
  }),
  'query registration': () => ({ query: '{ registration }' }),
  'query allWebhookEvents': () => ({ query: '{ allWebhookEvents { id event store_id outcome received_at } }' }),
  'query _allWebhookEventsMeta': () => ({ query: '{ _allWebhookEventsMeta(filter: { outcome: handled }) { count } }' }),
  'query WebhookEvent': async () => ({
    query: 'query ($id: ID!) { WebhookEvent(id: $id) { id event outcome } }',
    variables: { id: await webhookEventId() },
  }),
  'query allWebhookDays': () => ({ query: '{ allWebhookDays { id store_id day recorded dropped } }' }),
  'query _allWebhookDaysMeta': () => ({ query: '{ _allWebhookDaysMeta { count } }' }),
  'query WebhookDay': async () => ({
    query: 'query ($id: ID!) { WebhookDay(id: $id) { id day dropped } }',
    variables: { id: await webhookDayId() },
  }),
  'mutation login': (f) => ({
    query: 'mutation ($u: String!, $p: String!) { login(username: $u, password: $p) { access_token token_type } }',
    variables: { u: f.victim.email, p: f.victim.password },
  }),
  'mutation signup': () => ({
    query: `mutation ($e: String!) { signup(email: $e, password: "signup-password") ${USER_FIELDS} }`,
    variables: { e: `${unique('signup')}@example.com` },
  }),
  'mutation recoverPassword': (f) => ({
    query: 'mutation ($e: String!) { recoverPassword(email: $e) { message } }',
    variables: { e: f.victim.email },
  }),
  'mutation resetPassword': async () => ({
    query: 'mutation ($t: String!) { resetPassword(token: $t, new_password: "a-new-password") { message } }',
    variables: { t: await resetToken() },
  }),
  'mutation authorizeCallback': () => ({
    query: 'mutation ($c: String!) { authorizeCallback(code: $c) { message checkout_url } }',
    variables: { c: unique('code') },
  }),
  'mutation updateMe': () => ({ query: `mutation { updateMe(full_name: "Renamed") ${USER_FIELDS} }` }),
  'mutation updatePassword': (_f, caller) => ({
    query:
      'mutation ($c: String!) { updatePassword(current_password: $c, new_password: "another-password") { message } }',
    variables: { c: caller.person?.password ?? 'person-password' },
  }),
  'mutation deleteMe': () => ({ query: 'mutation { deleteMe { message } }' }),
  'mutation createUser': () => ({
    query: `mutation ($e: String!) { createUser(email: $e, password: "new-password") ${USER_FIELDS} }`,
    variables: { e: `${unique('new')}@example.com` },
  }),
  'mutation updateUser': async () => ({
    query: `mutation ($id: ID!) { updateUser(id: $id, full_name: "Changed") ${USER_FIELDS} }`,
    variables: { id: await freshUser() },
  }),
  'mutation deleteUser': async () => ({
    query: `mutation ($id: ID!) { deleteUser(id: $id) ${USER_FIELDS} }`,
    variables: { id: await freshUser() },
  }),
  'mutation createItem': () => ({ query: `mutation { createItem(title: "New item") ${ITEM_FIELDS} }` }),
  "mutation updateItem (another user's)": async (f) => ({
    query: `mutation ($id: ID!) { updateItem(id: $id, title: "Changed") ${ITEM_FIELDS} }`,
    variables: { id: await freshItem(f.victim.token) },
  }),
  'mutation updateItem (own)': async (f, caller) => ({
    query: `mutation ($id: ID!) { updateItem(id: $id, title: "Changed") ${ITEM_FIELDS} }`,
    variables: { id: await ownItem(f, caller) },
  }),
  "mutation deleteItem (another user's)": async (f) => ({
    query: `mutation ($id: ID!) { deleteItem(id: $id) ${ITEM_FIELDS} }`,
    variables: { id: await freshItem(f.victim.token) },
  }),
  'mutation deleteItem (own)': async (f, caller) => ({
    query: `mutation ($id: ID!) { deleteItem(id: $id) ${ITEM_FIELDS} }`,
    variables: { id: await ownItem(f, caller) },
  }),
  'mutation createClient': () => ({
    query: `mutation { createClient(url: "https://${unique('new')}.example") ${CLIENT_FIELDS} }`,
  }),
  'query allArchivedClients': () => ({ query: '{ allArchivedClients { id url archived_at } }' }),
  'query _allArchivedClientsMeta': () => ({ query: '{ _allArchivedClientsMeta { count } }' }),
  'query ArchivedClient': async () => ({
    query: 'query ($id: ID!) { ArchivedClient(id: $id) { id archived_at } }',
    variables: { id: await archivedClient() },
  }),
  'mutation restoreClient': async () => ({
    query: 'mutation ($id: ID!) { restoreClient(id: $id) { id archived_at } }',
    variables: { id: await archivedClient() },
  }),
  'mutation purgeClient': async () => ({
    query: 'mutation ($id: ID!) { purgeClient(id: $id) { id } }',
    variables: { id: await archivedClient() },
  }),
  'mutation updateClient': async () => ({
    query: `mutation ($id: ID!) { updateClient(id: $id, url: "https://${unique('changed')}.example") ${CLIENT_FIELDS} }`,
    variables: { id: await freshClient() },
  }),
  'mutation deleteClient': async () => ({
    query: `mutation ($id: ID!) { deleteClient(id: $id) ${CLIENT_FIELDS} }`,
    variables: { id: await freshClient() },
  }),
};

const AUTH_FAILURE: Partial<Record<CallerKind, string>> = {
  anonymous: 'Not authenticated',
  inactive: 'Inactive user',
  deleted: 'Could not validate credentials',
  expired: 'Could not validate credentials',
  otherKey: 'Could not validate credentials',
  beforePasswordChange: 'Could not validate credentials',
};

function expectedDetail(row: MatrixRow, caller: CallerKind, status: number): string {
  if (row.refused) return row.refused;
  if (status === 403 && (caller === 'user' || caller === 'superuser')) {
    return row.forbidden ?? "The user doesn't have enough privileges";
  }
  // A refusal past authorization (a client not connected to both platforms) says why in the row.
  if (status === 409 && row.forbidden && (caller === 'user' || caller === 'superuser')) return row.forbidden;
  const detail = AUTH_FAILURE[caller];
  if (!detail) throw new Error(`no expected detail for ${caller} answered ${status}`);
  return detail;
}

const CODES: Record<number, string> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
};
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const EMAIL = /[\w.+-]+@[\w-]+\.[\w.]+/;

/** A refused call's answer holds nothing of any record: no id, no address, none of the private text. */
function expectNoRecordData(text: string): void {
  expect(text).not.toMatch(UUID);
  expect(text).not.toMatch(EMAIL);
  expect(text).not.toContain(MARK);
}

/** What an ordinary user may not see when served: another user's account and items (clients are shared by all). */
function expectNothingOfVictim(row: MatrixRow, text: string, f: Fixture): void {
  if (/client/i.test(row.operation) || row.expected.anonymous === 200) return;
  expect(text).not.toContain(f.victim.id);
  expect(text).not.toContain(f.victim.email);
  expect(text).not.toContain(f.victim.itemId);
}

async function checkRest(row: MatrixRow, f: Fixture, kind: CallerKind): Promise<void> {
  const caller = f.callers[kind];
  const spec = await REST[row.operation](f, caller);
  const answer = await t.request(spec.method, `/api/v1${spec.path}`, {
    token: caller.token,
    json: spec.json,
    form: spec.form,
    raw: spec.raw,
    headers: spec.headers,
  });
  const expected = row.expected[kind];
  expect(answer.status, answer.text).toBe(expected);
  if (expected === 200) {
    if (kind === 'user') expectNothingOfVictim(row, answer.text, f);
    return;
  }
  expect(answer.body).toEqual({ detail: expectedDetail(row, kind, expected) });
  expectNoRecordData(answer.text);
}

async function checkGraphql(row: MatrixRow, f: Fixture, kind: CallerKind): Promise<void> {
  const caller = f.callers[kind];
  const spec = await GRAPHQL[row.operation](f, caller);
  const answer = await t.graphql(spec.query, spec.variables, caller.token);
  const field = row.operation.split(' ')[1];
  const expected = row.expected[kind];
  expect(answer.status, answer.text).toBe(200);
  if (expected === 200) {
    expect(answer.body.errors, answer.text).toBeUndefined();
    expect(answer.body.data?.[field]).toBeTruthy();
    if (kind === 'user') expectNothingOfVictim(row, answer.text, f);
    return;
  }
  expect(answer.body.data ?? null, answer.text).toBeNull();
  expect(answer.body.errors).toHaveLength(1);
  const [error] = answer.body.errors!;
  const detail = expectedDetail(row, kind, expected);
  expect(error.message).toBe(detail);
  // A token that does not work (or none) is UNAUTHENTICATED whatever its REST status: clients sign in again on the code.
  const session = detail === AUTH_FAILURE[kind];
  expect(error.extensions).toMatchObject({ code: session ? 'UNAUTHENTICATED' : CODES[expected], status: expected });
  expectNoRecordData(answer.text);
}

let cells = 0;

describe('authorization matrix', () => {
  it('lists every REST route and every GraphQL operation, each with a request', async () => {
    const openapi = ok(await t.request('GET', '/api/v1/openapi.json'), 'openapi');
    const routes = Object.entries(openapi.paths as Record<string, object>).flatMap(([p, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${p.replace(/^\/api\/v1/, '')}`),
    );
    routes.push('GET /openapi.json');
    const sdl = readFileSync(path.join(__dirname, '..', '..', 'schema', 'schema.graphql'), 'utf8');
    const schema = buildSchema(sdl);
    const operations = [
      ...Object.keys(schema.getQueryType()!.getFields()).map((name) => `query ${name}`),
      ...Object.keys(schema.getMutationType()!.getFields()).map((name) => `mutation ${name}`),
    ];
    const listed = (api: MatrixRow['api']) => new Set(MATRIX.filter((r) => r.api === api).map(operationName));
    expect([...new Set(routes)].sort()).toEqual([...listed('REST')].sort());
    expect([...new Set(operations)].sort()).toEqual([...listed('GraphQL')].sort());
    for (const row of MATRIX) {
      expect(row.api === 'REST' ? REST[row.operation] : GRAPHQL[row.operation], row.operation).toBeDefined();
    }
  });

  for (const row of MATRIX) {
    it(`${row.api} ${row.operation}: ${CALLERS.map((c) => `${c} ${row.expected[c]}`).join(', ')}`, async () => {
      const f = await fixture();
      for (const kind of CALLERS) {
        try {
          await (row.api === 'REST' ? checkRest(row, f, kind) : checkGraphql(row, f, kind));
        } catch (error) {
          throw new Error(`${row.api} ${row.operation} as ${kind}: ${(error as Error).message}`, { cause: error });
        }
        cells++;
      }
    });
  }

  afterAll(() => {
    const rows = (api: MatrixRow['api']) => MATRIX.filter((r) => r.api === api).length;
    recordFigures('authorization', {
      matrixCells: `${cells} of ${MATRIX.length * CALLERS.length}`,
      matrixOperations: `${MATRIX.length} (${rows('REST')} REST, ${rows('GraphQL')} GraphQL) x ${CALLERS.length}`,
    });
  });
});
