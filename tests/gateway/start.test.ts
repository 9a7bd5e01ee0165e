import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNuvemshopStandIn, type NuvemshopStandIn } from '../support/nuvemshop';
import { spawnGateway } from '../support/process';

let dir: string;
let platform: NuvemshopStandIn;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'integracao-start-'));
  chmodSync(dir, 0o755);
  platform = await startNuvemshopStandIn();
  env = {
    PORT: '0',
    HOST: '127.0.0.1',
    EMBEDDED_PG_DIR: path.join(dir, 'postgres'),
    EMBEDDED_PG_PORT: String(30000 + Math.floor(Math.random() * 20000)),
    BCRYPT_COST: '4',
    FIRST_SUPERUSER: 'first@example.com',
    FIRST_SUPERUSER_PASSWORD: 'first-password',
    NUVEMSHOP_TOKEN_URL: platform.url,
  };
});
afterAll(async () => {
  await platform?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function login(url: string): Promise<string> {
  const answer = await fetch(`${url}/api/v1/login/access-token`, {
    method: 'POST',
    body: new URLSearchParams({ username: 'first@example.com', password: 'first-password' }),
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

describe('npm start without DATABASE_URL', () => {
  it('runs an embedded PostgreSQL whose data survives a restart, and stops cleanly on SIGTERM', async () => {
    const first = await spawnGateway(env);
    const token = await login(first.url);
    const created = await fetch(`${first.url}/api/v1/clients/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'https://persisted.example' }),
    });
    expect(created.status).toBe(200);

    // A request in flight when the signal arrives still gets its answer.
    platform.answer = () => ({
      status: 200,
      body: { access_token: 'slow', token_type: 'bearer', scope: '', user_id: 55 },
      delayMs: 800,
    });
    const inFlight = fetch(`${first.url}/api/v1/callback/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code: 'in-flight' }),
    });
    await new Promise((r) => setTimeout(r, 200));
    first.child.kill('SIGTERM');
    const answer = await inFlight.catch((error) => {
      throw new Error(`${error}\n${first.lines.join('\n')}`);
    });
    expect(answer.status).toBe(200);
    expect(await first.exited).toBe(0);
    expect(first.lines.some((l) => l.includes('gateway stopped'))).toBe(true);

    const second = await spawnGateway(env);
    try {
      expect(second.lines.some((l) => l.includes('migrations applied'))).toBe(false);
      const list = await fetch(`${second.url}/api/v1/clients/`, {
        headers: { Authorization: `Bearer ${await login(second.url)}` },
      });
      const body = (await list.json()) as { data: { url: string }[]; count: number };
      expect(body.data.map((c) => c.url).sort()).toEqual(['https://persisted.example', 'nuvemshop://55']);
      expect(second.lines.some((l) => l.includes('first superuser created'))).toBe(false);
    } finally {
      second.child.kill('SIGINT');
      expect(await second.exited).toBe(0);
    }
  }, 120_000);

  it('refuses to start in production with a development secret, naming it', async () => {
    await expect(spawnGateway({ ...env, NODE_ENV: 'production' }, 20_000)).rejects.toThrow(/SECRET_KEY/);
  });

  it('refuses to start in production without its public addresses, naming them', async () => {
    const production = {
      ...env,
      NODE_ENV: 'production',
      SECRET_KEY: 'a-production-secret-key-of-some-length',
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
    };
    await expect(spawnGateway(production, 20_000)).rejects.toThrow(/FRONTEND_HOST/);
    await expect(spawnGateway({ ...production, FRONTEND_HOST: 'https://admin.example' }, 20_000)).rejects.toThrow(
      /CHECKOUT_URL/,
    );
  });
});
