import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import { ApiError } from '../errors';
import type { Caller } from '../users/auth.service';
import type { RateLimits } from '../auth/rate-limits';
import { saveStoreToken } from '../clients/store-connection';
import type { PlainRows } from '../database/plain-rows';
import type { JobQueue } from '../queue/queue';
import { AuthorizationCode } from './authorization-code.entity';
import type { AuthorizeCallback, CallbackAnswer } from './callback.schemas';
import { exchangeCode, type NuvemshopApp } from '../platforms/nuvemshop-token.client';
import { messages } from '../messages';

type Outcome = { status: number; answer: Record<string, unknown> };

/** The `status` of a code whose exchange is under way; a finished one holds the HTTP status it was answered with. */
const PENDING = 0;
/** How often a post of a code that another process is exchanging looks for the outcome. */
const POLL_MS = 100;
/** Past the platform's timeout, a claim this much older belongs to a process that died mid-exchange. */
const CLAIM_GRACE_MS = 5_000;

/**
 * Completes a Nuvemshop app install. Each code is exchanged exactly once, across processes: the first post claims the
 * code with one insert (its row waits as pending), exchanges it, then stores the outcome; posts of the same code share
 * the in-flight promise within one process and read the stored outcome from another. No database connection is held
 * while the platform is asked: a slow platform cannot take the pool from everyone else.
 */
export class CallbackService {
  private readonly inFlight = new Map<string, Promise<Outcome>>();
  private readonly app: NuvemshopApp;

  constructor(
    private readonly orm: MikroORM,
    private readonly rows: PlainRows,
    private readonly config: Config,
    private readonly limits: RateLimits,
    private readonly jobs: JobQueue,
  ) {
    this.app = {
      tokenUrl: config.NUVEMSHOP_TOKEN_URL,
      clientId: config.NUVEMSHOP_CLIENT_ID,
      clientSecret: config.NUVEMSHOP_CLIENT_SECRET,
      timeoutMs: config.NUVEMSHOP_TIMEOUT_MS,
    };
  }

  async authorize(input: AuthorizeCallback, caller: Caller): Promise<CallbackAnswer> {
    await this.limits.consume('callback', caller.ip);
    const hash = createHash('sha256').update(input.code).digest('hex');
    let pending = this.inFlight.get(hash);
    if (!pending) {
      pending = this.exchangeOnce(hash, input.code).finally(() => this.inFlight.delete(hash));
      this.inFlight.set(hash, pending);
    }
    const { status, answer } = await pending;
    if (status !== 200) throw new ApiError(status, String(answer.detail));
    return answer as CallbackAnswer;
  }

  private async exchangeOnce(hash: string, code: string): Promise<Outcome> {
    const stale = this.app.timeoutMs + CLAIM_GRACE_MS;
    const giveUp = Date.now() + stale;
    for (;;) {
      if (await this.claim(hash, stale)) break;
      const earlier = await this.outcome(hash);
      if (earlier) return earlier;
      // Another process is exchanging this code right now: its outcome is this post's answer too.
      if (Date.now() > giveUp) throw new ApiError(502, messages.nuvemshopTimedOut);
      await sleep(POLL_MS);
    }
    let exchange;
    try {
      exchange = await exchangeCode(this.app, code);
    } catch (error) {
      // The platform was not reached or did not answer: the code is unspent and may be posted again.
      await this.rows.query('delete from authorization_codes where code_hash = $1 and status = $2', [hash, PENDING]);
      throw error;
    }
    const outcome: Outcome =
      exchange.kind === 'granted'
        ? { status: 200, answer: { message: messages.storeAuthorized, checkout_url: this.config.CHECKOUT_URL } }
        : { status: 400, answer: { detail: exchange.reason } };
    await this.orm.em.fork().transactional(async (em) => {
      if (exchange.kind === 'granted') {
        await saveStoreToken(em, exchange.storeId, exchange.accessToken, exchange.scope);
        // Reading the store's record and registering the webhooks take several calls: after the answer, in a job.
        await this.jobs.send('store-install', { storeId: exchange.storeId }, { em });
      }
      await em.nativeUpdate(AuthorizationCode, { codeHash: hash }, outcome);
    });
    return outcome;
  }

  /** Claims a code for this post: true when it was new, or its claim was left by a process that died. */
  private async claim(hash: string, staleMs: number): Promise<boolean> {
    const claimed = await this.rows.query(
      `insert into authorization_codes (code_hash, status, answer, created_at) values ($1, $2, '{}', now())
       on conflict (code_hash) do update set created_at = now()
         where authorization_codes.status = $2 and authorization_codes.created_at < now() - make_interval(secs => $3)
       returning code_hash`,
      [hash, PENDING, staleMs / 1000],
    );
    return claimed.length > 0;
  }

  private async outcome(hash: string): Promise<Outcome | undefined> {
    const [row] = await this.rows.query('select status, answer from authorization_codes where code_hash = $1', [hash]);
    if (!row || row.status === PENDING) return undefined;
    return { status: Number(row.status), answer: row.answer as Record<string, unknown> };
  }
}
