import type { Config } from '../config';
import type { StoreLife } from '../webhooks/store-life';
import type { QueueDefinition } from '../queue/queue';

export interface StoreLifeDeps {
  storeLife: StoreLife;
}

// Nuvemshop unreachable or a row held by a synchronisation: tried again shortly, then less and less often.
const RETRIES = { retryLimit: 8, retryDelay: 5, retryBackoff: true } as const;

/** The `webhook` queue: acts on each recorded webhook once (the request that brought it only recorded it). */
export function webhookQueue({ storeLife }: StoreLifeDeps): QueueDefinition<'webhook'> {
  return {
    name: 'webhook',
    options: { ...RETRIES, expireInSeconds: 120 },
    concurrency: 2,
    handle: async (job) => (await storeLife.handle(job.data.id)) ?? { skipped: 'already handled' },
  };
}

/** The `store-install` queue: after an install, reads the store's record and registers the app's webhooks. */
export function storeInstallQueue({ storeLife }: StoreLifeDeps): QueueDefinition<'store-install'> {
  return {
    name: 'store-install',
    options: { ...RETRIES, expireInSeconds: 120 },
    concurrency: 1,
    handle: (job) => storeLife.installed(job.data.storeId),
  };
}

/** The `sync-suspended-check` queue: every SYNC_SUSPENDED_CHECK_MINUTES, each suspended store is asked `GET /store`. */
export function suspendedCheckQueue({
  storeLife,
  config,
}: StoreLifeDeps & { config: Pick<Config, 'SYNC_SUSPENDED_CHECK_MINUTES'> }): QueueDefinition<'sync-suspended-check'> {
  return {
    name: 'sync-suspended-check',
    options: { retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 600 },
    concurrency: 1,
    everySeconds: config.SYNC_SUSPENDED_CHECK_MINUTES * 60,
    handle: () => storeLife.checkSuspended(),
  };
}
