import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TokenIssuer } from '../../gateway/auth/tokens';
import { startTestGateway, SUPERUSER, type TestGateway } from '../support/gateway';

const RECOVERY_MESSAGE = 'If that email is registered, we sent a password recovery link';
const EIGHT_DAYS = 8 * 24 * 60 * 60;

let t: TestGateway;
let su: string;

beforeAll(async () => {
  t = await startTestGateway();
  su = await t.superuserToken();
});
afterAll(() => t?.close());

/** The claims of a JWT, read without verifying it, as any client could. */
function decode(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [header, payload] = token
    .split('.')
    .slice(0, 2)
    .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
  return { header, payload };
}

/** Tokens made with the gateway's own issuer and secret, with lifetimes a test chooses. */
function issuer(accessMinutes = 60, resetHours = 48, secret = t.config.SECRET_KEY): TokenIssuer {
  return new TokenIssuer(secret, accessMinutes, resetHours);
}

async function tokenVersion(id: string): Promise<number> {
  const [row] = await t.sql<{ token_version: number }>('select token_version from users where id = $1', [id]);
  return row.token_version;
}

/** The reset link's token from the recovery email body a superuser can read. */
async function resetTokenFor(email: string): Promise<string> {
  const answer = await t.request('POST', `/api/v1/password-recovery-html-content/${email}`, { token: su });
  expect(answer.status).toBe(200);
  const match = /\/reset-password\?token=([\w.-]+)/.exec(answer.text);
  if (!match) throw new Error(`no reset link in ${answer.text}`);
  return match[1];
}

const me = (token: string) => t.request('GET', '/api/v1/users/me', { token });

describe('authentication of every protected route', () => {
  it('answers 401 Not authenticated without an Authorization header', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/users/me'],
      ['GET', '/api/v1/users/'],
      ['GET', '/api/v1/items/'],
      ['GET', '/api/v1/clients/'],
      ['POST', '/api/v1/login/test-token'],
    ]) {
      const answer = await t.request(method, path);
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.body).toEqual({ detail: 'Not authenticated' });
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('answers 401 Not authenticated for a header that is not a bearer token', async () => {
    for (const authorization of ['Basic YWRtaW46cGFzc3dvcmQ=', 'Bearer', 'Bearer ', 'Token abc', su]) {
      const answer = await t.request('GET', '/api/v1/users/me', { headers: { Authorization: authorization } });
      expect(answer.status, authorization).toBe(401);
      expect(answer.body).toEqual({ detail: 'Not authenticated' });
    }
  });

  it('answers 403 Could not validate credentials for a token that is not a valid JWT', async () => {
    for (const token of ['garbage', 'a.b.c', `${su}x`, su.split('.').slice(0, 2).join('.') + '.']) {
      const answer = await me(token);
      expect(answer.status, token).toBe(403);
      expect(answer.body).toEqual({ detail: 'Could not validate credentials' });
    }
  });

  it('answers 403 for a token signed with another secret or with no signature', async () => {
    const user = await t.createUser();
    const forged = issuer(60, 48, 'another-secret-key-of-some-length').issueAccess({ id: user.id, tokenVersion: 0 });
    expect(await me(forged)).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });

    const { payload } = decode(user.token);
    const unsigned = [
      Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url'),
      Buffer.from(JSON.stringify(payload)).toString('base64url'),
      '',
    ].join('.');
    expect(await me(unsigned)).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });
  });

  it('answers 403 for an expired token', async () => {
    const user = await t.createUser();
    const expired = issuer(-1).issueAccess({ id: user.id, tokenVersion: await tokenVersion(user.id) });
    expect(decode(expired).payload.exp as number).toBeLessThan(Date.now() / 1000);
    expect(await me(expired)).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });
    // The same token with a future expiry is accepted: only the expiry made the difference.
    const fresh = issuer(5).issueAccess({ id: user.id, tokenVersion: await tokenVersion(user.id) });
    expect((await me(fresh)).status).toBe(200);
  });

  it('stops accepting a token the second it expires, though it was verified before', () => {
    const tokens = issuer(1);
    const token = tokens.issueAccess({ id: randomUUID(), tokenVersion: 0 });
    const exp = decode(token).payload.exp as number;
    vi.useFakeTimers({ toFake: ['Date'], now: (exp - 1) * 1000 });
    try {
      expect(tokens.read(token, 'access')).toMatchObject({ typ: 'access' });
      expect(tokens.read(token, 'access')).toMatchObject({ typ: 'access' });
      vi.setSystemTime(exp * 1000);
      expect(tokens.read(token, 'access')).toBeUndefined();
      // Verified as an access token, it is still no reset token.
      vi.setSystemTime((exp - 1) * 1000);
      expect(tokens.read(token, 'reset')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 403 for a password reset token used as an access token', async () => {
    const user = await t.createUser();
    const reset = await resetTokenFor(user.email);
    expect(await me(reset)).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });
  });

  it("answers 403 for a deleted user's token", async () => {
    const user = await t.createUser();
    expect((await me(user.token)).status).toBe(200);
    const deleted = await t.request('DELETE', '/api/v1/users/me', { token: user.token });
    expect(deleted.status).toBe(200);
    expect(await me(user.token)).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });
  });

  it('answers 403 for the token of a user a superuser deleted', async () => {
    const user = await t.createUser();
    expect((await t.request('DELETE', `/api/v1/users/${user.id}`, { token: su })).status).toBe(200);
    expect(await me(user.token)).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });
  });

  it('answers 404 User not found for a valid token of an id that never existed', async () => {
    const token = issuer().issueAccess({ id: randomUUID(), tokenVersion: 0 });
    expect(await me(token)).toMatchObject({ status: 404, body: { detail: 'User not found' } });
  });

  it('answers 400 Inactive user for a current token of an inactive user', async () => {
    const user = await t.createUser();
    // Deactivated in the database directly: the token's version still matches, only the flag changed.
    await t.sql('update users set is_active = false where id = $1', [user.id]);
    expect(await me(user.token)).toMatchObject({ status: 400, body: { detail: 'Inactive user' } });
    await t.sql('update users set is_active = true where id = $1', [user.id]);
    expect((await me(user.token)).status).toBe(200);
  });

  it("answers 403 The user doesn't have enough privileges on superuser routes", async () => {
    const user = await t.createUser();
    const other = await t.createUser();
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/v1/users/'],
      ['POST', '/api/v1/users/', { email: 'made-by-user@example.com', password: 'a-good-password' }],
      ['GET', `/api/v1/users/${other.id}`],
      ['PATCH', `/api/v1/users/${other.id}`, { full_name: 'Changed' }],
      ['DELETE', `/api/v1/users/${other.id}`],
      ['POST', `/api/v1/password-recovery-html-content/${other.email}`],
    ];
    for (const [method, path, json] of routes) {
      const answer = await t.request(method, path, { token: user.token, json });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body).toEqual({ detail: "The user doesn't have enough privileges" });
    }
    // Nothing was done on the way.
    const [row] = await t.sql('select full_name from users where id = $1', [other.id]);
    expect(row.full_name).toBe('Test User');
    expect(await t.sql("select id from users where email = 'made-by-user@example.com'")).toEqual([]);
  });
});

describe('token revocation', () => {
  const changePassword = (token: string, current: string, next: string) =>
    t.request('PATCH', '/api/v1/users/me/password', {
      token,
      json: { current_password: current, new_password: next },
    });

  it('keeps the session that changed the password and ends every other earlier one', async () => {
    const user = await t.createUser();
    const otherSession = await t.login(user.email, user.password);
    const changed = await changePassword(user.token, user.password, 'another-good-password');
    expect(changed).toMatchObject({ status: 200, body: { message: 'Password updated successfully' } });
    // The answer is the contract's: no new token to read.
    expect(Object.keys(changed.body)).toEqual(['message']);
    expect((await me(user.token)).body.id).toBe(user.id);
    expect(await me(otherSession)).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });
    const token = await t.login(user.email, 'another-good-password');
    expect((await me(token)).body.id).toBe(user.id);
  });

  it('keeps that session through several changes in a row, and a later change elsewhere ends it', async () => {
    const user = await t.createUser();
    expect((await changePassword(user.token, user.password, 'second-good-password')).status).toBe(200);
    const laterSession = await t.login(user.email, 'second-good-password');
    expect((await changePassword(user.token, 'second-good-password', 'third-good-password')).status).toBe(200);
    expect((await changePassword(user.token, 'third-good-password', 'fourth-good-password')).status).toBe(200);
    expect((await me(user.token)).status).toBe(200);
    // The session opened between the changes is not the one that made them: it ended with the second.
    expect(await me(laterSession)).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });

    const newest = await t.login(user.email, 'fourth-good-password');
    expect((await changePassword(newest, 'fourth-good-password', 'fifth-good-password')).status).toBe(200);
    expect((await me(newest)).status).toBe(200);
    expect(await me(user.token)).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });
    // An ended session cannot change the password either.
    const late = await changePassword(user.token, 'fifth-good-password', 'sixth-good-password');
    expect(late).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });
    expect((await me(await t.login(user.email, 'fifth-good-password'))).status).toBe(200);
  });

  it('lets only one of two sessions changing the password at once keep going', async () => {
    const user = await t.createUser();
    const other = await t.login(user.email, user.password);
    const answers = await Promise.all([
      changePassword(user.token, user.password, 'first-racer-password'),
      changePassword(other, user.password, 'second-racer-password'),
    ]);
    // Both may pass the current-password check; the second write finds its session ended by the first.
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403]);
    const winner = answers[0].status === 200 ? 0 : 1;
    const sessions = [user.token, other];
    expect((await me(sessions[winner])).status).toBe(200);
    expect((await me(sessions[1 - winner])).status).toBe(403);
    const password = ['first-racer-password', 'second-racer-password'][winner];
    expect((await me(await t.login(user.email, password))).status).toBe(200);
  });

  it('ends every session, the one asking included, after a password reset', async () => {
    const user = await t.createUser();
    const reset = await t.request('POST', '/api/v1/reset-password/', {
      json: { token: await resetTokenFor(user.email), new_password: 'reset-password-1' },
    });
    expect(reset.status).toBe(200);
    expect((await me(user.token)).status).toBe(403);
  });

  it("keeps a superuser's own session when they set their own password through PATCH /users/{id}", async () => {
    const admin = await t.login(SUPERUSER.email, SUPERUSER.password);
    const otherAdmin = await t.login(SUPERUSER.email, SUPERUSER.password);
    const id = (await me(admin)).body.id;
    const changed = await t.request('PATCH', `/api/v1/users/${id}`, {
      token: admin,
      json: { password: 'superuser-password-2' },
    });
    expect(changed.status).toBe(200);
    expect((await me(admin)).status).toBe(200);
    expect((await me(otherAdmin)).status).toBe(403);
    // Put back, for the other tests.
    const back = await t.request('PATCH', `/api/v1/users/${id}`, {
      token: admin,
      json: { password: SUPERUSER.password },
    });
    expect(back.status).toBe(200);
    su = await t.superuserToken();
  });

  it('refuses earlier tokens after a superuser sets a new password', async () => {
    const user = await t.createUser();
    const changed = await t.request('PATCH', `/api/v1/users/${user.id}`, {
      token: su,
      json: { password: 'set-by-the-superuser' },
    });
    expect(changed.status).toBe(200);
    expect(await me(user.token)).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });
    expect((await me(await t.login(user.email, 'set-by-the-superuser'))).status).toBe(200);
  });

  it('refuses earlier tokens after a password reset', async () => {
    const user = await t.createUser();
    const reset = await t.request('POST', '/api/v1/reset-password/', {
      json: { token: await resetTokenFor(user.email), new_password: 'reset-to-this-one' },
    });
    expect(reset.status).toBe(200);
    expect(await me(user.token)).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });
  });

  it('refuses earlier tokens after a deactivation, and reactivation does not revive them', async () => {
    const user = await t.createUser();
    const off = await t.request('PATCH', `/api/v1/users/${user.id}`, { token: su, json: { is_active: false } });
    expect(off.status).toBe(200);
    expect(off.body.is_active).toBe(false);
    expect(await me(user.token)).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });

    const on = await t.request('PATCH', `/api/v1/users/${user.id}`, { token: su, json: { is_active: true } });
    expect(on.status).toBe(200);
    expect(await me(user.token)).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });
    expect((await me(await t.login(user.email, user.password))).status).toBe(200);
  });

  it('keeps tokens valid across changes that are not about credentials', async () => {
    const user = await t.createUser();
    const renamed = await t.request('PATCH', '/api/v1/users/me', { token: user.token, json: { full_name: 'Renamed' } });
    expect(renamed.status).toBe(200);
    expect((await me(user.token)).body.full_name).toBe('Renamed');
  });
});

describe('POST /login/access-token', () => {
  it('answers a bearer token for the right email and password', async () => {
    const user = await t.createUser();
    const answer = await t.request('POST', '/api/v1/login/access-token', {
      form: { username: user.email, password: user.password },
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['access_token', 'token_type']);
    expect(answer.body.token_type).toBe('bearer');
    expect((await me(answer.body.access_token)).body.email).toBe(user.email);
  });

  it('takes the email in any letter case', async () => {
    const user = await t.createUser();
    const token = await t.login(user.email.toUpperCase(), user.password);
    expect((await me(token)).body.id).toBe(user.id);
  });

  it('answers 400 Incorrect email or password for a wrong password or an unknown email', async () => {
    const user = await t.createUser();
    for (const form of [
      { username: user.email, password: 'not-the-password' },
      { username: 'nobody-here@example.com', password: user.password },
    ]) {
      const answer = await t.request('POST', '/api/v1/login/access-token', { form });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ detail: 'Incorrect email or password' });
    }
  });

  it('answers 400 Inactive user for the right password of an inactive user', async () => {
    const user = await t.createUser();
    await t.request('PATCH', `/api/v1/users/${user.id}`, { token: su, json: { is_active: false } });
    const answer = await t.request('POST', '/api/v1/login/access-token', {
      form: { username: user.email, password: user.password },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ detail: 'Inactive user' });
    // A wrong password does not reveal that the account exists but is inactive.
    const wrong = await t.request('POST', '/api/v1/login/access-token', {
      form: { username: user.email, password: 'not-the-password' },
    });
    expect(wrong.body).toEqual({ detail: 'Incorrect email or password' });
  });

  it("takes the form as multipart/form-data too, as the FastAPI template's own client sends it", async () => {
    const user = await t.createUser();
    const form = new FormData();
    form.set('username', user.email);
    form.set('password', user.password);
    form.set('grant_type', 'password');
    const response = await fetch(`${t.url}/api/v1/login/access-token`, { method: 'POST', body: form });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { access_token: string; token_type: string };
    expect(response.status).toBe(200);
    expect(body.token_type).toBe('bearer');
    expect((await me(body.access_token)).body.id).toBe(user.id);

    const wrong = new FormData();
    wrong.set('username', user.email);
    wrong.set('password', 'not-the-password');
    const refused = await fetch(`${t.url}/api/v1/login/access-token`, { method: 'POST', body: wrong });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ detail: 'Incorrect email or password' });
  });

  it('answers a JSON body as FastAPI does: not a form, so both fields are missing', async () => {
    const user = await t.createUser();
    const answer = await t.request('POST', '/api/v1/login/access-token', {
      json: { username: user.email, password: user.password },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      detail: [
        { type: 'missing', loc: ['body', 'username'], msg: 'Field required', input: null },
        { type: 'missing', loc: ['body', 'password'], msg: 'Field required', input: null },
      ],
    });
  });

  it('refuses a multipart login carrying a file, a huge field or a broken body with a 4xx', async () => {
    const withFile = new FormData();
    withFile.set('username', SUPERUSER.email);
    withFile.set('password', new Blob(['x']), 'password.txt');
    const file = await fetch(`${t.url}/api/v1/login/access-token`, { method: 'POST', body: withFile });
    expect(file.status).toBe(400);
    expect(await file.json()).toEqual({ detail: 'This form takes text fields only, not files' });

    const huge = new FormData();
    huge.set('username', SUPERUSER.email);
    huge.set('password', 'p'.repeat(100_000));
    const large = await fetch(`${t.url}/api/v1/login/access-token`, { method: 'POST', body: huge });
    expect(large.status).toBe(413);
    expect(await large.json()).toEqual({ detail: 'Request body is too large' });

    const broken = await t.request('POST', '/api/v1/login/access-token', {
      raw: '--xyz\r\nContent-Disposition: form-data; name="username"\r\n\r\nadmin',
      contentType: 'multipart/form-data; boundary=xyz',
    });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ detail: 'Malformed multipart/form-data body' });
    const noBoundary = await t.request('POST', '/api/v1/login/access-token', {
      raw: 'username=a',
      contentType: 'multipart/form-data',
    });
    expect(noBoundary.status).toBe(400);
  });

  it('answers 422 listing each missing form field', async () => {
    const answer = await t.request('POST', '/api/v1/login/access-token', { form: { username: SUPERUSER.email } });
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toEqual([expect.objectContaining({ type: 'missing', loc: ['body', 'password'] })]);
  });

  it('issues an HS256 JWT with the user id as sub and an expiry 8 days ahead', async () => {
    const user = await t.createUser();
    const { header, payload } = decode(user.token);
    expect(header.alg).toBe('HS256');
    expect(payload.sub).toBe(user.id);
    expect(typeof payload.exp).toBe('number');
    expect((payload.exp as number) - (payload.iat as number)).toBe(EIGHT_DAYS);
    expect(Math.abs((payload.exp as number) - (Date.now() / 1000 + EIGHT_DAYS))).toBeLessThan(60);
  });
});

describe('POST /login/test-token', () => {
  it('answers the signed-in user', async () => {
    const user = await t.createUser();
    const answer = await t.request('POST', '/api/v1/login/test-token', { token: user.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id: user.id,
      email: user.email,
      full_name: 'Test User',
      is_active: true,
      is_superuser: false,
      receives_alerts: false,
    });
  });

  it('answers 401 without a token and 403 with a bad one', async () => {
    expect(await t.request('POST', '/api/v1/login/test-token')).toMatchObject({
      status: 401,
      body: { detail: 'Not authenticated' },
    });
    expect(await t.request('POST', '/api/v1/login/test-token', { token: 'bad' })).toMatchObject({
      status: 403,
      body: { detail: 'Could not validate credentials' },
    });
  });
});

describe('POST /password-recovery/{email}', () => {
  it('answers the same message for a known and an unknown address', async () => {
    const user = await t.createUser();
    const known = await t.request('POST', `/api/v1/password-recovery/${user.email}`);
    const unknown = await t.request('POST', '/api/v1/password-recovery/nobody-at-all@example.com');
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ message: RECOVERY_MESSAGE });
    expect(unknown.status).toBe(200);
    expect(unknown.text).toBe(known.text);
  });

  it('answers 422 for something that is not an email address', async () => {
    const answer = await t.request('POST', '/api/v1/password-recovery/not-an-email');
    expect(answer.status).toBe(422);
    expect(answer.body.detail[0]).toMatchObject({ loc: ['path', 'email'], msg: 'value is not a valid email address' });
  });
});

describe('POST /reset-password/', () => {
  it('sets the new password with a valid token, and the token cannot be used twice', async () => {
    const user = await t.createUser();
    const token = await resetTokenFor(user.email);
    const answer = await t.request('POST', '/api/v1/reset-password/', {
      json: { token, new_password: 'brand-new-password' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: 'Password updated successfully' });
    expect((await me(await t.login(user.email, 'brand-new-password'))).body.id).toBe(user.id);
    const old = await t.request('POST', '/api/v1/login/access-token', {
      form: { username: user.email, password: user.password },
    });
    expect(old.body).toEqual({ detail: 'Incorrect email or password' });

    const again = await t.request('POST', '/api/v1/reset-password/', {
      json: { token, new_password: 'yet-another-password' },
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: 'Invalid token' });
    expect((await me(await t.login(user.email, 'brand-new-password'))).status).toBe(200);
  });

  it('answers 400 Invalid token for a bad, an expired, an access or a deleted user token', async () => {
    const user = await t.createUser();
    const gone = await t.createUser();
    const goneToken = await resetTokenFor(gone.email);
    await t.request('DELETE', '/api/v1/users/me', { token: gone.token });
    const expired = issuer(60, -1).issueReset({ id: user.id, tokenVersion: await tokenVersion(user.id) });
    for (const token of ['not-a-token', expired, user.token, goneToken]) {
      const answer = await t.request('POST', '/api/v1/reset-password/', {
        json: { token, new_password: 'whatever-password' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ detail: 'Invalid token' });
    }
    // The user's password is what it was.
    expect((await me(await t.login(user.email, user.password))).status).toBe(200);
  });

  it('answers 400 Inactive user for the valid token of an inactive user', async () => {
    const user = await t.createUser();
    await t.request('PATCH', `/api/v1/users/${user.id}`, { token: su, json: { is_active: false } });
    const token = await resetTokenFor(user.email);
    const answer = await t.request('POST', '/api/v1/reset-password/', {
      json: { token, new_password: 'whatever-password' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ detail: 'Inactive user' });
  });

  it('answers 422 for a new password out of bounds and keeps the old one', async () => {
    const user = await t.createUser();
    const token = await resetTokenFor(user.email);
    for (const newPassword of ['short', 'x'.repeat(129)]) {
      const answer = await t.request('POST', '/api/v1/reset-password/', { json: { token, new_password: newPassword } });
      expect(answer.status).toBe(422);
      expect(answer.body.detail[0].loc).toEqual(['body', 'new_password']);
    }
    expect((await me(await t.login(user.email, user.password))).status).toBe(200);
  });
});

describe('POST /password-recovery-html-content/{email}', () => {
  it('answers the recovery email as HTML with the reset link to a superuser', async () => {
    const user = await t.createUser();
    const answer = await t.request('POST', `/api/v1/password-recovery-html-content/${user.email}`, { token: su });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toContain('<html');
    expect(answer.text).toContain(user.email);
    expect(answer.text).toMatch(/http:\/\/frontend\.test\/reset-password\?token=[\w-]+\.[\w-]+\.[\w-]+/);
  });

  it('holds a reset token valid for 48 hours, for the email in any letter case', async () => {
    const user = await t.createUser();
    const token = await resetTokenFor(user.email.toUpperCase());
    const { payload } = decode(token);
    expect(payload.sub).toBe(user.id);
    expect((payload.exp as number) - (payload.iat as number)).toBe(48 * 60 * 60);
  });

  it('answers 404 for an address nobody has', async () => {
    const answer = await t.request('POST', '/api/v1/password-recovery-html-content/nobody-home@example.com', {
      token: su,
    });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: 'The user with this username does not exist in the system.' });
  });

  it('answers 401 without a token', async () => {
    const answer = await t.request('POST', `/api/v1/password-recovery-html-content/${SUPERUSER.email}`);
    expect(answer.status).toBe(401);
  });
});
