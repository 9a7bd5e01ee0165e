import { describe, expect, it } from 'vitest';
import { SUPERUSER } from '../support/gateway';
import { syncSuite } from '../support/sync';

/**
 * The audit log: every write a person makes through REST or GraphQL recorded in the write's own transaction (who,
 * when, from which address, what, the fields changed; secrets as `alterado`), read by superusers only, filtered and
 * paged like the other lists.
 */
const suite = syncSuite();

interface AuditEvent {
  id: string;
  created_at: string;
  user_id: string | null;
  user_email: string | null;
  address: string | null;
  action: string;
  resource: string;
  record_id: string;
  changes: Record<string, { before?: unknown; after?: unknown }>;
}

const eventsOf = async (query: string) => {
  const answer = await suite.t.request('GET', `/api/v1/audit-events/?${query}`, { token: suite.su });
  expect(answer.status).toBe(200);
  return answer.body as { data: AuditEvent[]; count: number };
};

const recordEvents = async (id: string) => (await eventsOf(`record_id=${id}`)).data;
const total = async () =>
  Number((await suite.t.sql<{ n: number }>('select count(*)::int as n from audit_events'))[0].n);
const superuserId = async () =>
  (await suite.t.request('GET', '/api/v1/users/me', { token: suite.su })).body.id as string;

describe('the audit log', () => {
  it('records a create with its values, who and from where, the secrets as alterado', async () => {
    const c = await suite.tools.connectedClient({ name: 'Loja Auditada' });
    const [created] = await recordEvents(c.id);
    expect(created).toMatchObject({
      user_id: await superuserId(),
      user_email: SUPERUSER.email,
      action: 'create',
      resource: 'Client',
      record_id: c.id,
    });
    expect(created.address).toMatch(/127\.0\.0\.1/);
    expect(Date.now() - Date.parse(created.created_at)).toBeLessThan(60_000);
    expect(created.changes.name).toEqual({ after: 'Loja Auditada' });
    expect(created.changes.url).toEqual({ after: `https://loja${c.storeId}.example.com` });
    expect(created.changes.hiper_token).toEqual({ after: 'alterado' });
    expect(created.changes.nuvemshop_token).toEqual({ after: 'alterado' });
    // Neither secret's value is anywhere in the row.
    const [row] = await suite.t.sql<{ changes: unknown }>('select changes from audit_events where id = $1', [
      created.id,
    ]);
    expect(JSON.stringify(row.changes)).not.toContain(c.account.key);
    expect(JSON.stringify(row.changes)).not.toContain(c.store.token);
  });

  it('records a create through GraphQL as through REST, and nothing for one the unique index refuses', async () => {
    const create = (url: string) =>
      suite.t.graphql(
        'mutation ($url: String!) { createClient(url: $url, name: "Pela GraphQL", hiper_token: "uma-chave-hiper-secreta") { id } }',
        { url },
        suite.su,
      );
    const url = `https://graphql-${Date.now()}.example.com`;
    const created = await create(url);
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data!.createClient.id as string;
    const [event] = await recordEvents(id);
    expect(event).toMatchObject({
      action: 'create',
      resource: 'Client',
      user_email: SUPERUSER.email,
      changes: { name: { after: 'Pela GraphQL' }, hiper_token: { after: 'alterado' } },
    });
    expect(event.address).toMatch(/127\.0\.0\.1/);
    const before = await total();
    const again = await create(url);
    expect(again.body.errors?.[0]?.extensions?.status).toBe(409);
    expect(await total()).toBe(before);
  });

  it('records only the fields an update changed, before and after; a new token as alterado', async () => {
    const c = await suite.tools.connectedClient({ name: 'Antes' });
    const changed = await suite.t.request('PUT', `/api/v1/clients/${c.id}`, {
      token: suite.su,
      json: { name: 'Depois', nuvemshop_token: 'a-new-store-token-1234', hiper_sync_update_image: true },
    });
    expect(changed.status).toBe(200);
    const [update] = await recordEvents(c.id);
    expect(update.action).toBe('update');
    expect(update.changes).toEqual({
      name: { before: 'Antes', after: 'Depois' },
      nuvemshop_token: { before: 'alterado', after: 'alterado' },
    });
    expect(JSON.stringify(update)).not.toContain('a-new-store-token-1234');
  });

  it('records a delete with the values the record had', async () => {
    const c = await suite.tools.connectedClient({ name: 'Vai embora' });
    const deleted = await suite.t.request('DELETE', `/api/v1/clients/${c.id}`, { token: suite.su });
    expect(deleted.status).toBe(200);
    const [gone] = await recordEvents(c.id);
    expect(gone.action).toBe('delete');
    expect(gone.changes.name).toEqual({ before: 'Vai embora' });
    expect(gone.changes.hiper_token).toEqual({ before: 'alterado' });
    expect(Object.values(gone.changes).every((change) => !('after' in change))).toBe(true);
  });

  it('records an action through REST and through GraphQL', async () => {
    const c = await suite.tools.connectedClient();
    await suite.tools.syncNow(c.id, 'stock');
    const [rest] = await recordEvents(c.id);
    expect(rest).toMatchObject({ action: 'sync', resource: 'Client', changes: { kind: { after: 'stock' } } });

    const answer = await suite.t.graphql(
      'mutation ($id: ID!) { syncClient(id: $id, kind: catalogue) { id } }',
      { id: c.id },
      suite.su,
    );
    expect(answer.body.errors).toBeUndefined();
    await suite.tools.waitForRun(answer.body.data!.syncClient.id);
    const [graphql] = await recordEvents(c.id);
    expect(graphql).toMatchObject({
      action: 'sync',
      user_email: SUPERUSER.email,
      changes: { kind: { after: 'catalogue' } },
    });
  });

  it('commits an action with its audit row or not at all: a row the database refuses undoes the action', async () => {
    const c = await suite.tools.connectedClient();
    const runs = async () =>
      Number(
        (await suite.t.sql<{ n: number }>('select count(*)::int as n from sync_runs where client_id = $1', [c.id]))[0]
          .n,
      );
    const before = await runs();
    await suite.t.sql(
      `create function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`,
    );
    await suite.t.sql('create trigger refuse_audit before insert on audit_events execute function refuse_audit()');
    try {
      const answer = await suite.t.request('POST', `/api/v1/clients/${c.id}/sync`, { token: suite.su, json: {} });
      expect(answer.status).toBeGreaterThanOrEqual(500);
      // No run was queued: the action and its record went together.
      expect(await runs()).toBe(before);
    } finally {
      await suite.t.sql('drop trigger refuse_audit on audit_events');
      await suite.t.sql('drop function refuse_audit()');
    }
    const answer = await suite.t.request('POST', `/api/v1/clients/${c.id}/sync`, { token: suite.su, json: {} });
    expect(answer.status).toBe(202);
    expect(await runs()).toBe(before + 1);
    await suite.tools.waitForRun(answer.body.id);
  });

  it('records a user’s role and activation changed, and a password changed as alterado, never a hash', async () => {
    const user = await suite.t.createUser();
    const [signup] = await recordEvents(user.id);
    expect(signup).toMatchObject({ action: 'signup', user_id: user.id, user_email: user.email, resource: 'User' });
    expect(signup.changes.password).toEqual({ after: 'alterado' });

    const promoted = await suite.t.request('PATCH', `/api/v1/users/${user.id}`, {
      token: suite.su,
      json: { is_superuser: true, is_active: true },
    });
    expect(promoted.status).toBe(200);
    const [role] = await recordEvents(user.id);
    expect(role).toMatchObject({ action: 'update', user_email: SUPERUSER.email });
    expect(role.changes).toEqual({ is_superuser: { before: false, after: true } });

    const changed = await suite.t.request('PATCH', '/api/v1/users/me/password', {
      token: user.token,
      json: { current_password: user.password, new_password: 'another-good-password' },
    });
    expect(changed.status).toBe(200);
    const [password] = await recordEvents(user.id);
    expect(password).toMatchObject({
      action: 'password',
      user_id: user.id,
      changes: { password: { before: 'alterado', after: 'alterado' } },
    });
    const rows = await suite.t.sql<{ changes: unknown }>('select changes from audit_events where record_id = $1', [
      user.id,
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/\$2[aby]\$|another-good-password/);

    // Through GraphQL: a superuser takes the role away; the account deleted keeps its rows, e-mail and all.
    const demoted = await suite.t.graphql(
      'mutation ($id: ID!) { updateUser(id: $id, is_superuser: false) { id is_superuser } }',
      { id: user.id },
      suite.su,
    );
    expect(demoted.body.errors).toBeUndefined();
    expect((await recordEvents(user.id))[0].changes).toEqual({ is_superuser: { before: true, after: false } });
    const deleted = await suite.t.request('DELETE', `/api/v1/users/${user.id}`, { token: suite.su });
    expect(deleted.status).toBe(200);
    const events = await recordEvents(user.id);
    expect(events[0]).toMatchObject({ action: 'delete', changes: { email: { before: user.email } } });
    expect(events.find((e) => e.action === 'password')).toMatchObject({ user_id: user.id, user_email: user.email });
  });

  it('records nothing for a write that failed', async () => {
    const c = await suite.tools.connectedClient();
    const before = await total();
    // A unique field taken (409), a value the rules refuse (422), a record that is not there (404), an action refused.
    const taken = await suite.t.request('POST', '/api/v1/clients/', {
      token: suite.su,
      json: { url: `https://loja${c.storeId}.example.com`, nuvemshop_store_id: c.storeId + 100_000 },
    });
    expect(taken.status).toBe(409);
    const refused = await suite.t.request('PUT', `/api/v1/clients/${c.id}`, {
      token: suite.su,
      json: { nuvemshop_store_id: 'not a number' },
    });
    expect(refused.status).toBe(422);
    const missing = await suite.t.request('PUT', '/api/v1/clients/00000000-0000-4000-8000-000000000000', {
      token: suite.su,
      json: { name: 'Ninguém' },
    });
    expect(missing.status).toBe(404);
    const noSync = await suite.t.request('POST', '/api/v1/clients/00000000-0000-4000-8000-000000000000/sync', {
      token: suite.su,
      json: { kind: 'stock' },
    });
    expect(noSync.status).toBe(404);
    const wrongPassword = await suite.t.request('PATCH', '/api/v1/users/me/password', {
      token: suite.su,
      json: { current_password: 'not-the-password', new_password: 'whatever-password' },
    });
    expect(wrongPassword.status).toBe(400);
    expect(await total()).toBe(before);
  });

  it('is the superusers’: anyone else gets 403 through REST and GraphQL', async () => {
    const user = await suite.t.createUser();
    const rest = await suite.t.request('GET', '/api/v1/audit-events/', { token: user.token });
    expect(rest.status).toBe(403);
    const [any] = (await eventsOf('limit=1')).data;
    expect((await suite.t.request('GET', `/api/v1/audit-events/${any.id}`, { token: user.token })).status).toBe(403);
    const graphql = await suite.t.graphql('{ allAuditEvents { id } _allAuditEventsMeta { count } }', {}, user.token);
    expect(graphql.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await suite.t.request('GET', '/api/v1/audit-events/')).status).toBe(401);
  });

  it('answers a bad filter 422 naming it', async () => {
    const bad = async (query: string) => {
      const answer = await suite.t.request('GET', `/api/v1/audit-events/?${query}`, { token: suite.su });
      expect(answer.status).toBe(422);
      return answer.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    };
    expect(await bad('user_id=not-a-uuid')).toEqual(['query.user_id']);
    expect(await bad('since=yesterday')).toEqual(['query.since']);
    expect(await bad('until=2026-13-45')).toEqual(['query.until']);
    expect(await bad('resource=Nope')).toEqual(['query.resource']);
    expect(await bad('since=2026-05-02&until=2026-05-01')).toEqual(['query.since']);
    const graphql = await suite.t.graphql('{ allAuditEvents(filter: { since: "ontem" }) { id } }', {}, suite.su);
    expect(graphql.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(graphql.body.errors)).toContain('since');
  });

  it('filters by user, resource, record and date, pages like the other lists, and answers one event', async () => {
    const user = await suite.t.createUser();
    const c = await suite.tools.connectedClient({ name: 'Filtrada' });
    for (const name of ['Um', 'Dois', 'Três'])
      expect(
        (await suite.t.request('PUT', `/api/v1/clients/${c.id}`, { token: suite.su, json: { name } })).status,
      ).toBe(200);
    const mine = await eventsOf(`user_id=${user.id}`);
    expect(mine.count).toBe(1);
    expect(mine.data[0].action).toBe('signup');

    const client = await eventsOf(`resource=Client&record_id=${c.id}`);
    expect(client.count).toBe(4);
    expect(client.data.map((e) => e.changes.name?.after)).toEqual(['Três', 'Dois', 'Um', 'Filtrada']);
    const page = await eventsOf(`record_id=${c.id}&skip=1&limit=2`);
    expect(page.count).toBe(4);
    expect(page.data.map((e) => e.changes.name?.after)).toEqual(['Dois', 'Um']);

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await eventsOf(`record_id=${c.id}&since=${tomorrow}`)).count).toBe(0);
    expect((await eventsOf(`record_id=${c.id}&until=${tomorrow}`)).count).toBe(4);
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    expect((await eventsOf(`record_id=${c.id}&since=${encodeURIComponent(hourAgo)}`)).count).toBe(4);
    expect((await eventsOf(`resource=Order&record_id=${c.id}`)).count).toBe(0);

    const graphql = await suite.t.graphql(
      `query ($filter: AuditEventFilter) {
        allAuditEvents(filter: $filter, page: 0, perPage: 2) { action record_id user_email changes }
        _allAuditEventsMeta(filter: $filter) { count }
      }`,
      { filter: { resource: 'Client', record_id: c.id, user_id: await superuserId() } },
      suite.su,
    );
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data._allAuditEventsMeta.count).toBe(4);
    expect(graphql.body.data.allAuditEvents).toHaveLength(2);
    expect(graphql.body.data.allAuditEvents[0]).toMatchObject({
      action: 'update',
      changes: { name: { after: 'Três' } },
    });

    const one = await suite.t.request('GET', `/api/v1/audit-events/${page.data[0].id}`, { token: suite.su });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(page.data[0]);
    const byGraphql = await suite.t.graphql(
      'query ($id: ID!) { AuditEvent(id: $id) { id action } }',
      { id: page.data[0].id },
      suite.su,
    );
    expect(byGraphql.body.data.AuditEvent).toEqual({ id: page.data[0].id, action: 'update' });
    const none = await suite.t.request('GET', '/api/v1/audit-events/00000000-0000-4000-8000-000000000000', {
      token: suite.su,
    });
    expect(none.status).toBe(404);
  });

  it('records nothing the system writes itself: a sync run’s own changes to the client', async () => {
    const c = await suite.tools.connectedClient();
    const before = (await recordEvents(c.id)).length;
    await suite.tools.syncNow(c.id, 'stock');
    // The one row is the person's request to sync; the run's writes (its state, last_synced_at) are not audited.
    const events = await recordEvents(c.id);
    expect(events.length).toBe(before + 1);
    expect(events[0].action).toBe('sync');
  });
});
