import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGatewayAsSuperuser, SUPERUSER, type TestGateway } from '../support/gateway';

const USER_KEYS = ['email', 'full_name', 'id', 'is_active', 'is_superuser', 'receives_alerts'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let t: TestGateway;
let su: string;
let suId: string;

beforeAll(async () => ({ t, su, suId } = await startTestGatewayAsSuperuser()));
afterAll(() => t?.close());

let counter = 0;
const newEmail = (label = 'user') => `${label}-${++counter}-${Date.now()}@example.com`;

/** A User as the contract shapes it: these five keys and nothing else (never a password or hash). */
function expectUser(body: unknown, expected: Record<string, unknown> = {}): void {
  expect(Object.keys(body as object).sort()).toEqual(USER_KEYS);
  expect(body).toMatchObject(expected);
  expect((body as { id: string }).id).toMatch(UUID);
}

async function itemsOf(ownerId: string): Promise<number> {
  const [row] = await t.sql<{ n: string }>('select count(*) as n from items where owner_id = $1', [ownerId]);
  return Number(row.n);
}

async function addItems(token: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const answer = await t.request('POST', '/api/v1/items/', { token, json: { title: `item ${i}` } });
    expect(answer.status).toBe(200);
  }
}

describe('GET /users/', () => {
  it('lists every user with the total count to a superuser', async () => {
    await t.createUser();
    await t.createUser();
    const answer = await t.request('GET', '/api/v1/users/', { token: su });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['count', 'data']);
    const [{ n }] = await t.sql<{ n: string }>('select count(*) as n from users');
    expect(answer.body.count).toBe(Number(n));
    expect(answer.body.data).toHaveLength(Number(n));
    for (const user of answer.body.data) expectUser(user);
    expect(answer.body.data.map((u: { email: string }) => u.email)).toContain(SUPERUSER.email);
  });

  it('pages with skip and limit while count stays the total', async () => {
    for (let i = 0; i < 3; i++) await t.createUser();
    const all = await t.request('GET', '/api/v1/users/', { token: su });
    const page = await t.request('GET', '/api/v1/users/?skip=1&limit=2', { token: su });
    expect(page.status).toBe(200);
    expect(page.body.count).toBe(all.body.count);
    expect(page.body.data).toEqual(all.body.data.slice(1, 3));
    const beyond = await t.request('GET', `/api/v1/users/?skip=${all.body.count}`, { token: su });
    expect(beyond.body).toEqual({ data: [], count: all.body.count });
  });

  it('answers 422 for skip or limit that are not non-negative integers', async () => {
    const answer = await t.request('GET', '/api/v1/users/?skip=-1&limit=ten', { token: su });
    expect(answer.status).toBe(422);
    expect(answer.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([
      ['query', 'skip'],
      ['query', 'limit'],
    ]);
  });

  it('refuses an ordinary user', async () => {
    const user = await t.createUser();
    const answer = await t.request('GET', '/api/v1/users/', { token: user.token });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ detail: "The user doesn't have enough privileges" });
  });
});

describe('POST /users/', () => {
  it('creates an active, ordinary user by default', async () => {
    const email = newEmail();
    const answer = await t.request('POST', '/api/v1/users/', {
      token: su,
      json: { email, password: 'a-good-password', full_name: 'Made By Admin' },
    });
    expect(answer.status).toBe(200);
    expectUser(answer.body, { email, full_name: 'Made By Admin', is_active: true, is_superuser: false });
    expect(
      (await t.request('GET', '/api/v1/users/me', { token: await t.login(email, 'a-good-password') })).body,
    ).toEqual(answer.body);
  });

  it('creates a superuser or an inactive user when asked, with full_name null when not given', async () => {
    const admin = await t.request('POST', '/api/v1/users/', {
      token: su,
      json: { email: newEmail('admin'), password: 'a-good-password', is_superuser: true },
    });
    expect(admin.status).toBe(200);
    expectUser(admin.body, { is_superuser: true, is_active: true, full_name: null });
    const inactive = await t.request('POST', '/api/v1/users/', {
      token: su,
      json: { email: newEmail('off'), password: 'a-good-password', is_active: false },
    });
    expectUser(inactive.body, { is_superuser: false, is_active: false });
  });

  it('stores the email in lower case and refuses it again in any letter case', async () => {
    const email = newEmail('Mixed.Case');
    const created = await t.request('POST', '/api/v1/users/', {
      token: su,
      json: { email: email.toUpperCase(), password: 'a-good-password' },
    });
    expect(created.body.email).toBe(email.toLowerCase());
    for (const again of [email, email.toUpperCase()]) {
      const answer = await t.request('POST', '/api/v1/users/', {
        token: su,
        json: { email: again, password: 'another-password' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ detail: 'The user with this email already exists in the system.' });
    }
    const rows = await t.sql('select id from users where lower(email) = lower($1)', [email]);
    expect(rows).toHaveLength(1);
  });

  it('stores a bcrypt hash, never the password, and never answers it', async () => {
    const email = newEmail();
    const answer = await t.request('POST', '/api/v1/users/', {
      token: su,
      json: { email, password: 'a-secret-password' },
    });
    expect(answer.text).not.toContain('a-secret-password');
    expect(answer.text).not.toMatch(/\$2[aby]\$/);
    const [row] = await t.sql<{ hashed_password: string }>('select hashed_password from users where email = $1', [
      email,
    ]);
    expect(row.hashed_password).toMatch(/^\$2[aby]\$\d\d\$/);
    expect(row.hashed_password).not.toContain('a-secret-password');
  });

  it('answers 422 for an invalid email or a password out of bounds', async () => {
    const cases = [
      [{ email: 'not-an-email', password: 'a-good-password' }, ['body', 'email']],
      [{ email: `${'a'.repeat(250)}@example.com`, password: 'a-good-password' }, ['body', 'email']],
      [{ email: newEmail(), password: 'short' }, ['body', 'password']],
      [{ email: newEmail(), password: 'p'.repeat(129) }, ['body', 'password']],
      [{ email: newEmail(), password: 'a-good-password', full_name: 'n'.repeat(256) }, ['body', 'full_name']],
      [{ password: 'a-good-password' }, ['body', 'email']],
    ] as const;
    const before = await t.sql('select id from users');
    for (const [json, loc] of cases) {
      const answer = await t.request('POST', '/api/v1/users/', { token: su, json });
      expect(answer.status, JSON.stringify(json).slice(0, 60)).toBe(422);
      expect(answer.body.detail).toEqual([
        expect.objectContaining({ loc, type: expect.any(String), msg: expect.any(String) }),
      ]);
    }
    expect(await t.sql('select id from users')).toHaveLength(before.length);
  });

  it('refuses an ordinary user', async () => {
    const user = await t.createUser();
    const email = newEmail();
    const answer = await t.request('POST', '/api/v1/users/', {
      token: user.token,
      json: { email, password: 'a-good-password', is_superuser: true },
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ detail: "The user doesn't have enough privileges" });
    expect(await t.sql('select id from users where email = $1', [email])).toEqual([]);
  });
});

describe('GET /users/me', () => {
  it('answers the signed-in user', async () => {
    const user = await t.createUser();
    const answer = await t.request('GET', '/api/v1/users/me', { token: user.token });
    expect(answer.status).toBe(200);
    expectUser(answer.body, {
      id: user.id,
      email: user.email,
      full_name: 'Test User',
      is_active: true,
      is_superuser: false,
    });
  });
});

describe('PATCH /users/me', () => {
  it('changes full_name and email, leaving what was not sent', async () => {
    const user = await t.createUser();
    const named = await t.request('PATCH', '/api/v1/users/me', { token: user.token, json: { full_name: 'New Name' } });
    expect(named.status).toBe(200);
    expectUser(named.body, { id: user.id, email: user.email, full_name: 'New Name' });

    const email = newEmail('moved');
    const moved = await t.request('PATCH', '/api/v1/users/me', {
      token: user.token,
      json: { email: email.toUpperCase(), confirm_password: 'ignored' },
    });
    expect(moved.status).toBe(200);
    expectUser(moved.body, { id: user.id, email, full_name: 'New Name' });
    expect((await t.request('GET', '/api/v1/users/me', { token: await t.login(email, user.password) })).body.id).toBe(
      user.id,
    );
  });

  it('does not let an ordinary user raise their own privileges', async () => {
    const user = await t.createUser();
    const answer = await t.request('PATCH', '/api/v1/users/me', {
      token: user.token,
      json: { is_superuser: true, is_active: false },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ is_superuser: false, is_active: true });
  });

  it("answers 409 for another user's email in any letter case", async () => {
    const user = await t.createUser();
    const other = await t.createUser();
    for (const email of [other.email, other.email.toUpperCase()]) {
      const answer = await t.request('PATCH', '/api/v1/users/me', { token: user.token, json: { email } });
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ detail: 'User with this email already exists' });
    }
    expect((await t.request('GET', '/api/v1/users/me', { token: user.token })).body.email).toBe(user.email);
  });

  it('accepts the own email again, in another letter case', async () => {
    const user = await t.createUser();
    const answer = await t.request('PATCH', '/api/v1/users/me', {
      token: user.token,
      json: { email: user.email.toUpperCase() },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.email).toBe(user.email);
  });
});

describe('PATCH /users/me/password', () => {
  it('changes the password', async () => {
    const user = await t.createUser();
    const answer = await t.request('PATCH', '/api/v1/users/me/password', {
      token: user.token,
      json: { current_password: user.password, new_password: 'the-new-password' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: 'Password updated successfully' });
    await expect(t.login(user.email, 'the-new-password')).resolves.toEqual(expect.any(String));
    await expect(t.login(user.email, user.password)).rejects.toThrow(/400/);
    // The token that made the change is still signed in.
    expect((await t.request('GET', '/api/v1/users/me', { token: user.token })).status).toBe(200);
  });

  it('answers 400 Incorrect password for a wrong current password', async () => {
    const user = await t.createUser();
    const answer = await t.request('PATCH', '/api/v1/users/me/password', {
      token: user.token,
      json: { current_password: 'not-my-password', new_password: 'the-new-password' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ detail: 'Incorrect password' });
    await expect(t.login(user.email, user.password)).resolves.toEqual(expect.any(String));
  });

  it('answers 400 when the new password is the current one', async () => {
    const user = await t.createUser();
    const answer = await t.request('PATCH', '/api/v1/users/me/password', {
      token: user.token,
      json: { current_password: user.password, new_password: user.password },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ detail: 'New password cannot be the same as the current one' });
    // Nothing changed: the token is still good.
    expect((await t.request('GET', '/api/v1/users/me', { token: user.token })).status).toBe(200);
  });

  it('answers 422 for a new password out of bounds', async () => {
    const user = await t.createUser();
    const answer = await t.request('PATCH', '/api/v1/users/me/password', {
      token: user.token,
      json: { current_password: user.password, new_password: 'short' },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.detail[0]).toMatchObject({ type: 'string_too_short', loc: ['body', 'new_password'] });
    expect(answer.text).not.toContain(user.password);
  });
});

describe('DELETE /users/me', () => {
  it('deletes the user and their items', async () => {
    const user = await t.createUser();
    const other = await t.createUser();
    await addItems(user.token, 2);
    await addItems(other.token, 1);
    const answer = await t.request('DELETE', '/api/v1/users/me', { token: user.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: 'User deleted successfully' });
    expect(await t.sql('select id from users where id = $1', [user.id])).toEqual([]);
    expect(await itemsOf(user.id)).toBe(0);
    expect(await itemsOf(other.id)).toBe(1);
  });

  it('answers 403 to a superuser', async () => {
    const answer = await t.request('DELETE', '/api/v1/users/me', { token: su });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ detail: 'Super users are not allowed to delete themselves' });
    expect(await t.sql('select id from users where id = $1', [suId])).toHaveLength(1);
  });
});

describe('POST /users/signup', () => {
  it('opens an active, ordinary account whatever privileges the body asks for', async () => {
    const email = newEmail('signup');
    const answer = await t.request('POST', '/api/v1/users/signup', {
      json: {
        email,
        password: 'a-good-password',
        full_name: 'New Person',
        confirm_password: 'a-good-password',
        is_superuser: true,
        is_active: false,
      },
    });
    expect(answer.status).toBe(200);
    expectUser(answer.body, { email, full_name: 'New Person', is_active: true, is_superuser: false });
    await expect(t.login(email, 'a-good-password')).resolves.toEqual(expect.any(String));
  });

  it('answers 400 for a taken email in any letter case', async () => {
    const user = await t.createUser();
    for (const email of [user.email, user.email.toUpperCase()]) {
      const answer = await t.request('POST', '/api/v1/users/signup', {
        json: { email, password: 'a-good-password' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ detail: 'The user with this email already exists in the system' });
    }
    await expect(t.login(user.email, user.password)).resolves.toEqual(expect.any(String));
  });

  it('accepts a password of exactly 8 or 128 characters and a full_name of 255', async () => {
    for (const password of ['p'.repeat(8), 'p'.repeat(128)]) {
      const email = newEmail('bounds');
      const answer = await t.request('POST', '/api/v1/users/signup', {
        json: { email, password, full_name: 'n'.repeat(255) },
      });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.full_name).toHaveLength(255);
      await expect(t.login(email, password)).resolves.toEqual(expect.any(String));
    }
  });

  it('answers 422 for a missing or invalid email', async () => {
    const answer = await t.request('POST', '/api/v1/users/signup', { json: { email: 'nope', password: 'short' } });
    expect(answer.status).toBe(422);
    expect(answer.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([
      ['body', 'email'],
      ['body', 'password'],
    ]);
  });
});

describe('GET /users/{id}', () => {
  it('answers a user their own record', async () => {
    const user = await t.createUser();
    const answer = await t.request('GET', `/api/v1/users/${user.id}`, { token: user.token });
    expect(answer.status).toBe(200);
    expectUser(answer.body, { id: user.id, email: user.email });
  });

  it('answers 403 to an ordinary user asking for someone else, known or not', async () => {
    const user = await t.createUser();
    const other = await t.createUser();
    for (const id of [other.id, suId, randomUUID()]) {
      const answer = await t.request('GET', `/api/v1/users/${id}`, { token: user.token });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ detail: "The user doesn't have enough privileges" });
    }
  });

  it('answers any user to a superuser, and 404 for an unknown id', async () => {
    const user = await t.createUser();
    const answer = await t.request('GET', `/api/v1/users/${user.id}`, { token: su });
    expect(answer.status).toBe(200);
    expectUser(answer.body, { id: user.id, email: user.email, full_name: 'Test User' });
    const unknown = await t.request('GET', `/api/v1/users/${randomUUID()}`, { token: su });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'User not found' });
  });

  it('answers 422 for an id that is not a UUID', async () => {
    const answer = await t.request('GET', '/api/v1/users/42', { token: su });
    expect(answer.status).toBe(422);
    expect(answer.body.detail[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'id'], input: '42' });
  });
});

describe('PATCH /users/{id}', () => {
  it('lets a superuser change any field', async () => {
    const user = await t.createUser();
    const email = newEmail('patched');
    const answer = await t.request('PATCH', `/api/v1/users/${user.id}`, {
      token: su,
      json: { email, full_name: 'Patched', password: 'patched-password', is_superuser: true },
    });
    expect(answer.status).toBe(200);
    expectUser(answer.body, { id: user.id, email, full_name: 'Patched', is_superuser: true, is_active: true });
    const token = await t.login(email, 'patched-password');
    expect((await t.request('GET', '/api/v1/users/', { token })).status).toBe(200);

    const off = await t.request('PATCH', `/api/v1/users/${user.id}`, { token: su, json: { is_active: false } });
    expectUser(off.body, { id: user.id, email, full_name: 'Patched', is_superuser: true, is_active: false });
  });

  it('answers 404 for an unknown id', async () => {
    const answer = await t.request('PATCH', `/api/v1/users/${randomUUID()}`, { token: su, json: { full_name: 'X' } });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'The user with this id does not exist in the system' });
  });

  it("answers 409 for another user's email in any letter case", async () => {
    const user = await t.createUser();
    const other = await t.createUser();
    const answer = await t.request('PATCH', `/api/v1/users/${user.id}`, {
      token: su,
      json: { email: other.email.toUpperCase(), full_name: 'Not Applied' },
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ detail: 'User with this email already exists' });
    const [row] = await t.sql('select email, full_name from users where id = $1', [user.id]);
    expect(row).toEqual({ email: user.email, full_name: 'Test User' });
  });

  it('answers 422 for a password out of bounds', async () => {
    const user = await t.createUser();
    const answer = await t.request('PATCH', `/api/v1/users/${user.id}`, { token: su, json: { password: 'short' } });
    expect(answer.status).toBe(422);
    expect(answer.body.detail[0].loc).toEqual(['body', 'password']);
  });

  it('refuses an ordinary user, even on their own record', async () => {
    const user = await t.createUser();
    const answer = await t.request('PATCH', `/api/v1/users/${user.id}`, {
      token: user.token,
      json: { is_superuser: true },
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ detail: "The user doesn't have enough privileges" });
    const [row] = await t.sql('select is_superuser from users where id = $1', [user.id]);
    expect(row.is_superuser).toBe(false);
  });
});

describe('DELETE /users/{id}', () => {
  it('lets a superuser delete a user and their items', async () => {
    const user = await t.createUser();
    await addItems(user.token, 3);
    expect(await itemsOf(user.id)).toBe(3);
    const answer = await t.request('DELETE', `/api/v1/users/${user.id}`, { token: su });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: 'User deleted successfully' });
    expect(await t.sql('select id from users where id = $1', [user.id])).toEqual([]);
    expect(await itemsOf(user.id)).toBe(0);
    const again = await t.request('GET', `/api/v1/users/${user.id}`, { token: su });
    expect(again.status).toBe(404);
  });

  it('answers 404 for an unknown id', async () => {
    const answer = await t.request('DELETE', `/api/v1/users/${randomUUID()}`, { token: su });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'User not found' });
  });

  it('answers 403 to a superuser deleting their own id', async () => {
    const answer = await t.request('DELETE', `/api/v1/users/${suId}`, { token: su });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ detail: 'Super users are not allowed to delete themselves' });
    expect(await t.sql('select id from users where id = $1', [suId])).toHaveLength(1);
  });

  it('refuses an ordinary user', async () => {
    const user = await t.createUser();
    const other = await t.createUser();
    const answer = await t.request('DELETE', `/api/v1/users/${other.id}`, { token: user.token });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ detail: "The user doesn't have enough privileges" });
    expect(await t.sql('select id from users where id = $1', [other.id])).toHaveLength(1);
  });
});
