import { createHash } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import { ApiError } from '../errors';
import type { Caller } from '../auth/auth.service';
import type { RateLimits } from '../auth/rate-limits';
import type { ClientService } from '../clients/client.service';
import { AuthorizationCode } from './authorization-code.entity';
import type { AuthorizeCallback, CallbackAnswer } from './callback.schemas';
import { exchangeCode, type NuvemshopApp } from './nuvemshop-token.client';

export const AUTHORIZED_MESSAGE = 'Store authorized successfully';

type Outcome = { status: number; answer: Record<string, unknown> };

/**
 * Completes a Nuvemshop app install. Each code is exchanged exactly once: posts of the same code
 * wait on one advisory lock (across processes) and share one in-flight promise (within one),
 * then get the stored outcome.
 */
export class CallbackService {
  private readonly inFlight = new Map<string, Promise<Outcome>>();
  private readonly app: NuvemshopApp;

  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
    private readonly clients: ClientService,
    private readonly limits: RateLimits,
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

  private exchangeOnce(hash: string, code: string): Promise<Outcome> {
    return this.orm.em.fork().transactional(async (em) => {
      await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [hash]);
      const earlier = await em.findOne(AuthorizationCode, { codeHash: hash });
      if (earlier) return { status: earlier.status, answer: earlier.answer };
      // An unreachable platform throws here and stores nothing: the code is unspent and may be posted again.
      const exchange = await exchangeCode(this.app, code);
      let outcome: Outcome;
      if (exchange.kind === 'granted') {
        await this.clients.saveStoreToken(em, exchange.storeId, exchange.accessToken);
        outcome = { status: 200, answer: { message: AUTHORIZED_MESSAGE, checkout_url: this.config.CHECKOUT_URL } };
      } else {
        outcome = { status: 400, answer: { detail: exchange.reason } };
      }
      em.create(AuthorizationCode, { codeHash: hash, ...outcome });
      await em.flush();
      return outcome;
    });
  }
}
