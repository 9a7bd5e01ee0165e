import { steadyPort } from '../support/net';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../gateway/database/embedded-postgres';
import { sql } from '../support/database';
import { recordFigures } from './support/figures';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process';
import { call, type Answer } from '../support/gateway';

/**
 * PostgreSQL is stopped under a steady load of reads and writes, then started again: the gateway must answer
 * 503 quickly while it is down, stay up, serve again without a restart, and keep every acknowledged write.
 */
const SUPERUSER = { email: 'admin@example.com', password: 'superuser-password' };
const REQUEST_TIMEOUT_MS = 10_000;
// Connection attempts give up after 5 s (gateway/database/orm.ts): no answer may take much longer.
const ANSWER_BOUND_MS = 7_000;
const OUTAGE_MS = 6_000;

type Phase = 'before' | 'down' | 'restarting' | 'after';

interface Sample {
  phase: Phase;
  kind: string;
  startedAt: number;
  status: number;
  ms: number;
  detail?: unknown;
  error?: string;
}

const log = pino({ level: 'silent' });
let dir: string;
let port: number;
let postgres: EmbeddedDatabase | undefined;
let gateway: GatewayProcess;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'integracao-outage-pg-'));
  chmodSync(dir, 0o755);
  port = await steadyPort();
  postgres = await startEmbeddedPostgres(path.join(dir, 'data'), port, log);
  gateway = await startGatewayProcess({
    DATABASE_URL: postgres.url,
    FIRST_SUPERUSER_PASSWORD: SUPERUSER.password,
    REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    RATE_LIMIT_SIGNUP: '100000',
    RATE_LIMIT_LOGIN: '100000',
  });
});

afterAll(async () => {
  await gateway?.stop();
  await postgres?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a database outage under load', () => {
  it('answers 503 while PostgreSQL is down, recovers by itself and loses no acknowledged write', async () => {
    const url = gateway.url;
    const login = async (username: string, password: string) => {
      const answer = await call(url, 'POST', '/api/v1/login/access-token', { form: { username, password } });
      expect(answer.status).toBe(200);
      return answer.body.access_token as string;
    };
    const superuser = await login(SUPERUSER.email, SUPERUSER.password);
    const signup = await call(url, 'POST', '/api/v1/users/signup', {
      json: { email: 'writer@example.com', password: 'writer-password' },
    });
    expect(signup.status).toBe(200);
    const writer = await login('writer@example.com', 'writer-password');

    let phase: Phase = 'before';
    let running = true;
    const samples: Sample[] = [];
    const acknowledged = {
      items: new Map<string, string>(),
      clients: new Map<string, string>(),
      deletions: new Set<string>(),
    };
    const attempted = { items: new Set<string>(), deletedUsers: new Map<string, string>() };
    let sequence = 0;

    const measure = async (kind: string, send: () => Promise<Answer>): Promise<Answer | undefined> => {
      const started = performance.now();
      const at = phase;
      try {
        const answer = await send();
        // GraphQL answers over HTTP 200 and carries the status of an error in its extensions, as REST would.
        const error = answer.body?.errors?.[0];
        const status = error ? Number(error.extensions?.status ?? 500) : answer.status;
        const detail = error ? error.message : answer.body?.detail;
        samples.push({ phase: at, kind, startedAt: started, status, ms: answer.ms, detail });
        return answer;
      } catch (error) {
        samples.push({
          phase: at,
          kind,
          startedAt: started,
          status: 0,
          ms: performance.now() - started,
          error: String(error),
        });
        return undefined;
      }
    };
    const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

    const itemWriter = async () => {
      while (running) {
        const title = `item-${++sequence}`;
        attempted.items.add(title);
        const answer = await measure('write item', () =>
          call(url, 'POST', '/api/v1/items/', { token: writer, json: { title, description: `about ${title}` } }),
        );
        if (answer?.status === 200) acknowledged.items.set(answer.body.id, title);
        await pause();
      }
    };
    const clientWriter = async () => {
      while (running) {
        const n = ++sequence;
        const answer = await measure('write client', () =>
          call(url, 'POST', '/api/v1/clients/', {
            token: writer,
            json: { url: `https://store-${n}.example`, hiper_token: `hiper-${n}`, nuvemshop_token: `nuvem-${n}` },
          }),
        );
        if (answer?.status === 200) acknowledged.clients.set(answer.body.id, String(n));
        await pause();
      }
    };
    // Signs a user up, then deletes it: a deletion writes two tables in one transaction.
    const userDeleter = async () => {
      while (running) {
        const email = `doomed-${++sequence}@example.com`;
        const created = await measure('write signup', () =>
          call(url, 'POST', '/api/v1/users/signup', { json: { email, password: 'doomed-password' } }),
        );
        if (created?.status === 200) {
          attempted.deletedUsers.set(created.body.id, email);
          const deleted = await measure('write delete user', () =>
            call(url, 'DELETE', `/api/v1/users/${created.body.id}`, { token: superuser }),
          );
          if (deleted?.status === 200) acknowledged.deletions.add(created.body.id);
        }
        await pause();
      }
    };
    const reader = async () => {
      while (running) {
        await measure('read items', () => call(url, 'GET', '/api/v1/items/?limit=5', { token: writer }));
        await measure('read me', () => call(url, 'GET', '/api/v1/users/me', { token: writer }));
        await measure('read graphql', () =>
          call(url, 'POST', '/graphql', { token: writer, json: { query: '{ allClients(perPage: 5) { id url } }' } }),
        );
        await pause();
      }
    };
    const load = Promise.all([itemWriter(), itemWriter(), clientWriter(), userDeleter(), reader(), reader()]);

    await new Promise((resolve) => setTimeout(resolve, 2_000));
    phase = 'down';
    await postgres!.stop();
    const stoppedAt = performance.now();
    postgres = undefined;
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));

    // Still up, and saying it cannot serve: the health check answers 503, so an orchestrator takes it out of service.
    expect(gateway.exitCode()).toBeUndefined();
    const health = await call(url, 'GET', '/api/v1/utils/health-check/');
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ detail: 'Service temporarily unavailable, try again shortly' });
    expect(Number(health.headers.get('retry-after'))).toBeGreaterThan(0);

    phase = 'restarting';
    postgres = await startEmbeddedPostgres(path.join(dir, 'data'), port, log);
    const restartedAt = performance.now();
    phase = 'after';
    let recoveredAt: number | undefined;
    const deadline = restartedAt + 60_000;
    while (recoveredAt === undefined && performance.now() < deadline) {
      const probeStarted = performance.now();
      const probe = await call(url, 'POST', '/api/v1/items/', { token: writer, json: { title: 'recovery-probe' } });
      if (probe.status === 200) recoveredAt = probeStarted + probe.ms;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    running = false;
    await load;
    expect(gateway.exitCode()).toBeUndefined();
    const healthAfter = await call(url, 'GET', '/api/v1/utils/health-check/');
    expect(healthAfter.status).toBe(200);
    expect(healthAfter.body).toBe(true);

    // No answer was a 500 or a dropped connection, and none took longer than the bound.
    const failures = samples.filter((s) => s.status === 0 || (s.status >= 500 && s.status !== 503));
    const errorLines = gateway.output.filter((line) => line.includes('unhandled'));
    expect(failures, errorLines.join('\n')).toEqual([]);
    expect(samples.filter((s) => s.ms > ANSWER_BOUND_MS)).toEqual([]);
    const down = samples.filter((s) => s.phase === 'down' && s.startedAt > stoppedAt + 100);
    expect(down.length).toBeGreaterThan(10);
    expect(down.filter((s) => s.status !== 503 || !/temporarily unavailable/.test(String(s.detail)))).toEqual([]);
    const graphqlDown = down.filter((s) => s.kind === 'read graphql');
    expect(graphqlDown.length).toBeGreaterThan(0);
    const first503 = samples.find((s) => s.status === 503 && s.startedAt >= stoppedAt);
    expect(first503).toBeDefined();

    // Serving again without a restart: every kind of request succeeded after the restart.
    expect(recoveredAt).toBeDefined();
    for (const kind of [
      'write item',
      'write client',
      'write signup',
      'write delete user',
      'read items',
      'read me',
      'read graphql',
    ]) {
      expect(
        samples.some((s) => s.phase === 'after' && s.kind === kind && s.status === 200),
        kind,
      ).toBe(true);
    }

    // Every acknowledged write is there, whole; nothing is half-applied.
    const items = await sql<{ id: string; title: string; description: string | null }>(
      postgres.url,
      `select id, title, description from items where title like 'item-%'`,
    );
    const byId = new Map(items.map((i) => [i.id, i]));
    let found = 0;
    for (const [id, title] of acknowledged.items) {
      const row = byId.get(id);
      if (row?.title === title && row.description === `about ${title}`) found++;
    }
    for (const row of items) {
      expect(attempted.items.has(row.title)).toBe(true);
      expect(row.description).toBe(`about ${row.title}`);
    }
    // Read as the superuser: only superusers see store tokens in clear.
    const clients = await call(url, 'GET', '/api/v1/clients/?limit=1000', { token: superuser });
    expect(clients.status).toBe(200);
    const clientById = new Map<string, any>(clients.body.data.map((c: any) => [c.id, c]));
    for (const [id, n] of acknowledged.clients) {
      const c = clientById.get(id);
      if (
        c?.url === `https://store-${n}.example` &&
        c.hiper_token === `hiper-${n}` &&
        c.nuvemshop_token === `nuvem-${n}`
      ) {
        found++;
      }
    }
    for (const c of clients.body.data) {
      const n = /store-(\d+)\./.exec(c.url)?.[1];
      expect(c.hiper_token).toBe(`hiper-${n}`);
      expect(c.nuvemshop_token).toBe(`nuvem-${n}`);
    }
    const users = new Set((await sql<{ id: string }>(postgres.url, 'select id from users')).map((r) => r.id));
    const tombstones = new Set(
      (await sql<{ id: string }>(postgres.url, 'select id from deleted_users')).map((r) => r.id),
    );
    let halfApplied = 0;
    for (const id of attempted.deletedUsers.keys()) {
      // A deletion is all or nothing: the user is gone and remembered as deleted, or still there and not.
      if (users.has(id) === tombstones.has(id)) halfApplied++;
      if (acknowledged.deletions.has(id) && !users.has(id) && tombstones.has(id)) found++;
    }
    const acknowledgedCount = acknowledged.items.size + acknowledged.clients.size + acknowledged.deletions.size;
    expect(halfApplied).toBe(0);
    expect(found).toBe(acknowledgedCount);
    expect(acknowledged.items.size).toBeGreaterThan(0);

    const slowestDown = Math.max(...down.map((s) => s.ms));
    recordFigures('database-outage', {
      outageFirst503Ms: Math.round(first503!.startedAt + first503!.ms - stoppedAt),
      outageSlowestAnswerMs: Math.round(slowestDown),
      outageRecoveryMs: Math.round(recoveredAt! - restartedAt),
      writesAcknowledged: acknowledgedCount,
      writesFound: found,
      writesHalfApplied: halfApplied,
      outageRequests: `${samples.length} requests (${down.length} during the outage, all 503)`,
    });
  });
});
