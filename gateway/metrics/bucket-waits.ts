import { Histogram } from 'prom-client';

/** Why a call to a store waited: for room in the store's bucket, or for the bucket to drain after a 429. */
export type BucketWaitReason = 'bucket' | '429';

/**
 * How long each call to a Nuvemshop store waited for its turn in the store's bucket (platforms/nuvemshop-bucket.ts),
 * in seconds: one observation per request sent, a 429's retry included, so its count is the calls sent and its sum
 * the time they waited. One per process, as the buckets are; every gateway's registry (gateway-metrics.ts) shows it.
 */
export const nuvemshopBucketWaits = new Histogram({
  name: 'nuvemshop_bucket_wait_seconds',
  help: "Seconds a call to a Nuvemshop store waited for its store's request bucket: for room (bucket) or after a 429",
  labelNames: ['reason'] as const,
  buckets: [0.005, 0.05, 0.25, 1, 2.5, 5, 10, 30, 60],
  registers: [],
});

/** Notes one call's wait, measured from `since` (performance.now()). */
export function observeBucketWait(reason: BucketWaitReason, since: number): void {
  nuvemshopBucketWaits.observe({ reason }, (performance.now() - since) / 1000);
}
