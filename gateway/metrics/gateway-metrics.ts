import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { nuvemshopBucketWaits } from './bucket-waits';
import { registerTallies, type Sql } from './tallies';

import { ABORTED } from './request-labels';

/**
 * One gateway's metrics, in Prometheus' text format: its own registry (not prom-client's global one, so that gateways
 * started in one process, as tests do, keep theirs apart), with Node's standard process metrics, the requests it
 * answered by route, the Nuvemshop bucket's waits, and the jobs, runs and orders counted at each scrape.
 */
export class GatewayMetrics {
  private readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Seconds from a request reaching the app to its answer written, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    // Up to REQUEST_TIMEOUT_MS's default (30 s), past which a request is answered 503.
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  constructor(sql: Sql, log: Logger) {
    collectDefaultMetrics({ register: this.registry });
    this.registry.registerMetric(
      nuvemshopBucketWaits(
        () =>
          new Histogram({
            name: 'nuvemshop_bucket_wait_seconds',
            help: "Seconds a call to a Nuvemshop store waited for its store's request bucket: for room (bucket) or after a 429",
            labelNames: ['reason'] as const,
            buckets: [0.005, 0.05, 0.25, 1, 2.5, 5, 10, 30, 60],
            registers: [],
          }),
      ),
    );
    registerTallies(this.registry, sql, log);
  }

  /** The answer's Content-Type: Prometheus' text format and its version. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Counts one answered request; `route` is its route's pattern (`/api/v1/clients/:id`), never its address. */
  request(method: string, route: string, status: number | typeof ABORTED, seconds: number): void {
    this.requests.inc({ method, route, status });
    this.durations.observe({ method, route }, seconds);
  }

  /** Every metric, the scrape-time counts read now. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
