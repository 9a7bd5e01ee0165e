import type { ChildProcess } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { orderSuite, workerEnv } from '../support/orders';
import { spawnWorker } from '../support/process';
import { clientWithTwoLocations, rowsOf, salesOrdersOf, twoShipmentOrder } from '../support/shipments';
import type { ReceivedHiperRequest } from '../support/standins/hiper';
import type { ReceivedRequest, StoreOrder } from '../support/standins/nuvemshop-api';

/**
 * Exactly once into each Hiper when every worker process dies at any step of a two-shipment order: the order read,
 * its fulfillment orders read (the split into a row per shipment just before or after), the warehouse's catalogue
 * read, either shipment's POST as it arrives (never applied) or once Hiper made it (its answer lost). No shipment is
 * ever twice in its Hiper, none is lost: each ends sent, or uncertain for a person when it may have reached Hiper.
 */
const suite = orderSuite({ env: { RUN_WORKERS: 'false' }, bucket: { size: 400, drainPerSecond: 400 } });
const spawned: ChildProcess[] = [];
let alive: ChildProcess[] = [];
const logs: string[] = [];
let generation = 0;

async function start(name: string) {
  const worker = await spawnWorker(workerEnv(suite, name));
  spawned.push(worker.child);
  alive.push(worker.child);
  worker.child.stdout!.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (/"level":[4-6]0/.test(line)) logs.push(`${name} ${line}`);
  });
}

/** Every worker killed at once (SIGKILL: nothing of theirs runs on), then two new ones started, as a supervisor would. */
async function killAll() {
  const dying = alive;
  alive = [];
  await Promise.all(
    dying.map((child) => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      return exited;
    }),
  );
  // Their connections close with them: a request not yet applied never will be.
  await new Promise((resolve) => setTimeout(resolve, 50));
  void Promise.all([start(`A${++generation}`), start(`B${generation}`)]);
}

beforeAll(async () => {
  await Promise.all([start('A'), start('B')]);
}, 90_000);
afterEach((context) => {
  if (context.task.result?.state === 'fail') console.log(logs.slice(-30).join('\n'));
  logs.length = 0;
});
afterAll(() => {
  suite.hiper?.intercept(null);
  suite.nuvemshop?.intercept(null);
  for (const child of spawned) child.kill('SIGKILL');
});

/** The steps of a two-shipment order's way into the two Hiper accounts, as the requests that make them. */
const STEPS = ['order read', 'shipments read', 'warehouse catalogue read', 'shop POST', 'warehouse POST'] as const;
type Step = (typeof STEPS)[number];

/** The Hiper key a request's bearer token was minted from (the stand-in's token names it). */
function keyOf(request: ReceivedHiperRequest): string | undefined {
  const token = /^Bearer\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
  if (!token) return undefined;
  const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, string>;
  return claims['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/hash'];
}

describe('every worker killed at any step of a two-shipment order', () => {
  it('never puts a shipment twice in its Hiper, and loses none', async () => {
    const ORDERS = 2;
    const kills: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.record({
            step: fc.constantFrom(...STEPS),
            nth: fc.integer({ min: 1, max: ORDERS }),
            applied: fc.boolean(),
          }),
          { minLength: 1, maxLength: 3, selector: (k) => `${k.step} ${k.nth}` },
        ),
        async (points) => {
          const c = await clientWithTwoLocations(suite);
          const orders: StoreOrder[] = Array.from({ length: ORDERS }, () => twoShipmentOrder(c));
          const seen = new Map<Step, number>();
          const left = [...points];
          const at = async (step: Step, phase: 'received' | 'served') => {
            if (phase === 'received') seen.set(step, (seen.get(step) ?? 0) + 1);
            const i = left.findIndex(
              (p) => p.step === step && p.nth === seen.get(step) && p.applied === (phase === 'served'),
            );
            if (i < 0) return;
            const [point] = left.splice(i, 1);
            kills.push(`${point.step}#${point.nth}${point.applied ? '+' : '-'}`);
            await killAll();
          };
          suite.nuvemshop.intercept(async (request: ReceivedRequest, phase) => {
            if (request.store !== c.storeId) return;
            if (request.route === 'GET /orders/{id}') await at('order read', phase);
            // The shipments come embedded in the order's read (aggregates), or read apart.
            if (
              request.route === 'GET /orders/{id}/fulfillment-orders' ||
              (request.route === 'GET /orders/{id}' &&
                /(^|,)fulfillment_orders(,|$)/.test(request.query.aggregates ?? ''))
            )
              await at('shipments read', phase);
          });
          suite.hiper.intercept(async (request, phase) => {
            const key = keyOf(request);
            if (request.path === '/produtos/pontoDeSincronizacao' && key === c.warehouse.key) {
              await at('warehouse catalogue read', phase);
            }
            if (request.method === 'POST' && /^\/pedido-de-venda\/?$/.test(request.path)) {
              await at(key === c.warehouse.key ? 'warehouse POST' : 'shop POST', phase);
            }
          });
          try {
            for (const order of orders) expect(await suite.tools.webhook(c.storeId, 'order/paid', order.id)).toBe(200);
            // A killed worker's job expires and runs again; a row it left sending becomes uncertain.
            for (const order of orders) await settledShipments(c.id, order, ['sent', 'uncertain'], 420_000);
          } finally {
            suite.hiper.intercept(null);
            suite.nuvemshop.intercept(null);
          }
          await sweptOnce(c.id);
          // Two rows per order, one per shipment; each sent (exactly one sales order in its account, its id kept) or
          // uncertain (at most one there).
          const uncertain: { id: string; made: { id: string }[] }[] = [];
          for (const order of orders) {
            const rows = await rowsOf(suite, c.id, order);
            expect(rows.map((r) => r.location_id)).toEqual([c.shopRow, c.farRow]);
            for (const [k, row] of rows.entries()) {
              const account = k === 0 ? c.account : c.warehouse;
              const made = salesOrdersOf(account, order).filter(
                (o) => o.body.numeroPedidoDeVenda === `${order.number}-${k + 1}`,
              );
              expect(salesOrdersOf(account, order)).toHaveLength(made.length);
              if (row.state === 'sent') {
                expect(made).toHaveLength(1);
                expect(row.hiper_order_id).toBe(made[0].id);
              } else {
                expect(row.state).toBe('uncertain');
                expect(made.length).toBeLessThanOrEqual(1);
                uncertain.push({ id: row.id, made });
              }
            }
          }
          // A person settles each uncertain one: "Já está no Hiper" where its Hiper has it, "Reenviar" where not.
          for (const { id, made } of uncertain) {
            const answer =
              made.length === 1
                ? await suite.t.request('POST', `/api/v1/orders/${id}/mark-sent`, {
                    token: suite.su,
                    json: { hiper_order_id: made[0].id },
                  })
                : await suite.t.request('POST', `/api/v1/orders/${id}/resend`, { token: suite.su });
            expect(answer.status).toBe(made.length === 1 ? 200 : 202);
          }
          for (const order of orders) {
            await settledShipments(c.id, order, ['sent'], 120_000);
            expect(salesOrdersOf(c.account, order)).toHaveLength(1);
            expect(salesOrdersOf(c.warehouse, order)).toHaveLength(1);
          }
          expect(c.account.orders).toHaveLength(ORDERS);
          expect(c.warehouse.orders).toHaveLength(ORDERS);
        },
      ),
      {
        endOnFailure: true,
        numRuns: 3,
        // Between them, every step: before and after the split, before and after each account's POST.
        examples: [
          [
            [
              { step: 'shipments read', nth: 1, applied: true },
              { step: 'warehouse POST', nth: 1, applied: true },
              { step: 'shop POST', nth: 2, applied: false },
            ],
          ],
          [
            [
              { step: 'order read', nth: 1, applied: false },
              { step: 'warehouse catalogue read', nth: 1, applied: true },
              { step: 'shop POST', nth: 1, applied: true },
            ],
          ],
        ],
      },
    );
    expect(kills.length).toBeGreaterThanOrEqual(4);
    // The killed workers' jobs expire and run again: none sends its shipment a second time.
    await suite.tools.settled(150_000);
  }, 1_500_000);
});

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

/** Waits until the order has its two rows, each in one of `states`. */
async function settledShipments(clientId: string, order: StoreOrder, states: string[], timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await rowsOf(suite, clientId, order);
    if (rows.length === 2 && rows.every((r) => states.includes(r.state))) return rows;
    if (Date.now() > until) throw new Error(`order ${order.id}: ${rows.map((r) => r.state).join(', ')}, not ${states}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
