import type { Histogram } from 'prom-client';

/** Why a call to a store waited: for room in the store's bucket, or for the bucket to drain after a 429. */
export type BucketWaitReason = 'bucket' | '429';

let waits: Histogram<'reason'> | undefined;

/**
 * How long each call to a Nuvemshop store waited for its turn in the store's bucket (platforms/nuvemshop-bucket.ts),
 * in seconds: one observation per request sent, a 429's retry included, so its count is the calls sent and its sum
 * the time they waited. One per process, as the buckets are, made by the first gateway that serves /metrics
 * (gateway-metrics.ts); every gateway's registry shows it. Without one, nothing is observed, and prom-client is not
 * loaded at all.
 */
export function nuvemshopBucketWaits(make: () => Histogram<'reason'>): Histogram<'reason'> {
  return (waits ??= make());
}

/** Notes one call's wait, measured from `since` (performance.now()). */
export function observeBucketWait(reason: BucketWaitReason, since: number): void {
  waits?.observe({ reason }, (performance.now() - since) / 1000);
}
