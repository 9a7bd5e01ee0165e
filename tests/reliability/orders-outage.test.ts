import { steadyPort } from '../support/net';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../gateway/database/embedded-postgres';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { ordersEnv, orderTools } from '../support/orders';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { recordFigures } from './support/figures';

/**
 * PostgreSQL goes away for 20 seconds while thirty paid orders are on their way into Hiper: every answer Hiper gives
 * in that time (its id, the only proof it holds the order) is kept until the database takes it, so each order ends
 * `sent` with its id, none `uncertain`, none twice in Hiper.
 */
const ORDERS = 30;
const OUTAGE_MS = 20_000;
const log = pino({ level: 'silent' });
let dir: string;
let port: number;
let postgres: EmbeddedDatabase | undefined;
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'integracao-orders-outage-'));
  chmodSync(dir, 0o755);
  port = await steadyPort();
  postgres = await startEmbeddedPostgres(path.join(dir, 'data'), port, log);
  [hiper, nuvemshop] = await Promise.all([
    startHiper(),
    startNuvemshopApi({ bucket: { size: 400, drainPerSecond: 400 } }),
  ]);
  t = await startTestGateway({
    ...ordersEnv(hiper, nuvemshop),
    DATABASE_URL: postgres.url,
    ORDERS_ANSWERS_DIR: path.join(dir, 'answers'),
    ORDERS_CONCURRENCY: '10',
    ORDERS_PER_CLIENT_CONCURRENCY: '10',
    JOBS_MAINTENANCE_SECONDS: '1',
    // Hiper holds the first sales orders until every webhook is answered, which on a busy machine can take longer
    // than Hiper's usual timeout: a late answer is rightly uncertain, and this test is about the database's outage.
    HIPER_TIMEOUT_MS: '120000',
  });
}, 120_000);

afterAll(async () => {
  hiper?.intercept(null);
  await t?.close();
  await Promise.all([hiper?.close(), nuvemshop?.close()]);
  await postgres?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a database outage while orders are sent', () => {
  it('leaves every order Hiper answered with its id sent, none uncertain, none twice', async () => {
    const su = await t.superuserToken();
    const tools = orderTools(t, su, hiper, nuvemshop);
    const c = await tools.clientWithCatalogue();
    const orders = Array.from({ length: ORDERS }, () => c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] }));

    let outage: Promise<void> | undefined;
    let answeredDuringOutage = 0;
    let down = false;
    // Hiper takes nothing until every order's webhook has been answered: the outage is the sends', not the intake's.
    let arm!: () => void;
    const armed = new Promise<void>((resolve) => (arm = resolve));
    hiper.intercept(async (request, phase) => {
      if (request.method !== 'POST' || !/^\/pedido-de-venda\/?$/.test(request.path) || phase !== 'served') return;
      await armed;
      if (down) answeredDuringOutage++;
      if (outage) return;
      // The database goes away as Hiper takes the first sales order, and comes back 20 s later.
      down = true;
      outage = (async () => {
        await postgres!.stop();
        await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
        postgres = await startEmbeddedPostgres(path.join(dir, 'data'), port, log);
        down = false;
      })();
      // Hiper answers once the database is gone.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    });
    for (const order of orders) expect(await tools.webhook(c.storeId, 'order/paid', order.id)).toBe(200);
    arm();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(outage).toBeDefined();
    await outage;

    const until = Date.now() + 120_000;
    let rows: { state: string; hiper_order_id: string | null; nuvemshop_order_id: number }[];
    for (;;) {
      rows = await t.sql(`select state, hiper_order_id, nuvemshop_order_id from orders where client_id = $1`, [c.id]);
      if (rows.length === ORDERS && rows.every((r) => r.state === 'sent')) break;
      if (rows.some((r) => r.state === 'uncertain') || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const sent = rows.filter((r) => r.state === 'sent').length;
    const uncertain = rows.filter((r) => r.state === 'uncertain').length;
    recordFigures('orders-outage', {
      ordersOutage: `${sent} of ${ORDERS} sent, ${uncertain} uncertain; ${answeredDuringOutage} answered by Hiper with the database down`,
    });
    expect(answeredDuringOutage).toBeGreaterThanOrEqual(1);
    expect(rows.map((r) => r.state)).toEqual(Array(ORDERS).fill('sent'));
    for (const order of orders) {
      const inHiper = c.account.ordersNumbered(order.number);
      expect(inHiper).toHaveLength(1);
      expect(rows.find((r) => Number(r.nuvemshop_order_id) === order.id)!.hiper_order_id).toBe(inHiper[0].id);
    }
  }, 300_000);
});
