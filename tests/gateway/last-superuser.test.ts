import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGatewayAsSuperuser, type Answer, type TestGateway } from '../support/gateway';

/**
 * Two superusers take each other's rights at the same moment, by REST and GraphQL: whatever the order the database
 * sees their changes in, one of them is refused and the system keeps an active superuser.
 */
const LAST_SUPERUSER = 'The system must keep at least one active superuser';
const ROUNDS = 50;

type Way = 'demote' | 'deactivate' | 'delete';
interface Superuser {
  email: string;
  password: string;
  id: string;
  token: string;
}

let t: TestGateway;
let su: string;
let suId: string;

beforeAll(async () => {
  ({ t, su, suId } = await startTestGatewayAsSuperuser());
});
afterAll(() => t?.close());

const activeSuperusers = async () =>
  (await t.sql<{ id: string }>('select id from users where is_superuser and is_active order by email')).map(
    (r) => r.id,
  );

async function createSuperuser(email: string, token: string): Promise<Superuser> {
  const password = 'a-superuser-password';
  const created = await t.request('POST', '/api/v1/users/', {
    token,
    json: { email, password, is_superuser: true },
  });
  expect(created.status, created.text).toBe(200);
  return { email, password, id: created.body.id, token: await t.login(email, password) };
}

/** `actor` takes `target`'s rights away, by REST or GraphQL; the answer as status and detail either way. */
async function takeRights(
  actor: Superuser,
  target: Superuser,
  way: Way,
  graphql: boolean,
): Promise<{ status: number; detail?: string }> {
  if (graphql) {
    const mutation =
      way === 'delete'
        ? 'mutation($id: ID!) { deleteUser(id: $id) { id } }'
        : `mutation($id: ID!) { updateUser(id: $id, ${way === 'demote' ? 'is_superuser' : 'is_active'}: false) { id } }`;
    const answer = await t.graphql(mutation, { id: target.id }, actor.token);
    const error = answer.body.errors?.[0];
    return error ? { status: error.extensions.status, detail: error.message } : { status: 200 };
  }
  const path = `/api/v1/users/${target.id}`;
  const answer: Answer =
    way === 'delete'
      ? await t.request('DELETE', path, { token: actor.token })
      : await t.request('PATCH', path, {
          token: actor.token,
          json: way === 'demote' ? { is_superuser: false } : { is_active: false },
        });
  return { status: answer.status, detail: answer.body?.detail };
}

/** Gives `loser` back what `way` took, as `winner`; a deleted superuser is made again (with a new id). */
async function restore(winner: Superuser, loser: Superuser, way: Way): Promise<void> {
  if (way === 'delete') {
    Object.assign(loser, await createSuperuser(loser.email, winner.token));
    return;
  }
  const answer = await t.request('PATCH', `/api/v1/users/${loser.id}`, {
    token: winner.token,
    json: way === 'demote' ? { is_superuser: true } : { is_active: true },
  });
  expect(answer.status, answer.text).toBe(200);
  // Deactivation ended the loser's sessions.
  if (way === 'deactivate') loser.token = await t.login(loser.email, loser.password);
}

/**
 * Runs `requests` while a transaction of the test holds both superusers' rows, and lets them go once both requests
 * wait for them: each request has been signed in and has read its target before either changes anything.
 */
async function atTheSameMoment<T>(rowIds: string[], requests: () => Promise<T>[]): Promise<T[]> {
  const holder = new Client({ connectionString: t.databaseUrl });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query('select id from users where id = any($1) for update', [rowIds]);
    const answers = Promise.all(requests());
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { rows } = await holder.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
      );
      if (rows[0].n >= rowIds.length) break;
      if (Date.now() > deadline) throw new Error(`only ${rows[0].n} requests reached the rows`);
      await new Promise((r) => setTimeout(r, 5));
    }
    await holder.query('commit');
    return await answers;
  } finally {
    await holder.end();
  }
}

describe('the last active superuser', () => {
  it(`stays, over ${ROUNDS} rounds of two superusers demoting, deactivating or deleting each other at once`, async () => {
    const a = await createSuperuser('first.in.charge@example.com', su);
    const b = await createSuperuser('second.in.charge@example.com', su);
    // The first superuser steps down: a and b are the only ones left.
    expect((await takeRights(a, { ...a, id: suId }, 'demote', false)).status).toBe(200);
    expect(await activeSuperusers()).toEqual([a.id, b.id]);

    const ways: Way[] = ['demote', 'deactivate', 'delete'];
    const tally: Record<Way, number> = { demote: 0, deactivate: 0, delete: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const way = ways[round % ways.length];
      // REST against GraphQL, then the other way round, then both alike.
      const graphql = [round % 4 === 1 || round % 4 === 3, round % 4 === 2 || round % 4 === 3];
      const [byA, byB] = await atTheSameMoment([a.id, b.id], () => [
        takeRights(a, b, way, graphql[0]),
        takeRights(b, a, way, graphql[1]),
      ]);
      const context = `round ${round}: ${way}, ${JSON.stringify({ byA, byB })}`;
      expect([byA.status, byB.status].sort(), context).toEqual([200, 403]);
      const refused = byA.status === 403 ? byA : byB;
      expect(refused.detail, context).toBe(LAST_SUPERUSER);
      const [winner, loser] = byA.status === 200 ? [a, b] : [b, a];
      expect(await activeSuperusers(), context).toEqual([winner.id]);
      tally[way]++;
      await restore(winner, loser, way);
      expect((await activeSuperusers()).sort(), context).toEqual([a.id, b.id].sort());
    }
    expect(tally).toEqual({ demote: 17, deactivate: 17, delete: 16 });
    // What the refused calls left is whole: both still sign in and act as superusers.
    for (const s of [a, b]) {
      const me = await t.request('GET', '/api/v1/users/me', { token: await t.login(s.email, s.password) });
      expect(me.body).toMatchObject({ id: s.id, is_superuser: true, is_active: true });
    }
  }, 120_000);

  it('is kept by the database itself, whatever statement tries to take it away', async () => {
    const [last, ...others] = await activeSuperusers();
    for (const other of others) {
      await t.sql('update users set is_superuser = false where id = $1', [other]);
    }
    expect(await activeSuperusers()).toEqual([last]);
    for (const statement of [
      'update users set is_superuser = false where is_superuser',
      'update users set is_active = false where id = $1',
      'delete from users where id = $1',
    ]) {
      await expect(t.sql(statement, statement.includes('$1') ? [last] : []), statement).rejects.toMatchObject({
        code: '23514',
        constraint: 'users_keep_an_active_superuser',
      });
    }
    expect(await activeSuperusers()).toEqual([last]);
    // Handing the role over in one statement keeps an active superuser throughout: allowed.
    const [heir] = others;
    await t.sql('update users set is_superuser = (id = $2) where id in ($1, $2)', [last, heir]);
    expect(await activeSuperusers()).toEqual([heir]);
  });
});
