import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Pool, type PoolConfig } from 'pg';

/** What knex made of the ORM's options for each of its connections (address, types, timeouts). */
interface KnexClient {
  connectionSettings: PoolConfig;
}

/**
 * MikroORM's PostgreSQL driver, with a second pool beside its own: `pg`'s pool, for the plain reads of
 * database/plain-rows.ts (every list, every read by id, every signed-in request's user row). Its connections are made
 * from the very settings the ORM's connections are made from (the address, the statement timeout, the connection
 * timeout, and MikroORM's type parsers, which leave dates as text), and it holds as many of them as the ORM's pool.
 *
 * A read takes its connection here because knex's pool (tarn) spends a pending operation, a timer and several promises
 * on every acquisition. The ORM keeps its own pool for its unit of work and transactions; the job queue has a third,
 * pg-boss's. The pool opens when first read from and closes with the ORM.
 */
export class PostgreSqlReadsDriver extends PostgreSqlDriver {
  private pool?: Pool;

  reads(): Pool {
    if (!this.pool) {
      const { connectionSettings } = this.connection.getKnex().client as unknown as KnexClient;
      const pool = new Pool({
        ...connectionSettings,
        // knex keeps the password as a property that is not enumerated (so it is never logged), and pg's pool does too.
        password: connectionSettings.password,
        max: this.config.get('pool')?.max ?? 10,
        // Idle connections do not keep a process from ending (a command, a test).
        allowExitOnIdle: true,
      });
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
