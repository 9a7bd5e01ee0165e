import type { Config } from '../config';
import type { OrderSweep } from '../orders/order-intake';
import type { OrderSender } from '../orders/order-sender';
import type { OrderWatch } from '../orders/order-watch';
import type { OrderStatus } from '../orders/order-status';
import { PlatformError } from '../platforms/platform-call';
import type { Job, QueueDefinition } from '../queue/queue';

export interface OrderJobDeps {
  config: Config;
  orderSender: OrderSender;
  orderSweep: OrderSweep;
  orderStatus: OrderStatus;
  orderWatch: OrderWatch;
}

/** A failure the same call will meet again (a refusal, a dead token) ends the job; the rest are retried. */
async function unlessFinal<T>(work: () => Promise<T>): Promise<T | { stopped: string }> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PlatformError && !error.retryable) return { stopped: error.message };
    throw error;
  }
}

/** One order's job: a final failure, or the last attempt's, holds the order for a person instead of stranding it. */
async function orderJob(job: Job<'order'>, sender: OrderSender, watch: OrderWatch): Promise<Record<string, unknown>> {
  const { orderId } = job.data;
  try {
    return await sender.process(orderId, { fair: true });
  } catch (error) {
    const final = error instanceof PlatformError && !error.retryable;
    if (!final && job.retryCount < job.retryLimit) throw error;
    // Unsaved (the database is down too), the failure stands and the watch finds the order later.
    if (!(await watch.giveUp(orderId, error)) && !final) throw error;
    return { held: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The order queues: `order` (one queued per order; the row's state, claimed in one statement, keeps a second job of
 * the same order from sending it again), a client's order webhooks when its orders are turned on, the sweeps and
 * their schedule, and the watch that saves Hiper's answers kept through a database outage, settles orders a dead
 * process left `sending` and queues again payable orders left `received` with no job.
 *
 * `order` is `short`, not `stately`: under `stately` a job queued while its order's job runs cannot be fetched, and
 * pg-boss's fetch then answers no job at all to every worker, so one order's running job (or a dead process's,
 * until it expires) held up every other order.
 *
 * An order's job that runs out of attempts, or meets a refusal it cannot get past, holds its order for a person with
 * the reason, rather than leaving it `received` for good.
 */
export function orderQueues({
  config,
  orderSender,
  orderSweep,
  orderStatus,
  orderWatch,
}: OrderJobDeps): QueueDefinition[] {
  const answerSeconds = Math.ceil(Math.max(config.HIPER_TIMEOUT_MS, config.NUVEMSHOP_TIMEOUT_MS) / 1000);
  const queues: QueueDefinition[] = [
    {
      name: 'order',
      options: {
        retryLimit: config.ORDERS_RETRY_LIMIT,
        retryDelay: config.ORDERS_RETRY_DELAY_SECONDS,
        retryBackoff: true,
        expireInSeconds: answerSeconds * 4 + 60,
        policy: 'short',
      },
      concurrency: config.ORDERS_CONCURRENCY,
      handle: (job) => orderJob(job, orderSender, orderWatch),
    } satisfies QueueDefinition<'order'>,
    {
      name: 'orders-sweep',
      options: { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 900, policy: 'stately' },
      concurrency: 2,
      handle: async (job) => (await unlessFinal(() => orderSweep.sweep(job.data.clientId))) as Record<string, unknown>,
    } satisfies QueueDefinition<'orders-sweep'>,
    {
      name: 'orders-webhooks',
      options: { retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 300, policy: 'stately' },
      concurrency: 1,
      handle: async (job) =>
        (await unlessFinal(() => orderSweep.registerWebhooks(job.data.clientId))) as Record<string, unknown>,
    } satisfies QueueDefinition<'orders-webhooks'>,
    {
      name: 'orders-sweep-schedule',
      options: { retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 },
      concurrency: 1,
      everySeconds: config.ORDERS_SWEEP_INTERVAL_SECONDS,
      handle: () => orderSweep.queueAll(),
    } satisfies QueueDefinition<'orders-sweep-schedule'>,
    {
      name: 'orders-watch',
      options: { retryLimit: 1, retryDelay: 10, retryBackoff: false, expireInSeconds: 60 },
      concurrency: 1,
      everySeconds: 30,
      handle: () => orderWatch.watch(),
    } satisfies QueueDefinition<'orders-watch'>,
    {
      name: 'orders-status',
      options: { retryLimit: 1, retryDelay: 30, retryBackoff: false, expireInSeconds: 1800 },
      concurrency: 1,
      everySeconds: config.ORDERS_STATUS_INTERVAL_SECONDS,
      handle: () => orderStatus.poll(),
    } satisfies QueueDefinition<'orders-status'>,
  ] as QueueDefinition[];
  return queues;
}
