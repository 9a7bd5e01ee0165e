import type { MailJobDeps } from './mail.job';
import { mailQueue } from './mail.job';
import { pruneQueue } from './prune.job';
import type { QueueDefinition } from '../queue/queue';
import { syncQueue, syncScheduleQueues, type SyncJobDeps } from './sync.job';
import { storeInstallQueue, suspendedCheckQueue, webhookQueue, type StoreLifeDeps } from './webhook.job';
import { orderQueues, type OrderJobDeps } from './order.job';
import { clientArchivedQueue, type ClientJobDeps } from './client.job';
import { locationsReadQueue, type LocationJobDeps } from './location.job';
import { alertWebhookQueue, clientHealthQueue, healthDigestQueue, type HealthJobDeps } from './health.job';

/**
 * Every queue of the product, each with its retries, concurrency, schedule and handler: the gateway (unless
 * RUN_WORKERS=false) and `npm run worker` start workers for all of them. A new kind of background work (store
 * synchronisation, say) adds its payload to gateway/queue/payloads.ts and its definition here.
 */
export function queueDefinitions(
  deps: MailJobDeps & SyncJobDeps & StoreLifeDeps & OrderJobDeps & ClientJobDeps & LocationJobDeps & HealthJobDeps,
): QueueDefinition[] {
  return [
    mailQueue(deps),
    pruneQueue(deps),
    syncQueue(deps),
    ...syncScheduleQueues(deps),
    webhookQueue(deps),
    storeInstallQueue(deps),
    suspendedCheckQueue(deps),
    ...orderQueues(deps),
    clientArchivedQueue(deps),
    locationsReadQueue(deps),
    clientHealthQueue(deps),
    healthDigestQueue(deps),
    alertWebhookQueue(deps),
  ] as QueueDefinition[];
}
