import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import pino from 'pino';
import { Client } from 'pg';
import { ResourceService } from '../../gateway/kit/service';
import { entityFor } from '../../gateway/kit/entity';
import { clientResource } from '../../gateway/clients/client.resource';
import type { Resource } from '../../gateway/kit/resource';

/** The clients' declaration, served as the generic service serves any resource. */
const anyResource: Resource = clientResource;
import { loadConfig } from '../../gateway/config';
import { PlainRows } from '../../gateway/database/plain-rows';
import { SearchLimits } from '../../gateway/database/search-limits';
import { isDatabaseUnavailable } from '../../gateway/database/unavailable';
import { ApiError } from '../../gateway/errors';
import { messages } from '../../gateway/messages';
import { openDatabase } from '../../gateway/orm';
import type { SignedInUser } from '../../gateway/users/user.schemas';
import { migratedDatabase } from '../support/database';
import { startTestGateway, type TestGateway } from '../support/gateway';

/**
 * A statement that runs past the statement timeout is cancelled by PostgreSQL (57014). Here a statement is made to
 * run long by holding a lock on its table, which it waits for: the timeout counts the wait as it counts work.
 */
async function holdingClients<T>(databaseUrl: string, during: () => Promise<T>): Promise<T> {
  const locker = new Client({ connectionString: databaseUrl });
  await locker.connect();
  try {
    await locker.query('begin');
    await locker.query('lock table clients in access exclusive mode');
    return await during();
  } finally {
    await locker.query('rollback');
    await locker.end();
  }
}

const caller = { id: '00000000-0000-4000-8000-000000000000', isSuperuser: true } as SignedInUser;

describe('the statement timeout', () => {
  const db = migratedDatabase(2, 300);

  it('is 5 s unless DATABASE_STATEMENT_TIMEOUT_MS says otherwise, and is set on every connection', async () => {
    expect(loadConfig({}).DATABASE_STATEMENT_TIMEOUT_MS).toBe(5000);
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '800' }).DATABASE_STATEMENT_TIMEOUT_MS).toBe(800);
    expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '0' })).toThrow('DATABASE_STATEMENT_TIMEOUT_MS');
    const rows = new PlainRows(db.orm);
    // Both connections of the pool at once, so neither answer comes from the other.
    const shown = await Promise.all(
      [1, 2].map(() => rows.query('select current_setting($1) as value', ['statement_timeout'])),
    );
    expect(shown.map(([row]) => row?.value)).toEqual(['300ms', '300ms']);
    const byDefault = await openDatabase(db.database.url);
    try {
      const [row] = await new PlainRows(byDefault).query('show statement_timeout', []);
      expect(row?.statement_timeout).toBe('5s');
    } finally {
      await byDefault.close(true);
    }
  });

  it('cancels a search that runs past it, answered 503 with advice to narrow the search', async () => {
    const clients = new ResourceService(
      anyResource,
      entityFor(anyResource),
      db.orm,
      new PlainRows(db.orm),
      new SearchLimits(loadConfig({})),
    );
    const started = performance.now();
    const searched = await holdingClients(db.database.url, () =>
      clients.list(caller, { skip: 0, limit: 10, q: 'store' }).catch((error: unknown) => error),
    );
    expect(performance.now() - started).toBeLessThan(3000);
    expect(searched).toBeInstanceOf(ApiError);
    expect(searched).toMatchObject({ status: 503, detail: messages.searchTimedOut });

    // Any other statement cancelled is an unavailable database (503, try again), never an unknown error.
    const listed = await holdingClients(db.database.url, () =>
      clients.list(caller, { skip: 0, limit: 10 }).catch((error: unknown) => error),
    );
    expect(listed).not.toBeInstanceOf(ApiError);
    expect(isDatabaseUnavailable(listed)).toBe(true);
  });
});

describe('a statement cancelled by the timeout, through the gateway', () => {
  let t: TestGateway;
  const logged: { level: number; msg: string }[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logged.push(JSON.parse(line));
        done();
      },
    });
    t = await startTestGateway({}, pino({ level: 'warn' }, sink));
  });
  afterAll(() => t?.close());

  it('is answered 503 over REST and GraphQL, the search with advice to narrow it, never as an unknown failure', async () => {
    const token = await t.superuserToken();
    const started = performance.now();
    const [rest, graphql] = await holdingClients(t.databaseUrl, () =>
      Promise.all([
        t.request('GET', '/api/v1/clients/', { token }),
        t.graphql('{ _allClientsMeta(filter: { q: "store" }) { count } }', undefined, token),
      ]),
    );
    // The gateway's own timeout (5 s by default) cancelled both: neither waited for the lock to go.
    expect(performance.now() - started).toBeGreaterThan(4500);
    expect(performance.now() - started).toBeLessThan(9000);

    expect(rest.status).toBe(503);
    expect(rest.body).toEqual({ detail: messages.databaseUnavailable });
    expect(graphql.body.errors).toEqual([
      expect.objectContaining({
        message: messages.searchTimedOut,
        extensions: { code: 'SERVICE_UNAVAILABLE', status: 503 },
      }),
    ]);
    // The access log records a 503 as a failed request; what must not appear is an error nobody recognised.
    expect(logged.map((line) => line.msg)).not.toContain('unhandled error');
    expect(logged.map((line) => line.msg)).not.toContain('unhandled GraphQL error');
    expect(logged.map((line) => line.msg)).toContain('database unavailable');
  });
});
