import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { setTokenEncryptionKey } from '../../gateway/database/token-cipher';
import { migrate, openDatabase, useMigrations } from '../../gateway/orm';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Creates an empty database on the test server and returns its URL and a function that drops it. */
export async function createTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Runs SQL on a test database directly, to see what is stored. */
export async function sql<T = Record<string, unknown>>(
  databaseUrl: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * A migrated database of its own for one file's tests, opened through the ORM as the gateway opens it (`poolMax`
 * connections, `statementTimeoutMs`): made before the file's tests and dropped after them. Its fields are set once
 * `beforeAll` has run.
 */
export function migratedDatabase(poolMax: number, statementTimeoutMs: number) {
  const opened = {} as { database: TestDatabase; orm: MikroORM };
  beforeAll(async () => {
    setTokenEncryptionKey(Buffer.alloc(32, 1).toString('base64'));
    opened.database = await createTestDatabase(inject('postgresUrl'));
    opened.orm = await openDatabase(opened.database.url, poolMax, statementTimeoutMs);
    await migrate(opened.orm);
  });
  afterAll(async () => {
    await opened.orm?.close(true);
    await opened.database?.drop();
  });
  return opened;
}

/**
 * A database of its own for one migration's test, made before the file's tests and dropped after them, migrated by the
 * test itself: `upTo(name)` applies the committed migrations up to `name` (the state the data is seeded in), `rest()`
 * every later one (the migration under test among them).
 */
export function migrationDatabase() {
  const opened = {} as { database: TestDatabase; orm: MikroORM };
  beforeAll(async () => {
    setTokenEncryptionKey(Buffer.alloc(32, 1).toString('base64'));
    opened.database = await createTestDatabase(inject('postgresUrl'));
    opened.orm = await openDatabase(opened.database.url);
  });
  afterAll(async () => {
    await opened.orm?.close(true);
    await opened.database?.drop();
  });
  return {
    /** The database's connection, to seed and read it. */
    sql: () => opened.orm.em.getConnection(),
    /** A unit of work of its own, for the product's reads. */
    em: () => opened.orm.em.fork(),
    upTo: async (name: string) => {
      await useMigrations(opened.orm);
      await opened.orm.getMigrator().up({ to: name });
    },
    rest: () => migrate(opened.orm),
  };
}
