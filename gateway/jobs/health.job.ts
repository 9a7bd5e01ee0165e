import type { HealthCheck } from '../health/health-check';
import type { QueueDefinition } from '../queue/queue';

export interface HealthJobDeps {
  healthCheck: HealthCheck;
}

/**
 * The `client-health` queue, sent on HEALTH_CRON: every client's health worked out again (the Saúde screen). One at a
 * time; a check missed is simply the next one's, so it is tried again once, soon.
 */
export function clientHealthQueue({ healthCheck }: HealthJobDeps): QueueDefinition<'client-health'> {
  return {
    name: 'client-health',
    options: { retryLimit: 1, retryDelay: 5, retryBackoff: false, expireInSeconds: 120, policy: 'short' },
    concurrency: 1,
    schedule: healthCheck.schedule,
    handle: async () => ({ ...(await healthCheck.refresh()) }),
  };
}
