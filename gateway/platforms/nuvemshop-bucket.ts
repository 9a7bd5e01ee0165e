import { sleep } from './platform-call';

/** Nuvemshop's documented bucket until a store's answers say otherwise: 40 requests, draining 2 a second. */
const DOCUMENTED_LIMIT = 40;
/** Every documented plan drains its bucket in 20 seconds (40 at 2/s, 400 at 20/s). */
const SECONDS_TO_DRAIN = 20;
/** Below this many requests in the bucket, the headers' rounding says too little about its drain rate. */
const MEASURABLE = 10;

/** Reads a header as a whole number, or undefined. */
function count(headers: Headers, name: string): number | undefined {
  const value = Number(headers.get(name));
  return headers.has(name) && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * Our side of one store's leaky bucket at Nuvemshop (per store and app): a local estimate of how full it is, kept a
 * little below the limit, and corrected by the `x-rate-limit-limit`, `-remaining` and `-reset` headers of every
 * answer, so a store on a larger plan (a bucket of 400) is learnt rather than assumed. Callers wait their turn in
 * order, and a 429 stops everyone until the bucket has drained.
 */
export class NuvemshopBucket {
  /** The bucket's size, as the store's last answer said. */
  limit = DOCUMENTED_LIMIT;
  /** Requests drained per millisecond, as measured from the answers. */
  drainPerMs = DOCUMENTED_LIMIT / SECONDS_TO_DRAIN / 1000;
  private level = 0;
  private at: number;
  /** Calls counted and not yet answered: while there are none, an answer's headers say exactly how full it is. */
  private inFlight = 0;
  private blockedUntil = 0;
  private queue: Promise<void> = Promise.resolve();
  /** Calls waiting their turn. */
  private waiting = 0;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.at = now();
  }

  /** Requests kept free below the limit, for answers still on their way and for drain measured slightly high. */
  get margin(): number {
    return Math.max(1, Math.ceil(this.limit * 0.05));
  }

  /** How many requests the bucket holds now, by our estimate. */
  get used(): number {
    this.drain();
    return this.level;
  }

  /** Waits until one more request fits below the limit, then counts it. */
  take(cost = 1): Promise<void> {
    this.waiting += cost;
    const turn = this.queue.then(() => this.waitForRoom(cost)).finally(() => (this.waiting -= cost));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** How long a call taken now would wait for its turn, by our estimate (ms): after a 429, at least until it ends. */
  expectedWaitMs(cost = 1): number {
    const blocked = Math.max(0, this.blockedUntil - this.now());
    this.drain();
    const over = this.level + this.waiting + cost - (this.limit - this.margin);
    return blocked + Math.max(0, over / this.drainPerMs);
  }

  /** What an answer's headers say about the bucket: its size, how full it is, and so how fast it drains. */
  learn(headers: Headers): void {
    const limit = count(headers, 'x-rate-limit-limit');
    if (!limit) return;
    this.drain();
    if (limit !== this.limit) {
      this.limit = limit;
      this.drainPerMs = limit / SECONDS_TO_DRAIN / 1000;
    }
    const remaining = count(headers, 'x-rate-limit-remaining');
    const reset = count(headers, 'x-rate-limit-reset');
    if (remaining === undefined) return;
    const used = Math.max(0, limit - remaining);
    // `remaining` is rounded down, so `used` may read up to one request high: the drain measured from it is lowered
    // by that share, and never drains us faster than the platform does.
    if (used >= MEASURABLE && reset) this.drainPerMs = (used - 1) / reset;
    // Our estimate runs from `at`, which a 429 puts in the future: compare the two there.
    const now = this.now();
    const learnt = used - Math.max(0, this.at - now) * this.drainPerMs;
    // With no other call on its way the answer is the whole truth, lower than our estimate or not.
    this.level = this.inFlight === 0 ? Math.max(0, learnt) : Math.max(this.level, learnt);
  }

  /** An answer came (its headers learnt or not), or the call failed without one. */
  settle(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  /** A 429: nobody calls until the bucket is empty (`x-rate-limit-reset` ms, else our estimate); returns that wait. */
  full(headers: Headers): number {
    this.learn(headers);
    const reset = count(headers, 'x-rate-limit-reset') ?? this.limit / this.drainPerMs;
    const wait = Math.max(reset, 1);
    this.blockedUntil = Math.max(this.blockedUntil, this.now() + wait);
    this.level = 0;
    this.at = this.blockedUntil;
    return wait;
  }

  private drain() {
    const now = this.now();
    if (now <= this.at) return;
    this.level = Math.max(0, this.level - (now - this.at) * this.drainPerMs);
    this.at = now;
  }

  private async waitForRoom(cost: number) {
    for (;;) {
      const blocked = this.blockedUntil - this.now();
      if (blocked > 0) {
        await sleep(blocked);
        continue;
      }
      this.drain();
      const room = this.limit - this.margin - this.level;
      if (room >= cost) {
        this.level += cost;
        this.inFlight++;
        return;
      }
      // Looks again at least every 100 ms: an answer may meanwhile have taught a larger bucket.
      await sleep(Math.min(100, Math.max(1, (cost - room) / this.drainPerMs)));
    }
  }
}
