import type { ChildProcess } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { orderSuite, workerEnv } from '../support/orders';
import { spawnWorker } from '../support/process';
import type { HiperAccount, ReceivedHiperRequest } from '../support/standins/hiper';
import type { StoreOrder } from '../support/standins/nuvemshop-api';

/**
 * Exactly once into Hiper when worker processes die: a worker killed (SIGKILL) at any point while sending leaves no
 * order twice in Hiper; what it may have sent waits, `uncertain`, for a person. The gateway only serves; `npm run
 * worker` processes send.
 */
const suite = orderSuite({ env: { RUN_WORKERS: 'false' }, bucket: { size: 400, drainPerSecond: 400 } });
const workers = new Map<string, ChildProcess>();
const spawned: ChildProcess[] = [];
const logs: string[] = [];

async function start(name: string) {
  const worker = await spawnWorker(workerEnv(suite, name));
  workers.set(name, worker.child);
  spawned.push(worker.child);
  worker.child.stdout!.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (/"level":[4-6]0/.test(line)) logs.push(`${name} ${line}`);
  });
}

beforeAll(async () => {
  // The gateway only serves: the two worker processes send.
  await Promise.all([start('A'), start('B')]);
}, 90_000);
afterEach((context) => {
  if (context.task.result?.state === 'fail') console.log(logs.slice(-30).join('\n'));
  logs.length = 0;
});
afterAll(() => {
  suite.hiper?.intercept(null);
  for (const child of spawned) child.kill('SIGKILL');
});

/** The store order a sales order was made from, by the observation the mapping writes (`Nuvemshop #n (id i)`). */
const storeOrderOf = (request: ReceivedHiperRequest) => /\(id (\d+)\)/.exec(request.body ?? '')?.[1];

/** Asks for a sweep of the client and waits until it is done (not the order jobs: a killed worker's wait to expire). */
async function sweptOnce(clientId: string) {
  const asked = await suite.t.request('POST', `/api/v1/clients/${clientId}/orders/sweep`, { token: suite.su });
  expect(asked.status).toBe(202);
  const until = Date.now() + 30_000;
  for (;;) {
    const [{ open }] = await suite.t.sql<{ open: number }>(
      `select count(*)::int as open from pgboss.job where name = 'orders-sweep' and state in ('created', 'retry', 'active')`,
    );
    if (open === 0) return;
    if (Date.now() > until) throw new Error('the sweep never ended');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a worker killed while sending', () => {
  it('at any point (SIGKILL): no order ever twice in Hiper; what may have reached it waits, uncertain, for a person', async () => {
    const ORDERS = 4;
    const kills: string[] = [];
    const runs: { account: HiperAccount; orders: StoreOrder[] }[] = [];
    let generation = 0;
    await fc.assert(
      fc.asyncProperty(
        // Kill points: the n-th sales order Hiper receives, the worker sending it killed as it arrives (never applied)
        // or once Hiper has created it (its answer lost).
        fc.uniqueArray(fc.record({ at: fc.integer({ min: 1, max: ORDERS }), applied: fc.boolean() }), {
          minLength: 1,
          maxLength: 2,
          selector: (k) => k.at,
        }),
        async (points) => {
          const c = await suite.tools.clientWithCatalogue();
          const variants = [c.shirt.variant, c.blue.variant, c.black.variant];
          const orders = Array.from({ length: ORDERS }, (_, i) =>
            c.store.seedOrder({ lines: [{ variant: variants[i % 3], quantity: 1 + (i % 2) }] }),
          );
          let seen = 0;
          suite.hiper.intercept(async (request, phase) => {
            if (request.method !== 'POST' || !/^\/pedido-de-venda\/?$/.test(request.path)) return;
            if (phase === 'received') seen++;
            const at = seen;
            const point = points.find((p) => p.at === at && p.applied === (phase === 'served'));
            if (!point) return;
            // The worker that read this order from the store last is the one sending it.
            const orderId = storeOrderOf(request);
            const read = suite.nuvemshop
              .requestsOf(c.storeId)
              .filter((r) => r.route === 'GET /orders/{id}' && r.path === `/orders/${orderId}`)
              .at(-1)!;
            const name = /Integracao (\S+)/.exec(String(read.headers['user-agent']))![1];
            const worker = workers.get(name)!;
            kills.push(`${name}@${at}${point.applied ? '+' : '-'}`);
            const exited = new Promise((resolve) => worker.once('exit', resolve));
            worker.kill('SIGKILL');
            // Its connection closes with it: a request not yet applied never will be.
            await exited;
            await new Promise((resolve) => setTimeout(resolve, 50));
            // Replaced, as a supervisor would.
            void start(`${name}${++generation}`).then(() => workers.delete(name));
          });
          try {
            for (const order of orders) expect(await suite.tools.webhook(c.storeId, 'order/paid', order.id)).toBe(200);
            // A row a killed worker left sending becomes uncertain within two minutes.
            for (const order of orders) await suite.tools.waitForOrder(c.id, order.id, ['sent', 'uncertain'], 150_000);
          } finally {
            suite.hiper.intercept(null);
          }
          // Every order is sent (exactly one sales order in Hiper, its id saved) or uncertain (at most one), and stays
          // so through a sweep.
          await sweptOnce(c.id);
          const uncertain = [];
          for (const order of orders) {
            const row = await suite.tools.orderOf(c.id, order.id);
            const inHiper = c.account.ordersNumbered(order.number);
            if (row.state === 'sent') {
              expect(inHiper).toHaveLength(1);
              expect(row.hiper_order_id).toBe(inHiper[0].id);
            } else {
              expect(row.state).toBe('uncertain');
              expect(inHiper.length).toBeLessThanOrEqual(1);
              uncertain.push({ row, inHiper });
            }
          }
          expect(uncertain.length).toBeGreaterThanOrEqual(1);
          // A person settles each uncertain one: "Já está no Hiper" where Hiper has it, "Reenviar" where it has not.
          for (const { row, inHiper } of uncertain) {
            const answer =
              inHiper.length === 1
                ? await suite.t.request('POST', `/api/v1/orders/${row.id}/mark-sent`, {
                    token: suite.su,
                    json: { hiper_order_id: inHiper[0].id },
                  })
                : await suite.t.request('POST', `/api/v1/orders/${row.id}/resend`, { token: suite.su });
            expect(answer.status).toBe(inHiper.length === 1 ? 200 : 202);
          }
          for (const order of orders) {
            const row = await suite.tools.waitForOrder(c.id, order.id, ['sent'], 60_000);
            const inHiper = c.account.ordersNumbered(order.number);
            expect(inHiper).toHaveLength(1);
            expect(row.hiper_order_id).toBe(inHiper[0].id);
          }
          expect(c.account.orders).toHaveLength(ORDERS);
          runs.push({ account: c.account, orders });
        },
      ),
      // The first run kills both ways, the second where the generator says.
      {
        endOnFailure: true,
        numRuns: 2,
        examples: [
          [
            [
              { at: 2, applied: true },
              { at: 3, applied: false },
            ],
          ],
        ],
      },
    );
    expect(kills.length).toBeGreaterThanOrEqual(2);
    // The killed workers' jobs expire and are tried again: none sends its order a second time.
    await suite.tools.settled(150_000);
    for (const { account, orders } of runs) {
      for (const order of orders) expect(account.ordersNumbered(order.number)).toHaveLength(1);
    }
  }, 600_000);
});
