import type { Configuration } from '@mikro-orm/core';
import { PostgreSqlDriver, type PostgreSqlConnection } from '@mikro-orm/postgresql';
import { Pool, type PoolConfig } from 'pg';

/**
 * The settings of the reads' pool, from the ORM's public configuration as its own connections are made from it: the
 * address, credentials and type parsers its connection gives (`getConnectionOptions`: dates left as text), the
 * connection settings of its driver options (the statement and connection timeouts), and its pool's size.
 * tests/gateway/reads-pool.test.ts holds these against what the ORM's connections get, so an upgrade that makes them
 * differently is noticed.
 */
export function readsPoolConfig(connection: PostgreSqlConnection, config: Configuration): PoolConfig {
  const driverOptions = config.get('driverOptions') as { connection?: PoolConfig } | undefined;
  return {
    // knex's settings for pg, which its pool takes as they are.
    ...(connection.getConnectionOptions() as PoolConfig),
    ...driverOptions?.connection,
    max: config.get('pool')?.max ?? 10,
    // Idle connections do not keep a process from ending (a command, a test).
    allowExitOnIdle: true,
  };
}

/**
 * MikroORM's PostgreSQL driver, with a second pool beside its own: `pg`'s pool, for the plain reads of
 * database/plain-rows.ts (every list, every read by id, every signed-in request's user row), made as the ORM's
 * connections are (`readsPoolConfig`).
 *
 * A read takes its connection here because knex's pool (tarn) spends a pending operation, a timer and several promises
 * on every acquisition. The ORM keeps its own pool for its unit of work and transactions; the job queue has a third,
 * pg-boss's. The pool opens when first read from and closes with the ORM.
 */
export class PostgreSqlReadsDriver extends PostgreSqlDriver {
  private pool?: Pool;

  reads(): Pool {
    if (!this.pool) {
      const pool = new Pool(readsPoolConfig(this.getConnection(), this.config));
      // A connection that breaks while idle (the server restarting) is dropped by the pool, and the next read opens
      // another: without a listener, the pool's 'error' event would end the process.
      pool.on('error', () => undefined);
      this.pool = pool;
    }
    return this.pool;
  }

  override async close(force?: boolean): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await Promise.all([pool?.end(), super.close(force)]);
  }
}
