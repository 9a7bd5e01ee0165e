/**
 * What the browser benchmarks (main-thread.mjs, lighthouse.mjs) share: the built gateway on a database of their own
 * beside DATABASE_URL's, a superuser's token, and a page of clients whose urls carry a marker to wait for.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { ensureDatabase, migrate } from './database.mjs';
import { startServer } from './servers.mjs';

export const EMAIL = 'bench-main-thread@example.com';
export const PASSWORD = 'bench-main-thread-password';
export const MARKER = '.main-thread.example';

/** Starts `dist/gateway/main.js` (`npm run build` first) in production mode on database `name`, migrated. */
export async function startOwnGateway(root, name) {
  if (!existsSync(`${root}/dist/gateway/main.js`)) throw new Error('build first: npm run build');
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  base.pathname = `/${name}`;
  const databaseUrl = base.toString();
  await ensureDatabase(databaseUrl);
  await migrate(root, databaseUrl);
  return startServer({
    name: `${name}-gateway`,
    command: process.execPath,
    args: ['bench/gateway-entry.mjs'],
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: databaseUrl,
      SECRET_KEY: randomBytes(32).toString('hex'),
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      FIRST_SUPERUSER: EMAIL,
      FIRST_SUPERUSER_PASSWORD: PASSWORD,
      FRONTEND_HOST: 'http://localhost',
      CHECKOUT_URL: 'http://localhost/',
      PUBLIC_URL: 'https://localhost',
      BCRYPT_COST: '4',
      LOG_LEVEL: 'info', // the ready line is at info
    },
    readyMessage: 'gateway listening',
  });
}

export async function signIn(url, email = EMAIL, password = PASSWORD) {
  const answer = await fetch(`${url}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password }),
  });
  if (!answer.ok) throw new Error(`login: ${answer.status} ${await answer.text()}`);
  return (await answer.json()).access_token;
}

/** A page of clients whose urls carry MARKER. */
export async function seedClients(url, token) {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const list = await (await fetch(`${url}/api/v1/clients/?limit=100`, { headers })).json();
  const have = (list.data ?? []).filter((c) => String(c.url).includes(MARKER)).length;
  for (let i = have; i < 8; i++) {
    const answer = await fetch(`${url}/api/v1/clients/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `https://loja-${i}${MARKER}` }),
    });
    if (!answer.ok) throw new Error(`seeding: ${answer.status} ${await answer.text()}`);
  }
}
