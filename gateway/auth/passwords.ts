import { availableParallelism } from 'node:os';
import bcrypt from 'bcrypt';
import pLimit from 'p-limit';

/**
 * bcrypt with a configurable cost. `verifyNobody` spends the same time as a real check, for unknown emails.
 *
 * At most one hash runs per core but one: each takes a core for a quarter of a second, so a burst of sign-ins
 * queues here instead of taking every core away from the requests the event loop is serving.
 */
export class PasswordHasher {
  private readonly dummyHash: Promise<string>;
  private readonly slot: ReturnType<typeof pLimit>;

  constructor(
    private readonly cost: number,
    concurrency = Math.max(1, availableParallelism() - 1),
  ) {
    this.slot = pLimit(concurrency);
    this.dummyHash = this.slot(() => bcrypt.hash('placeholder-password-for-timing', cost));
  }

  /** Hashes and checks waiting for a free slot. */
  get waiting(): number {
    return this.slot.pendingCount;
  }

  hash(password: string): Promise<string> {
    return this.slot(() => bcrypt.hash(password, this.cost));
  }

  verify(password: string, hash: string): Promise<boolean> {
    return this.slot(() => bcrypt.compare(password, hash));
  }

  async verifyNobody(password: string): Promise<false> {
    const hash = await this.dummyHash;
    await this.slot(() => bcrypt.compare(password, hash));
    return false;
  }
}
