import type { LocationReader } from '../locations/location-reader';
import type { QueueDefinition } from '../queue/queue';

export interface LocationJobDeps {
  locationReader: LocationReader;
}

/**
 * The `locations-read` queue: a client's store locations read into its rows ("Ler estoques da loja", a location
 * webhook). Tried again with backoff while Nuvemshop cannot be reached, for some 15 seconds (staff are waiting on the
 * screen), its last attempt keeping why on the client; one queued per client and trigger at a time (a queued read
 * covers whatever came before it ran).
 */
export function locationsReadQueue({ locationReader }: LocationJobDeps): QueueDefinition<'locations-read'> {
  return {
    name: 'locations-read',
    options: { retryLimit: 3, retryDelay: 2, retryBackoff: true, expireInSeconds: 120, policy: 'short' },
    concurrency: 2,
    handle: (job) =>
      locationReader.read(job.data.clientId, {
        trigger: job.data.trigger,
        lastAttempt: job.retryCount >= job.retryLimit,
      }),
  };
}
