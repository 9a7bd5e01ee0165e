import type { Config } from '../config';
import { postAlert } from '../health/alert-webhook';
import type { HealthAlerts } from '../health/health-alerts';
import type { HealthCheck } from '../health/health-check';
import type { QueueDefinition } from '../queue/queue';

export interface HealthJobDeps {
  config: Config;
  healthCheck: HealthCheck;
  healthAlerts: HealthAlerts;
}

/**
 * The `client-health` queue, sent on HEALTH_CRON: every client's health worked out again (the Saúde screen), then the
 * alerts and recoveries it calls for queued. One at a time; a check missed is simply the next one's, so it is tried
 * again once, soon.
 */
export function clientHealthQueue({ healthCheck, healthAlerts }: HealthJobDeps): QueueDefinition<'client-health'> {
  return {
    name: 'client-health',
    options: { retryLimit: 1, retryDelay: 5, retryBackoff: false, expireInSeconds: 120, policy: 'short' },
    concurrency: 1,
    schedule: healthCheck.schedule,
    handle: async () => ({ ...(await healthCheck.refresh()), ...(await healthAlerts.afterCheck()) }),
  };
}

/** The `health-digest` queue, sent on ALERT_DIGEST_CRON: the day's digest of every client not "Em dia". */
export function healthDigestQueue({ config, healthAlerts }: HealthJobDeps): QueueDefinition<'health-digest'> {
  return {
    name: 'health-digest',
    options: { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 300, policy: 'short' },
    concurrency: 1,
    schedule: config.ALERT_DIGEST_CRON,
    handle: async () => ({ ...(await healthAlerts.digest()) }),
  };
}

/** The `alert-webhook` queue: each alert, recovery or digest posted to ALERT_WEBHOOK_URL, retried for about an hour. */
export function alertWebhookQueue({ config, healthAlerts }: HealthJobDeps): QueueDefinition<'alert-webhook'> {
  return {
    name: 'alert-webhook',
    options: { retryLimit: 8, retryDelay: 15, retryBackoff: true, expireInSeconds: 60 },
    concurrency: 2,
    handle: async (job) => ({ ...(await postAlert(config, healthAlerts, job.data)) }),
  };
}
