import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig, type Config } from '../../gateway/config';
import { createLogger, startGateway, type Gateway } from '../../gateway/gateway';
import { createTestDatabase } from '../support/database';
import { startTestSmtp, type TestSmtp } from '../support/smtp';
import { recordFigures } from './support/figures';
import { call } from '../support/gateway';
import { derivedAnswer, startNuvemshopStandIn, tokenFor, type NuvemshopStandIn } from '../support/nuvemshop';

/** A full run of the gateway with its pino log captured in memory: no secret may appear in it. */
const secret = (label: string) => `${label}-${randomBytes(9).toString('hex')}`;
const SMTP_PASSWORD = secret('smtp-password');
const SUPERUSER_PASSWORD = secret('superuser-password');
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;
const BCRYPT_HASH = /\$2[aby]\$\d\d\$/;

const lines: string[] = [];
const secrets = new Map<string, string>();
const requestIds = new Set<string>();
let database: { url: string; drop(): Promise<void> };
let smtp: TestSmtp;
let nuvemshop: NuvemshopStandIn;
let config: Config;
let gateway: Gateway;
let url: string;

beforeAll(async () => {
  database = await createTestDatabase(inject('postgresUrl'));
  smtp = await startTestSmtp({ user: 'mailer', pass: SMTP_PASSWORD });
  nuvemshop = await startNuvemshopStandIn(derivedAnswer());
  config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'trace',
    BCRYPT_COST: '4',
    DATABASE_URL: database.url,
    SECRET_KEY: secret('secret-key'),
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    FIRST_SUPERUSER: 'admin@example.com',
    FIRST_SUPERUSER_PASSWORD: SUPERUSER_PASSWORD,
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_TLS: 'false',
    SMTP_USER: 'mailer',
    SMTP_PASSWORD,
    FRONTEND_HOST: 'http://frontend.test',
    NUVEMSHOP_TOKEN_URL: nuvemshop.url,
    NUVEMSHOP_CLIENT_SECRET: secret('nuvemshop-client-secret'),
  });
  for (const key of [
    'SECRET_KEY',
    'TOKEN_ENCRYPTION_KEY',
    'FIRST_SUPERUSER_PASSWORD',
    'SMTP_PASSWORD',
    'NUVEMSHOP_CLIENT_SECRET',
  ] as const) {
    secrets.set(key, String(config[key]));
  }
  const memory = { write: (line: string) => void lines.push(line) };
  gateway = await startGateway(config, createLogger(config, memory));
  url = gateway.url.replace('localhost', '127.0.0.1');
});

afterAll(async () => {
  await gateway?.close();
  await database?.drop();
  await smtp?.close();
  await nuvemshop?.close();
});

/** Sends a request, remembers its request id, and keeps every token and password it answers as a secret. */
async function send(method: string, path: string, options: Parameters<typeof call>[3] = {}) {
  const answer = await call(url, method, path, options);
  const id = answer.headers.get('x-request-id');
  if (id) requestIds.add(id);
  const token = answer.body?.access_token ?? answer.body?.data?.login?.access_token;
  if (token) secrets.set(`access token ${secrets.size}`, token);
  return answer;
}

describe('logs of a full run', () => {
  it('go through signup, login, password change, recovery, a client with both tokens and the callback', async () => {
    const email = 'logged.person@example.com';
    const first = secret('first-password');
    const second = secret('second-password');
    const third = secret('third-password');
    const fourth = secret('fourth-password');
    for (const [k, v] of Object.entries({ first, second, third, fourth })) secrets.set(`${k} password`, v);

    expect(
      (await send('POST', '/api/v1/users/signup', { json: { email, password: first, full_name: 'Logged Person' } }))
        .status,
    ).toBe(200);
    expect(
      (await send('POST', '/api/v1/login/access-token', { form: { username: email, password: 'wrong-password' } }))
        .status,
    ).toBe(400);
    const login = await send('POST', '/api/v1/login/access-token', { form: { username: email, password: first } });
    const token = login.body.access_token;
    const otherSession = (
      await send('POST', '/api/v1/login/access-token', { form: { username: email, password: first } })
    ).body.access_token;
    expect((await send('GET', '/api/v1/users/me', { token })).status).toBe(200);
    const changed = await send('PATCH', '/api/v1/users/me/password', {
      token,
      json: { current_password: first, new_password: second },
    });
    expect(changed.status).toBe(200);
    // The session that changed it goes on; the other one is revoked; and one that is not a token at all.
    expect((await send('GET', '/api/v1/users/me', { token })).status).toBe(200);
    expect((await send('GET', '/api/v1/users/me', { token: otherSession })).status).toBe(403);
    expect((await send('GET', '/api/v1/users/me', { token: `${token}x` })).status).toBe(403);

    const arriving = smtp.next(email);
    expect((await send('POST', `/api/v1/password-recovery/${email}`)).status).toBe(200);
    const mail = await arriving;
    const href = /href="([^"]*reset-password\?token=[^"]+)"/.exec(String(mail.html))?.[1]?.replace(/&amp;/g, '&');
    const resetToken = new URL(href!).searchParams.get('token')!;
    secrets.set('reset token', resetToken);
    // The screen the link opens, with the token in its address.
    await send('GET', `/reset-password?token=${encodeURIComponent(resetToken)}`);
    const reset = await send('POST', '/api/v1/reset-password/', { json: { token: resetToken, new_password: third } });
    expect(reset.status).toBe(200);
    expect(
      (await send('POST', '/api/v1/reset-password/', { json: { token: resetToken, new_password: third } })).status,
    ).toBe(400);

    const graphqlLogin = await send('POST', '/graphql', {
      json: {
        query: 'mutation ($u: String!, $p: String!) { login(username: $u, password: $p) { access_token } }',
        variables: { u: email, p: third },
      },
    });
    const graphqlToken = graphqlLogin.body.data.login.access_token;
    const graphqlChange = await send('POST', '/graphql', {
      token: graphqlToken,
      json: {
        query:
          'mutation ($c: String!, $n: String!) { updatePassword(current_password: $c, new_password: $n) { message } }',
        variables: { c: third, n: fourth },
      },
    });
    expect(graphqlChange.body.data.updatePassword.message).toBe('Password updated successfully');
    const admin = (
      await send('POST', '/api/v1/login/access-token', {
        form: { username: 'admin@example.com', password: SUPERUSER_PASSWORD },
      })
    ).body.access_token;

    const hiper = secret('hiper-token');
    const nuvem = secret('nuvemshop-token');
    secrets.set('hiper token', hiper);
    secrets.set('nuvemshop token', nuvem);
    const client = await send('POST', '/api/v1/clients/', {
      token: admin,
      json: {
        url: 'https://logged-store.example',
        hiper_token: hiper,
        nuvemshop_token: nuvem,
        nuvemshop_store_id: 4242,
      },
    });
    expect(client.body.hiper_token).toBe(hiper);
    expect((await send('GET', `/api/v1/clients/${client.body.id}`, { token: admin })).body.nuvemshop_token).toBe(nuvem);
    const hiper2 = secret('hiper-token');
    secrets.set('second hiper token', hiper2);
    const graphqlClient = await send('POST', '/graphql', {
      token: admin,
      json: {
        query:
          'mutation ($id: ID!, $h: String) { updateClient(id: $id, hiper_token: $h) { hiper_token nuvemshop_token } }',
        variables: { id: client.body.id, h: hiper2 },
      },
    });
    expect(graphqlClient.body.data.updateClient).toEqual({ hiper_token: hiper2, nuvemshop_token: nuvem });
    expect(
      (
        await send('POST', '/graphql', {
          token: admin,
          json: { query: '{ allClients { hiper_token nuvemshop_token } }' },
        })
      ).status,
    ).toBe(200);

    const code = secret('authorization-code');
    secrets.set('authorization code', code);
    secrets.set('store token', tokenFor(code));
    await send('GET', `/callback?code=${code}`);
    expect((await send('POST', '/api/v1/callback/authorize', { json: { code } })).status).toBe(200);
    expect((await send('POST', '/api/v1/callback/authorize', { json: { code } })).status).toBe(200);
    const refusedCode = `refused-${secret('code')}`;
    secrets.set('refused code', refusedCode);
    expect((await send('POST', '/api/v1/callback/authorize', { json: { code: refusedCode } })).status).toBe(400);
    const stored = await send('GET', '/api/v1/clients/?limit=100', { token: admin });
    expect(stored.body.data.some((c: any) => c.nuvemshop_token === tokenFor(code))).toBe(true);

    // Validation errors echo their input, except secrets.
    expect(
      (await send('POST', '/api/v1/users/signup', { json: { email: 'short@example.com', password: 'short' } })).status,
    ).toBe(422);
    const shortSecret = secret('x').slice(0, 7);
    secrets.set('short password', shortSecret);
    await send('POST', '/api/v1/users/signup', { json: { email: 'short@example.com', password: shortSecret } });
    await send('DELETE', '/api/v1/users/me', { token: graphqlToken });
  });

  it('hold no password, token, JWT, hash or SMTP password', () => {
    const text = lines.join('');
    const found = [...secrets].filter(([, value]) => text.includes(value)).map(([label]) => label);
    if (JWT.test(text)) found.push('a JWT');
    if (BCRYPT_HASH.test(text)) found.push('a bcrypt hash');
    recordFigures('logs', { logLines: lines.length, logSecretsFound: found.length, logSecretsChecked: secrets.size });
    expect(found).toEqual([]);
    expect(secrets.size).toBeGreaterThan(15);
  });

  it('are structured, with a request id on every line about a request', () => {
    const entries = lines.map((line) => JSON.parse(line) as Record<string, any>);
    const aboutRequests = entries.filter((e) => e.req || e.res);
    expect(aboutRequests.length).toBeGreaterThanOrEqual(requestIds.size);
    for (const e of aboutRequests) expect(e.req?.id, JSON.stringify(e)).toMatch(/^[\w-]+$/);
    const logged = new Set(aboutRequests.map((e) => e.req.id));
    for (const id of requestIds) expect(logged.has(id), `request ${id} is not in the log`).toBe(true);
    // The lines that are not about a request are the process's own: start and stop, and its background jobs.
    const others = entries.filter((e) => !e.req && !e.res).map((e) => e.msg);
    for (const msg of others) {
      expect(msg).toMatch(
        /migrations applied|first superuser created|gateway listening|embedded|email sent|old rows pruned/,
      );
    }
  });
});
