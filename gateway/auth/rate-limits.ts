import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config';
import { TooManyRequests } from '../errors';

export type LimitName = 'login' | 'loginEmail' | 'signup' | 'recovery' | 'reset' | 'callback';

/**
 * Per-address (and, for login, per-email) budgets on the public routes. Counters live in
 * PostgreSQL, so several gateway processes on one database share one budget.
 */
export class RateLimits {
  private readonly limiters: Record<LimitName, RateLimiterPostgres>;

  constructor(em: EntityManager, config: Config) {
    const make = (keyPrefix: string, points: number) =>
      new RateLimiterPostgres({
        storeClient: em.getKnex(),
        storeType: 'knex',
        tableName: 'rate_limits',
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix,
        points,
        duration: config.RATE_LIMIT_WINDOW_SECONDS,
      });
    this.limiters = {
      login: make('login', config.RATE_LIMIT_LOGIN),
      loginEmail: make('login-email', config.RATE_LIMIT_LOGIN_EMAIL),
      signup: make('signup', config.RATE_LIMIT_SIGNUP),
      recovery: make('recovery', config.RATE_LIMIT_RECOVERY),
      reset: make('reset', config.RATE_LIMIT_RESET),
      callback: make('callback', config.RATE_LIMIT_CALLBACK),
    };
  }

  /** Spend one request of `name` for `key`, or throw 429 with the seconds until the window resets. */
  async consume(name: LimitName, key: string): Promise<void> {
    // The counter's key column holds 255 characters, prefix included: a long key (an email typed at login) is hashed.
    const stored = key.length > 128 ? createHash('sha256').update(key).digest('hex') : key;
    try {
      await this.limiters[name].consume(stored);
    } catch (error) {
      if (error instanceof RateLimiterRes) throw new TooManyRequests(error.msBeforeNext / 1000);
      throw error;
    }
  }
}
