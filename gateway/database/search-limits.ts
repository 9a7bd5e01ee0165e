import pLimit from 'p-limit';
import type { Config } from '../config';
import { tooManySearches, tooManySearchesOfUser } from '../errors';

interface UserSearches {
  slot: pLimit.Limit;
  /** Running or waiting. */
  count: number;
}

/**
 * How many searches (`q`, an `ilike` over a whole table or an owner's part of it) run at once: a few per user and a
 * few in all, the rest waiting in a short line, and past that refused with 429. A search holds two of the pool's
 * connections and PostgreSQL's time for as long as it reads; unbounded, one user's searches took every connection
 * and every core, and another user's simplest request waited behind them.
 */
export class SearchLimits {
  private readonly all: pLimit.Limit;
  private readonly users = new Map<string, UserSearches>();
  /** Running or waiting, of every user. */
  private count = 0;

  constructor(
    private readonly config: Pick<
      Config,
      'SEARCH_CONCURRENCY_PER_USER' | 'SEARCH_QUEUE_PER_USER' | 'SEARCH_CONCURRENCY' | 'SEARCH_QUEUE'
    >,
  ) {
    this.all = pLimit(config.SEARCH_CONCURRENCY);
  }

  /** Reads a list for `user`: in turn when it searches (`options.q`), at once otherwise. */
  around<T>(user: string, options: { q?: string }, read: () => Promise<T>): Promise<T> {
    return options.q === undefined ? read() : this.run(user, read);
  }

  /** Runs `search` for `user` in turn, or refuses it when too many are already running or waiting. */
  async run<T>(user: string, search: () => Promise<T>): Promise<T> {
    const perUser = this.config.SEARCH_CONCURRENCY_PER_USER;
    const mine = this.users.get(user) ?? { slot: pLimit(perUser), count: 0 };
    if (mine.count >= perUser + this.config.SEARCH_QUEUE_PER_USER)
      throw tooManySearchesOfUser(perUser + this.config.SEARCH_QUEUE_PER_USER);
    if (this.count >= this.config.SEARCH_CONCURRENCY + this.config.SEARCH_QUEUE) throw tooManySearches();
    this.users.set(user, mine);
    mine.count++;
    this.count++;
    try {
      return await mine.slot(() => this.all(search));
    } finally {
      this.count--;
      if (--mine.count === 0) this.users.delete(user);
    }
  }
}
