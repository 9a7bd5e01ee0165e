import type { QueueDefinition } from '../queue/queue';
import type { StoreUnhook } from '../webhooks/store-unhook';

export interface ClientJobDeps {
  storeUnhook: StoreUnhook;
}

/**
 * The `client-archived` queue: an archived client's store webhooks deleted at Nuvemshop. Retried with backoff while
 * Nuvemshop cannot be reached; one queued per client at a time.
 */
export function clientArchivedQueue({ storeUnhook }: ClientJobDeps): QueueDefinition<'client-archived'> {
  return {
    name: 'client-archived',
    options: { retryLimit: 8, retryDelay: 10, retryBackoff: true, expireInSeconds: 300, policy: 'short' },
    concurrency: 1,
    handle: (job) => storeUnhook.unhook(job.data.clientId),
  };
}
