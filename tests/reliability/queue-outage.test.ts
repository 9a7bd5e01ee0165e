import { steadyPort } from '../support/net';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../gateway/database/embedded-postgres';
import { JobQueue } from '../../gateway/queue/queue';
import { recordFigures } from './support/figures';

/**
 * A job's attempt fails because PostgreSQL went away, so its failure cannot be recorded then (gateway/queue/queue.ts):
 * it is recorded once the database is back, and the job is tried again after its retry delay, not left active until
 * its expiry (ten minutes here; an order's is minutes too, and its order would wait that long in `received`).
 */
const EXPIRY_SECONDS = 600;
const OUTAGE_MS = 4_000;
const log = pino({ level: 'silent' });
let dir: string;
let port: number;
let postgres: EmbeddedDatabase | undefined;
let queue: JobQueue | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'integracao-queue-outage-'));
  chmodSync(dir, 0o755);
  port = await steadyPort();
  postgres = await startEmbeddedPostgres(path.join(dir, 'data'), port, log);
}, 120_000);

afterAll(async () => {
  await queue?.stop(1_000);
  await postgres?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a job whose attempt meets a database outage', () => {
  it('is tried again after its retry delay once the database is back, not at its expiry', async () => {
    const attempts: { at: number; retryCount: number }[] = [];
    let back = 0;
    let outage: Promise<void> | undefined;
    queue = new JobQueue(
      {
        databaseUrl: postgres!.url,
        poolMax: 2,
        pollingIntervalSeconds: 1,
        cronCheckSeconds: 30,
        maintenanceSeconds: 600,
        retentionDays: 1,
        work: true,
      },
      log,
    );
    await queue.start([
      {
        name: 'store-install',
        options: { retryLimit: 3, retryDelay: 1, retryBackoff: false, expireInSeconds: EXPIRY_SECONDS },
        concurrency: 1,
        handle: async (job) => {
          attempts.push({ at: Date.now(), retryCount: job.retryCount });
          if (attempts.length > 1) return { done: true };
          // The database goes away during the first attempt, which then fails with it.
          await postgres!.stop();
          outage = (async () => {
            await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
            postgres = await startEmbeddedPostgres(path.join(dir, 'data'), port, log);
            back = Date.now();
          })();
          throw new Error('the database went away');
        },
      },
    ]);
    await queue.send('store-install', { storeId: 1 });
    const until = Date.now() + 90_000;
    while (attempts.length < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
    await outage;
    expect(attempts.map((a) => a.retryCount)).toEqual([0, 1]);
    const afterBack = attempts[1]!.at - back;
    recordFigures('queue-outage', {
      queueOutage: `second attempt ${(afterBack / 1000).toFixed(1)} s after the database was back (expiry ${EXPIRY_SECONDS} s)`,
    });
    // Within the record's backoff (at most 5 s), the retry delay and a poll, far from the expiry.
    expect(afterBack).toBeLessThan(30_000);
  }, 150_000);
});
