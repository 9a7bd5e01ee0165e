import { createHmac } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config';
import { TooManyRequests } from '../errors';
import { messages } from '../messages';

export type LimitName = 'login' | 'signup' | 'recovery' | 'reset' | 'callback' | 'webhook' | 'sync';

/** What a 429 says when a budget has a more telling reason than "Too many requests". */
const DETAILS: Partial<Record<LimitName, string>> = { sync: messages.tooManySyncRuns };

/** How long an address where an account signed in stays known to it. */
const KNOWN_ADDRESS_SECONDS = 30 * 24 * 3600;

/**
 * Per-address budgets on the public routes, per-user budgets on starting synchronisations, the login throttle, and the recovery mails one address may receive. Counters live in PostgreSQL, so several gateway
 * processes on one database share one budget. Keys are HMACs (keyed by SECRET_KEY) of what they count: the table
 * never holds an email or an address as typed.
 *
 * Login (OWASP ASVS V2.2.1): every attempt spends the address's budget; failed passwords count per email and address,
 * so a stranger guessing from one address is stopped without touching the owner elsewhere; and failures from
 * addresses the account has not signed in from count per account, so guessing from many addresses is throttled too.
 * An address where the account signed in before is not held back by that account-wide count: while strangers spend
 * it, the owner still signs in from where they usually do.
 *
 * A budget guarding work is spent before the work, in the one statement that also reads it, and given back when the
 * work turns out to be allowed (a right password, a valid signature): a count read first and raised after the check
 * lets every attempt sent at once pass the read before any of them raised it.
 */
export class RateLimits {
  private readonly limiters: Record<LimitName, RateLimiterPostgres>;
  private readonly loginFailures: RateLimiterPostgres;
  private readonly accountFailures: RateLimiterPostgres;
  private readonly knownAddresses: RateLimiterPostgres;
  private readonly recoveryMails: RateLimiterPostgres;
  private readonly signatureChecks: RateLimiterPostgres;
  private readonly secret: string;

  constructor(em: EntityManager, config: Config) {
    const make = (
      keyPrefix: string,
      points: number,
      duration = config.RATE_LIMIT_WINDOW_SECONDS,
      inMemoryBlockOnConsumed?: number,
    ) =>
      new RateLimiterPostgres({
        ...(inMemoryBlockOnConsumed ? { inMemoryBlockOnConsumed } : {}),
        storeClient: em.getKnex(),
        storeType: 'knex',
        tableName: 'rate_limits',
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix,
        points,
        duration,
      });
    this.secret = config.SECRET_KEY;
    this.limiters = {
      login: make('login', config.RATE_LIMIT_LOGIN),
      signup: make('signup', config.RATE_LIMIT_SIGNUP),
      recovery: make('recovery', config.RATE_LIMIT_RECOVERY),
      reset: make('reset', config.RATE_LIMIT_RESET),
      callback: make('callback', config.RATE_LIMIT_CALLBACK),
      sync: make('sync', config.RATE_LIMIT_SYNC),
      // A flood of unsigned webhooks is refused from memory once an address has spent its budget, without a
      // statement each.
      webhook: make(
        'webhook-unsigned',
        config.RATE_LIMIT_WEBHOOK_UNSIGNED,
        config.RATE_LIMIT_WINDOW_SECONDS,
        config.RATE_LIMIT_WEBHOOK_UNSIGNED,
      ),
    };
    // The unsigned budget's own counter, without its in-memory block: a check of a signature reserves a point there
    // and gives it back when the signature holds, and Nuvemshop's own deliveries at once must not find their address
    // blocked for a whole window by reservations already given back.
    this.signatureChecks = make('webhook-unsigned', config.RATE_LIMIT_WEBHOOK_UNSIGNED);
    this.loginFailures = make('login-email', config.RATE_LIMIT_LOGIN_EMAIL);
    this.accountFailures = make(
      'login-account',
      config.RATE_LIMIT_LOGIN_ACCOUNT,
      config.RATE_LIMIT_LOGIN_ACCOUNT_WINDOW_SECONDS,
    );
    this.knownAddresses = make('login-known', 1, KNOWN_ADDRESS_SECONDS);
    this.recoveryMails = make(
      'recovery-recipient',
      config.RATE_LIMIT_RECOVERY_RECIPIENT,
      config.RATE_LIMIT_RECOVERY_RECIPIENT_WINDOW_SECONDS,
    );
  }

  /**
   * Spends one of the recovery mails `email` may be sent in its window, whoever asks: false when they are spent.
   * The count is one atomic statement, so requests at the same moment, to any gateway process, never exceed it.
   */
  async recoveryMailAllowed(email: string): Promise<boolean> {
    try {
      await this.recoveryMails.consume(this.keyOf(email));
      return true;
    } catch (error) {
      if (error instanceof RateLimiterRes) return false;
      throw error;
    }
  }

  /** Spend one request of `name` for `key`, or throw 429 with the seconds until the window resets. */
  async consume(name: LimitName, key: string): Promise<void> {
    try {
      await this.limiters[name].consume(this.keyOf(key));
    } catch (error) {
      if (error instanceof RateLimiterRes) throw new TooManyRequests(error.msBeforeNext / 1000, DETAILS[name]);
      throw error;
    }
  }

  /**
   * Before a body claiming a signature is read: reserves one of the address's unsigned budget (429 when spent), so a
   * signature that fails counts like an unsigned request, however many are sent at once.
   */
  async beforeSignedWebhook(ip: string): Promise<void> {
    await spend(this.signatureChecks, this.keyOf(ip));
  }

  /** A signature that holds gives back what beforeSignedWebhook reserved. */
  async webhookSignatureValid(ip: string): Promise<void> {
    await this.signatureChecks.reward(this.keyOf(ip));
  }

  /**
   * Before a password is checked: the address's budget, then a failure reserved on this email and address and,
   * unless the account signed in from there before, on the account (429 when either is spent). The attempt counts
   * as failed until loginSucceeded says otherwise.
   */
  async beforeLogin(email: string, ip: string): Promise<void> {
    await this.consume('login', ip);
    const pair = this.keyOf(`${email}\n${ip}`);
    const [known] = await Promise.all([this.knownAddresses.get(pair), spend(this.loginFailures, pair)]);
    if (!known) await spend(this.accountFailures, this.keyOf(email));
  }

  /**
   * The right password: the address's failures are forgiven, it becomes known to the account, and the failure
   * reserved on the account is given back.
   */
  async loginSucceeded(email: string, ip: string): Promise<void> {
    const pair = this.keyOf(`${email}\n${ip}`);
    const known = await this.knownAddresses.get(pair);
    await Promise.all([
      this.loginFailures.delete(pair),
      this.knownAddresses.set(pair, 1, KNOWN_ADDRESS_SECONDS),
      known ? undefined : this.accountFailures.reward(this.keyOf(email)),
    ]);
  }

  private keyOf(value: string): string {
    return createHmac('sha256', this.secret).update(value).digest('base64url');
  }
}

/** Spends one point of `limiter` for `key`, or throws 429 when its budget is spent. */
async function spend(limiter: RateLimiterPostgres, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw new TooManyRequests(error.msBeforeNext / 1000);
    throw error;
  }
}
