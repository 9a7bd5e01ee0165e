import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { SyncKind } from '../sync/sync-run.resource';
import type { NuvemshopClient } from '../platforms/nuvemshop.client';
import { PlatformError } from '../platforms/platform-call';
import { SyncRunner } from '../sync/sync-runner';
import { repeatedFailure, stepFailureOf } from '../sync/step-failure';
import type { SyncService } from '../sync/sync.service';
import type { JobQueue, QueueDefinition } from '../queue/queue';
import { errorMessage } from '../queue/queue';

export interface SyncJobDeps {
  orm: MikroORM;
  config: Config;
  log: Logger;
  sync: SyncService;
  jobs: JobQueue;
  /** The process's Nuvemshop client: every call to a store, runs' and orders' alike, shares that store's bucket. */
  nuvemshop?: NuvemshopClient;
}

/**
 * What pg-boss retries itself: a step whose process died (its job expired) or whose handler could not say what
 * happened (the database gone). A step's failure, a platform's or its own, is retried by the handler, which says so
 * on the run.
 */
const RETRIES = 5;
/** A run never tries a step again past this long after the first failure of its step. */
export const GIVE_UP_AFTER_MS = 15 * 60_000;

/** The wait before attempt `attempt` (2 onwards): SYNC_RETRY_DELAY_SECONDS, doubling up to twelve times it. */
export const retryDelaySeconds = (config: Pick<Config, 'SYNC_RETRY_DELAY_SECONDS'>, attempt: number) =>
  Math.min(config.SYNC_RETRY_DELAY_SECONDS * 2 ** (attempt - 2), config.SYNC_RETRY_DELAY_SECONDS * 12);

/**
 * The `sync` queue: each job is one bounded step of a run (Hiper's pages for at most SYNC_STEP_SECONDS) and queues the
 * next step itself, so a crash loses at most a step, which the retry repeats without writing anything twice. A lease
 * per client keeps two processes from syncing one client at once; a step that finds its client held waits a few
 * seconds and tries again.
 */
export function syncQueue({ orm, config, log, jobs, nuvemshop }: SyncJobDeps): QueueDefinition<'sync'> {
  const runner = new SyncRunner(orm, config, nuvemshop);
  return {
    name: 'sync',
    // A crashed process's step expires, is failed by pg-boss's maintenance, then retried by another process.
    options: {
      retryLimit: RETRIES,
      retryDelay: config.SYNC_RETRY_DELAY_SECONDS,
      retryBackoff: true,
      expireInSeconds: runner.stepExpirySeconds,
    },
    concurrency: config.SYNC_CONCURRENCY,
    handle: async (job) => {
      const { runId, attempt: _attempt, failingSince: _since, failure: _failure, ...position } = job.data;
      // The lease is this attempt's: a retry of an expired job (its process slow, not dead) waits for it too.
      const holder = randomUUID();
      const lease = await runner.take(runId, holder);
      if (!lease) return { done: true };
      const { clientId } = lease;
      if (!lease.taken) {
        await jobs.send('sync', job.data, { startAfterSeconds: 5 });
        return { busy: true };
      }
      // Held while the step lasts, however long a platform keeps it waiting (a 429's reset).
      const renew = setInterval(
        () => void runner.lease(clientId, holder).catch(() => undefined),
        (runner.leaseSeconds * 1000) / 3,
      );
      try {
        const outcome = await runner.step(runId, position);
        if ('next' in outcome) await jobs.send('sync', { runId, ...outcome.next });
        return 'next' in outcome ? { next: outcome.next } : { done: true };
      } catch (error) {
        log.warn({ run: runId, err: { message: errorMessage(error) } }, 'sync step failed');
        // A refusal will not change on a retry: the run ends now, saying why.
        if (error instanceof PlatformError && !error.retryable) {
          await runner.abandon(runId, error);
          return { failed: error.code };
        }
        // A failure of the step's own: the same one twice in a row will not pass by waiting.
        const own = error instanceof PlatformError ? null : stepFailureOf(error);
        if (own?.sameness && own.sameness === job.data.failure) {
          log.warn({ run: runId, attempts: job.data.attempt ?? 1 }, 'sync run ended: the same failure again');
          await runner.abandon(runId, error, repeatedFailure(own.said));
          return { failed: 'internal_repeated' };
        }
        const code = error instanceof PlatformError ? error.code : 'internal';
        const attempt = (job.data.attempt ?? 1) + 1;
        const failingSince = job.data.failingSince ?? new Date().toISOString();
        const delay = retryDelaySeconds(config, attempt);
        const retryAt = new Date(Date.now() + delay * 1000);
        if (
          attempt > config.SYNC_RETRY_ATTEMPTS ||
          retryAt.getTime() - Date.parse(failingSince) > GIVE_UP_AFTER_MS - config.HIPER_TIMEOUT_MS
        ) {
          log.warn({ run: runId, attempts: attempt - 1, code }, 'sync run given up');
          await runner.abandon(runId, error);
          return { failed: code, attempts: attempt - 1 };
        }
        await runner.waitToRetry(runId, {
          code,
          message: own ? own.said : errorMessage(error),
          attempt,
          attempts: config.SYNC_RETRY_ATTEMPTS,
          retry_at: retryAt.toISOString(),
        });
        const failure = own?.sameness ?? undefined;
        await jobs.send('sync', { runId, ...position, attempt, failingSince, failure }, { startAfterSeconds: delay });
        return { retry: attempt, at: retryAt.toISOString() };
      } finally {
        clearInterval(renew);
        await runner.release(clientId, holder);
      }
    },
  };
}

/**
 * The synchronisation's schedules: the catalogue hourly (SYNC_CATALOGUE_CRON), stock and prices every ten minutes
 * (SYNC_STOCK_INTERVAL_SECONDS) and a full read nightly (SYNC_FULL_READ_CRON); each queues a run of its kind for every
 * connected client.
 */
export function syncScheduleQueues({ config, sync, log }: SyncJobDeps): QueueDefinition[] {
  const schedule = (
    name: 'sync-catalogue-schedule' | 'sync-stock-schedule' | 'sync-full-schedule' | 'reconcile',
    kind: SyncKind,
    when: { schedule?: string; everySeconds?: number },
  ): QueueDefinition =>
    ({
      name,
      options: { retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 },
      concurrency: 1,
      ...when,
      handle: async () => {
        const queued = await sync.queueConnected(kind);
        log.info({ kind, queued }, 'sync runs queued');
        return { queued };
      },
    }) as QueueDefinition;
  return [
    schedule('sync-catalogue-schedule', 'catalogue', { schedule: config.SYNC_CATALOGUE_CRON }),
    schedule('sync-stock-schedule', 'stock', { everySeconds: config.SYNC_STOCK_INTERVAL_SECONDS }),
    schedule('sync-full-schedule', 'full', { schedule: config.SYNC_FULL_READ_CRON }),
    // The nightly reconciliation: a run of kind `reconcile` per connected client, each client's runs one at a time.
    schedule('reconcile', 'reconcile', { schedule: config.RECONCILE_CRON }),
  ];
}
