import { afterAll, beforeAll, expect } from 'vitest';
import { startTestGateway, type TestGateway } from './gateway';
import { startHiper, type HiperStandIn } from './standins/hiper';
import {
  deliverWebhook,
  startNuvemshopApi,
  type BucketSettings,
  type NuvemshopApiStandIn,
  type OrderSeed,
  type StoreOrder,
} from './standins/nuvemshop-api';
import { syncEnv, syncTools } from './sync';

export const APP_SECRET = 'orders-app-secret';

/** A gateway's settings for the order tests: the stand-ins, signed webhooks, and a Hiper that gives up in 1.5 s. */
export const ordersEnv = (hiper: HiperStandIn, nuvemshop: NuvemshopApiStandIn): Record<string, string> => ({
  ...syncEnv(hiper, nuvemshop),
  NUVEMSHOP_CLIENT_SECRET: APP_SECRET,
  HIPER_TIMEOUT_MS: '1500',
  // Sweeps are asked for by the tests.
  ORDERS_SWEEP_INTERVAL_SECONDS: '86400',
  ORDERS_STATUS_INTERVAL_SECONDS: '86400',
});

/** What the order tests do against one gateway and the two stand-ins. */
export function orderTools(t: TestGateway, su: string, hiper: HiperStandIn, nuvemshop: NuvemshopApiStandIn) {
  const sync = syncTools(t, su, hiper, nuvemshop);

  /**
   * A client with orders on, its Hiper catalogue (a simple product and a grade of two) synced into its store, so every
   * store variant is linked.
   */
  async function clientWithCatalogue(flags: Record<string, unknown> = {}) {
    const c = await sync.connectedClient({ orders_enabled: true, ...flags });
    const simple = c.account.add({ nome: 'Camiseta', preco: 50, quantidadeEmEstoque: 10 });
    const grade = c.account.add({
      nome: 'Tênis',
      preco: 200,
      variacao: [
        { nomeVariacaoA: 'Azul', tipoVariacaoA: 'Cor', quantidadeEmEstoque: 3 },
        { nomeVariacaoA: 'Preto', tipoVariacaoA: 'Cor', quantidadeEmEstoque: 4 },
      ],
    });
    const run = await sync.syncNow(c.id);
    expect(run.state).toBe('succeeded');
    const variant = (sku: number) => c.store.variants.find((v) => v.sku === String(sku))!;
    return {
      ...c,
      shirt: { hiper: simple, variant: variant(simple.codigo) },
      blue: { hiper: grade.variacao![0], variant: variant(grade.variacao![0].codigo) },
      black: { hiper: grade.variacao![1], variant: variant(grade.variacao![1].codigo) },
    };
  }

  /** Nuvemshop posts an order event for the store, signed; answers the status. */
  const webhook = (storeId: number, event: string, orderId: number) =>
    deliverWebhook(`${t.url}/api/v1/webhooks/nuvemshop`, { store_id: storeId, event, id: orderId }, APP_SECRET);

  /** The order's row as the API answers it, or undefined before it exists. */
  async function orderOf(clientId: string, nuvemshopOrderId: number) {
    const list = await t.request('GET', `/api/v1/orders/?client_id=${clientId}&limit=1000`, { token: su });
    expect(list.status).toBe(200);
    return (list.body.data as any[]).find((o) => o.nuvemshop_order_id === nuvemshopOrderId);
  }

  /** Waits until the order is in one of `states`; answers it. */
  async function waitForOrder(clientId: string, nuvemshopOrderId: number, states: string[], timeoutMs = 20_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const order = await orderOf(clientId, nuvemshopOrderId);
      if (order && states.includes(order.state)) return order;
      if (Date.now() > until)
        throw new Error(`order ${nuvemshopOrderId} is ${order?.state ?? 'missing'}, not ${states}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Waits until every job of the order queues is done (nothing queued, retried or running). */
  async function settled(timeoutMs = 20_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await t.sql<{ n: number }>(
        `select count(*)::int as n from pgboss.job where name in ('order', 'orders-sweep', 'orders-status') and state in ('created', 'retry', 'active')`,
      );
      if (row.n === 0) return;
      if (Date.now() > until) throw new Error(`${row.n} order jobs still pending`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Asks for a sweep of the client now and waits until it and the orders it queued are done. */
  async function sweepNow(clientId: string) {
    const asked = await t.request('POST', `/api/v1/clients/${clientId}/orders/sweep`, { token: su });
    expect(asked.status).toBe(202);
    await settled();
  }

  /** Reads Hiper's events of every order sent and not finished, now, and waits until that is done. */
  async function pollStatus() {
    await t.gateway.services.jobs.send('orders-status', {});
    await settled();
  }

  const seed = (store: { seedOrder(seed: OrderSeed): StoreOrder }, seedOrder: OrderSeed) => store.seedOrder(seedOrder);

  return { ...sync, clientWithCatalogue, webhook, orderOf, waitForOrder, settled, sweepNow, pollStatus, seed };
}

/** What an order test file works with: the two stand-ins, a gateway on them, the superuser's token and the tools. */
export interface OrderSuite {
  hiper: HiperStandIn;
  nuvemshop: NuvemshopApiStandIn;
  t: TestGateway;
  su: string;
  tools: ReturnType<typeof orderTools>;
}

/**
 * Starts, for the calling test file, the stand-ins and a gateway on them (`ordersEnv`, plus `env`), and closes them
 * after its last test. The fields are set once the file's `beforeAll` has run: read them inside tests and hooks.
 */
export function orderSuite(options: { env?: Record<string, string>; bucket?: BucketSettings } = {}): OrderSuite {
  const suite = {} as OrderSuite;
  beforeAll(async () => {
    [suite.hiper, suite.nuvemshop] = await Promise.all([
      startHiper(),
      startNuvemshopApi({ bucket: options.bucket ?? { size: 40, drainPerSecond: 40 } }),
    ]);
    suite.t = await startTestGateway({ ...ordersEnv(suite.hiper, suite.nuvemshop), ...options.env });
    suite.su = await suite.t.superuserToken();
    suite.tools = orderTools(suite.t, suite.su, suite.hiper, suite.nuvemshop);
  }, 60_000);
  afterAll(async () => {
    await suite.t?.close();
    await Promise.all([suite.hiper?.close(), suite.nuvemshop?.close()]);
  });
  return suite;
}

/** A worker's environment beside a suite's gateway: its database and keys, the stand-ins; its User-Agent names it. */
export const workerEnv = (suite: OrderSuite, name: string): Record<string, string> => ({
  NODE_ENV: 'test',
  DATABASE_URL: suite.t.databaseUrl,
  SECRET_KEY: suite.t.config.SECRET_KEY,
  TOKEN_ENCRYPTION_KEY: suite.t.config.TOKEN_ENCRYPTION_KEY,
  PUBLIC_URL: suite.t.config.PUBLIC_URL,
  ...ordersEnv(suite.hiper, suite.nuvemshop),
  NUVEMSHOP_TIMEOUT_MS: '1500',
  NUVEMSHOP_USER_AGENT: `Integracao ${name} (tests@example.com)`,
  JOBS_MAINTENANCE_SECONDS: '1',
  JOBS_POLL_INTERVAL_SECONDS: '0.5',
});
