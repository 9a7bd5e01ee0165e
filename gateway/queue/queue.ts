import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import type { ClientBase } from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { JobPayloads, QueueName } from './payloads';

/** The PostgreSQL schema pg-boss keeps its tables in, beside (never inside) the ORM's `public` schema. */
export const JOBS_SCHEMA = 'pgboss';

export type Job<N extends QueueName> = PgBoss.JobWithMetadata<JobPayloads[N]>;

/** One queue: how its jobs are retried, how many one process runs at once, what runs them, and when. */
export interface QueueDefinition<N extends QueueName = QueueName> {
  name: N;
  /**
   * Retries, backoff and how long one attempt may run before it counts as failed; `policy` `stately` keeps at most one
   * job queued and one running per `singletonKey`, `short` at most one queued (pg-boss's queue policies).
   */
  options: {
    retryLimit: number;
    retryDelay: number;
    retryBackoff: boolean;
    expireInSeconds: number;
    policy?: 'standard' | 'short' | 'stately';
  };
  /** Jobs of this queue one process works on at once. */
  concurrency: number;
  /** A cron expression (UTC): a job is sent on it by whichever process checks the schedules first. */
  schedule?: string;
  /** Every so many seconds, a job is sent by whichever process comes first in that slot (finer than a cron). */
  everySeconds?: number;
  /** Runs one job. Throwing fails the attempt (retried until `retryLimit`); what it answers is kept as the output. */
  handle(job: Job<N>): Promise<Record<string, unknown> | void>;
}

export interface JobQueueOptions {
  databaseUrl: string;
  /** Connections of pg-boss's own pool: workers polling and maintenance never wait on the requests' pool. */
  poolMax: number;
  /** How often an idle worker asks for a job. */
  pollingIntervalSeconds: number;
  /** How often a process checks the schedules. */
  cronCheckSeconds: number;
  /** How often expired jobs (their process died) are failed, and so retried. */
  maintenanceSeconds: number;
  /** Days an archived (finished or failed) job is kept. */
  retentionDays: number;
  /**
   * Whether this process works jobs. One that does not keeps no schedules either: the processes that work the jobs
   * register the schedules and send their jobs, and one that only serves requests never parses a cron expression
   * (nor loads the time zone and locale data that takes).
   */
  work: boolean;
}

// Finished jobs stay in the job table for half a day, failed ones a week, then move to pg-boss's archive, which
// keeps them HISTORY_RETENTION_DAYS more: a failed mail stays visible to superusers well past the next working day.
const ARCHIVE_COMPLETED_AFTER_SECONDS = 12 * 3600;
const ARCHIVE_FAILED_AFTER_SECONDS = 7 * 24 * 3600;

/**
 * The product's durable job queue: pg-boss on the gateway's own PostgreSQL. Jobs survive restarts, are retried with
 * exponential backoff, and are shared by every gateway and worker process on the database (each job runs once).
 *
 * pg-boss creates and upgrades its own schema (`pgboss`) when a process starts it, under an advisory lock, so
 * processes starting together are safe; `npm run migrate` does the same ahead of a deployment.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly pollMs: number;
  private readonly work: boolean;
  private readonly loops: Promise<void>[] = [];
  private readonly sleepers = new Set<() => void>();
  private readonly timers: NodeJS.Timeout[] = [];
  private started = false;
  private stopping = false;

  constructor(
    options: JobQueueOptions,
    private readonly log: Logger,
  ) {
    this.pollMs = options.pollingIntervalSeconds * 1000;
    this.work = options.work;
    this.boss = new PgBoss({
      connectionString: options.databaseUrl,
      schema: JOBS_SCHEMA,
      max: options.poolMax,
      application_name: 'integracao-jobs',
      migrate: true,
      pollingIntervalSeconds: options.pollingIntervalSeconds,
      schedule: options.work,
      cronMonitorIntervalSeconds: options.cronCheckSeconds,
      cronWorkerIntervalSeconds: options.cronCheckSeconds,
      archiveCompletedAfterSeconds: ARCHIVE_COMPLETED_AFTER_SECONDS,
      archiveFailedAfterSeconds: ARCHIVE_FAILED_AFTER_SECONDS,
      deleteAfterDays: options.retentionDays,
      // Expired jobs (their process died) are failed, and so retried, at this pace: a sync run is taken up again
      // within its step's expiry and this.
      maintenanceIntervalSeconds: options.maintenanceSeconds,
    });
    // Without a listener an 'error' event would end the process: a lost connection (the database restarting)
    // is worth a warning, and pg-boss retries on its next poll.
    this.boss.on('error', (error) => log.warn({ err: { message: errorMessage(error) } }, 'job queue: database error'));
  }

  /**
   * Installs or upgrades pg-boss's schema and creates the queues (applying settings changed since); in a process that
   * works jobs, also registers their schedules, keeps them and starts the workers.
   */
  async start(definitions: QueueDefinition[]): Promise<void> {
    await this.boss.start();
    this.started = true;
    for (const definition of definitions) {
      const options = { name: definition.name, ...definition.options };
      await this.boss.createQueue(definition.name, options);
      // createQueue leaves an existing queue as it was; jobs copy their queue's settings when sent.
      await this.boss.updateQueue(definition.name, options);
      if (!this.work) continue;
      if (definition.schedule) await this.boss.schedule(definition.name, definition.schedule, {}, { tz: 'UTC' });
      else await this.boss.unschedule(definition.name);
      const every = definition.everySeconds;
      if (every) {
        // Each process offers a job per slot; pg-boss keeps one per slot however many offer it.
        const offer = () =>
          this.boss
            .send(definition.name, {}, { singletonKey: definition.name, singletonSeconds: every })
            .catch((error) => this.log.warn({ err: { message: errorMessage(error) } }, 'job queue: schedule missed'));
        this.timers.push(setInterval(offer, Math.max(1, every / 2) * 1000));
      }
    }
    if (this.work) {
      for (const definition of definitions) {
        this.loops.push(this.workLoop(definition));
      }
    }
  }

  /**
   * Queues a job. With `em` (a transaction's entity manager) the job is written on that transaction's connection:
   * it exists only if the transaction commits, so a change and the mail it causes are saved together or not at all.
   */
  async send<N extends QueueName>(
    name: N,
    data: JobPayloads[N],
    options: { em?: EntityManager; startAfterSeconds?: number; startAfter?: Date; singletonKey?: string } = {},
  ): Promise<void> {
    const db = options.em ? transactionDb(options.em) : undefined;
    await this.boss.send(name, data, {
      ...(db ? { db } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.startAfterSeconds
        ? { startAfter: options.startAfterSeconds }
        : options.startAfter
          ? { startAfter: options.startAfter }
          : {}),
    });
  }

  /**
   * Queues several jobs of one queue in one statement, each with its queue's settings; with `em`, on that transaction's
   * connection, as `send`.
   */
  async sendMany<N extends QueueName>(
    name: N,
    data: JobPayloads[N][],
    options: { em?: EntityManager; expireInSeconds?: number } = {},
  ) {
    if (!data.length) return;
    const db = options.em ? transactionDb(options.em) : undefined;
    const expiry = options.expireInSeconds ? { expireInSeconds: options.expireInSeconds } : {};
    await this.boss.insert(
      data.map((d) => ({ name, data: d, ...expiry })),
      db ? { db } : {},
    );
  }

  /**
   * Stops taking jobs, lets the running ones finish (up to `timeoutMs`), then closes pg-boss's connections. A job
   * still running then is left active: pg-boss's expiry hands it to the next worker, in this process or another.
   */
  async stop(timeoutMs = 15_000): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const wake of this.sleepers) wake();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      Promise.all(this.loops).then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (timedOut) this.log.warn('jobs were still running when the queue stopped: they will be tried again');
    await this.boss.stop({ graceful: false, wait: true });
  }

  /**
   * A queue's workers: fetches as many jobs as it has free slots (up to its concurrency) in one statement, runs them,
   * records each outcome, and asks again as soon as a slot frees; sleeps a polling interval only when the queue is
   * empty, so a burst of mail drains at the speed of the mail server, and an idle queue costs one poll per interval
   * whatever its concurrency.
   *
   * Outcomes are recorded here, awaited, rather than by pg-boss's own work loop, which records them without waiting
   * (a database lost at that moment would be an unhandled rejection, and end the process).
   */
  private async workLoop<N extends QueueName>(definition: QueueDefinition<N>): Promise<void> {
    const running = new Set<Promise<void>>();
    /** Ends the loop's sleep early: a slot freed, so the queue is asked again at once. */
    let wake: (() => void) | undefined;
    /** Jobs ended so far: one ended since a fetch may have sent its next step after that fetch looked. */
    const ended = { count: 0 };
    while (!this.stopping) {
      const free = definition.concurrency - running.size;
      if (free <= 0) {
        await Promise.race(running);
        continue;
      }
      const endedBefore = ended.count;
      // pg-boss answers no job, rather than an error, while the database cannot be reached.
      const jobs = await this.boss.fetch<JobPayloads[N]>(definition.name, { batchSize: free, includeMetadata: true });
      for (const job of jobs) {
        const work: Promise<void> = this.run(definition, job).finally(() => {
          running.delete(work);
          ended.count++;
          wake?.();
        });
        running.add(work);
      }
      if (jobs.length < free && ended.count === endedBefore) {
        // Drained: until the next poll, or until a job of this queue ends (its next step may be waiting).
        await this.sleep(this.pollMs, (done) => (wake = done));
        wake = undefined;
      }
    }
    await Promise.all(running);
  }

  private async run<N extends QueueName>(definition: QueueDefinition<N>, job: Job<N>): Promise<void> {
    // pg-boss expires the job this long after it handed it out: its outcome is ours to record until then.
    const deadline = Date.now() + Number(job.expireInSeconds) * 1000;
    let outcome: { output: Record<string, unknown> | undefined } | { error: unknown };
    try {
      outcome = { output: (await withinSeconds(definition.handle(job), Number(job.expireInSeconds))) ?? undefined };
    } catch (error) {
      outcome = { error };
      const last = job.retryCount >= job.retryLimit;
      this.log.warn(
        { job: job.id, queue: job.name, attempt: job.retryCount + 1, err: { message: errorMessage(error) } },
        last ? 'job failed for good after its last attempt' : 'job failed; it will be retried',
      );
    }
    await this.record(job, outcome, deadline);
  }

  /**
   * Records a job's outcome. While the database cannot take it, it is tried again (every second, then less often) until
   * the database is back or the job's expiry is near: a job whose attempt failed because the database went away is
   * then retried after its usual delay once the database returns, not left active until it expires (with an order's
   * expiry of minutes, its order would wait that long). Past the expiry, pg-boss may have handed the job to another
   * worker, whose attempt a late outcome would overwrite, so it is left to the expiry then; and to it on stopping.
   */
  private async record<N extends QueueName>(
    job: Job<N>,
    outcome: { output: Record<string, unknown> | undefined } | { error: unknown },
    deadline: number,
  ): Promise<void> {
    let waitMs = 1_000;
    for (let attempt = 1; ; attempt++) {
      try {
        // Only the message is kept: a stack trace says nothing to whoever reads the failed mail's reason.
        if ('error' in outcome) await this.boss.fail(job.name, job.id, { message: errorMessage(outcome.error) });
        else await this.boss.complete(job.name, job.id, outcome.output);
        if (attempt > 1)
          this.log.info({ job: job.id, attempts: attempt }, 'job outcome recorded once the database answered');
        return;
      } catch (error) {
        if (this.stopping || Date.now() + waitMs + RECORD_MARGIN_MS > deadline) {
          this.log.warn(
            { job: job.id, err: { message: errorMessage(error) } },
            'job outcome could not be recorded: the job stays active until its expiry, then is tried again',
          );
          return;
        }
        if (attempt === 1) {
          this.log.warn(
            { job: job.id, err: { message: errorMessage(error) } },
            'job outcome could not be recorded yet: trying again until the database answers',
          );
        }
        await this.sleep(waitMs);
        waitMs = Math.min(waitMs * 2, 5_000);
      }
    }
  }

  /** Sleeps `ms`, or until stopped, or until the waker handed to `waker` is called. */
  private sleep(ms: number, waker?: (done: () => void) => void): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
      waker?.(done);
    });
  }
}

/** Time kept between an outcome's last try and the job's expiry, for the statement itself and clocks' drift. */
const RECORD_MARGIN_MS = 5_000;

/** `work`, or a rejection once it has run longer than its job may (pg-boss would expire it then anyway). */
function withinSeconds<T>(work: Promise<T>, seconds: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the job ran longer than its ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * pg-boss's statement runner on the connection of the transaction `em` is in: the connection knex's transaction client
 * hands out (`Knex.Client.acquireConnection`, as knex declares it), so that pg-boss's numbered parameters reach pg as
 * they are. knex's `raw` would number each use of a parameter apart, and PostgreSQL would then type each use apart (a
 * job's start, read both as text and as a moment, would be refused). tests/gateway/queue-transaction.test.ts holds it
 * to the transaction's own connection.
 */
function transactionDb(em: EntityManager): PgBoss.Db {
  const transaction = em.getTransactionContext<Knex.Transaction>();
  if (!transaction) throw new Error('a job sent with an entity manager must be sent inside its transaction');
  const client: Knex.Client = transaction.client;
  return {
    executeSql: async (text, values) => {
      const connection: ClientBase = await client.acquireConnection();
      return connection.query(text, values);
    },
  };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Installs or upgrades pg-boss's schema and nothing else (no workers, no maintenance): `npm run migrate`. */
export async function installJobSchema(databaseUrl: string): Promise<void> {
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: JOBS_SCHEMA,
    max: 1,
    migrate: true,
    supervise: false,
    schedule: false,
  });
  let failure: unknown;
  boss.on('error', (error) => (failure ??= error));
  await boss.start();
  await boss.stop({ graceful: false, wait: true });
  if (failure) throw failure;
}

/** The queue's settings from the configuration, on the database this process uses. */
export function jobQueueOptions(config: Config, databaseUrl: string, work: boolean): JobQueueOptions {
  return {
    databaseUrl,
    poolMax: config.JOBS_POOL_MAX,
    pollingIntervalSeconds: config.JOBS_POLL_INTERVAL_SECONDS,
    cronCheckSeconds: config.JOBS_CRON_CHECK_SECONDS,
    maintenanceSeconds: config.JOBS_MAINTENANCE_SECONDS,
    retentionDays: config.HISTORY_RETENTION_DAYS,
    work,
  };
}
