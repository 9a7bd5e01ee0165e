import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../gateway/config';
import { GIVE_UP_AFTER_MS, retryDelaySeconds } from '../../gateway/jobs/sync.job';
import { SYNC_ERROR_CODES } from '../../gateway/platforms/platform-call';
import labels from '../../admin/src/labels/sincronizacoes';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { freePort } from '../support/net';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { syncEnv, syncTools } from '../support/sync';

/**
 * Why a run failed, in the API: every error a stable English message and a code; and a platform that cannot be
 * reached said so on the run while a step waits to try again, the run given up in bounded time.
 */
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;
let su: string;
let tools: ReturnType<typeof syncTools>;
/** Where the gateway looks for Hiper: nothing listens there until a test starts a stand-in on it. */
let hiperPort: number;

beforeAll(async () => {
  hiperPort = await freePort();
  [hiper, nuvemshop] = await Promise.all([
    startHiper(),
    startNuvemshopApi({ bucket: { size: 40, drainPerSecond: 40 } }),
  ]);
  t = await startTestGateway({
    ...syncEnv(hiper, nuvemshop),
    SYNC_RETRY_DELAY_SECONDS: '2',
    SYNC_RETRY_ATTEMPTS: '3',
  });
  su = await t.superuserToken();
  tools = syncTools(t, su, hiper, nuvemshop);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([hiper?.close(), nuvemshop?.close()]);
});

describe('a run’s errors', () => {
  it('each carry a stable English message and a code, through REST and GraphQL', async () => {
    const c = await tools.connectedClient();
    c.account.add({ codigo: 501, nome: 'Vaso', imagem: 'https://imagens.example/vaso.svg' });
    c.account.add({ codigo: 502, nome: 'Prato' });
    const run = await tools.syncNow(c.id);
    expect(run).toMatchObject({ state: 'partial', created: 1, failed: 1 });
    expect(run.errors).toEqual([
      {
        hiper_id: c.account.product(501).id,
        sku: '501',
        code: 'nuvemshop_refused',
        message: 'Nuvemshop refused POST /products (HTTP 422): The image must be a .gif, .jpg, .png or .webp file',
        detail: 'The image must be a .gif, .jpg, .png or .webp file',
      },
    ]);
    const graphql = await t.graphql(
      `query ($id: ID!) { SyncRun(id: $id) { state errors waiting } }`,
      { id: run.id },
      su,
    );
    expect(graphql.body.data.SyncRun).toEqual({ state: 'partial', errors: run.errors, waiting: null });
  });

  it.each([
    ['401', 401, 'nuvemshop_token_revoked', 'Nuvemshop refused the store token'],
    ['402', 402, 'nuvemshop_suspended', 'Nuvemshop suspended the store (payment required)'],
    ['403', 403, 'nuvemshop_permission_missing', 'Nuvemshop refused the call: the app lacks a permission'],
  ])('a Nuvemshop %s ends the run failed with its code', async (_name, status, code, message) => {
    const c = await tools.connectedClient();
    c.account.add({ nome: 'Copo' });
    nuvemshop.inject({ store: c.storeId, method: 'POST', path: '/products', status, times: Infinity });
    const run = await tools.syncNow(c.id);
    nuvemshop.clearFaults();
    expect(run).toMatchObject({ state: 'failed', errors: [{ hiper_id: '', sku: null, code, message }] });
  });

  it('a cursor that does not advance ends the run failed with its code', async () => {
    const c = await tools.connectedClient();
    const product = c.account.add({ nome: 'Lápis' });
    hiper.inject({
      path: '/produtos/pontoDeSincronizacao',
      status: 200,
      body: { pontoDeSincronizacao: 0, produtos: [product], errors: [], message: null },
    });
    const run = await tools.syncNow(c.id);
    expect(run).toMatchObject({
      state: 'failed',
      errors: [{ code: 'hiper_cursor_stuck', message: "Hiper's cursor did not advance" }],
    });
  });

  it('a refused Hiper key ends the run at once, failed with its code, and the next scheduled run tries again', async () => {
    const c = await tools.connectedClient();
    c.account.add({ nome: 'Caneca' });
    hiper.refuseKey(c.account.key);
    const before = hiper.tokensIssued();
    const requests = hiper.requests.length;
    const run = await tools.syncNow(c.id);
    expect(run).toMatchObject({
      state: 'failed',
      waiting: null,
      errors: [{ hiper_id: '', sku: null, code: 'hiper_key_refused', message: 'Hiper refused the security key' }],
    });
    // No retry loop: the key was asked for once.
    expect(hiper.requests.length - requests).toBe(1);
    expect(hiper.tokensIssued()).toBe(before);
    expect((await t.request('GET', `/api/v1/clients/${c.id}`, { token: su })).body.sync_state).toBe('failed');

    hiper.addAccount(c.account.key).add({ nome: 'Caneca' });
    // What the catalogue schedule does on its hour.
    await t.gateway.services.sync.queueConnected('catalogue');
    const runs = await t.request('GET', `/api/v1/sync-runs/?client_id=${c.id}`, { token: su });
    const next = await tools.waitForRun(runs.body.data[0].id);
    expect(next).toMatchObject({ trigger: 'schedule', state: 'succeeded', created: 1, errors: [] });
  });
});

describe('a platform that cannot be reached', () => {
  it('the run says it waits to try again, which attempt of how many and when; gives up failed with the reason; the next scheduled run tries again', async () => {
    // This client's Hiper is an address where nothing listens.
    const account = hiper.addAccount();
    const store = nuvemshop.addStore(9100);
    // HIPER_API_URL is the gateway's: this test's own one looks for Hiper where nothing listens.
    const g = await startTestGateway({
      ...syncEnv(hiper, nuvemshop),
      HIPER_API_URL: `http://127.0.0.1:${hiperPort}/api/v1`,
      SYNC_RETRY_DELAY_SECONDS: '2',
      SYNC_RETRY_ATTEMPTS: '3',
    });
    let late: HiperStandIn | undefined;
    try {
      const token = await g.superuserToken();
      const client = await g.request('POST', '/api/v1/clients/', {
        token,
        json: {
          url: 'https://inalcancavel.example.com',
          hiper_token: account.key,
          nuvemshop_token: store.token,
          nuvemshop_store_id: 9100,
        },
      });
      const started = await g.request('POST', `/api/v1/clients/${client.body.id}/sync`, { token, json: {} });
      expect(started.status).toBe(202);
      const read = async () => (await g.request('GET', `/api/v1/sync-runs/${started.body.id}`, { token })).body;
      const waitFor = async (check: (run: any) => boolean) => {
        const until = Date.now() + 30_000;
        for (;;) {
          const run = await read();
          if (check(run)) return run;
          if (Date.now() > until) throw new Error(`run: ${JSON.stringify(run)}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      };

      const second = await waitFor((run) => run.waiting?.attempt === 2);
      const seen = Date.now();
      expect(second).toMatchObject({
        state: 'running',
        waiting: { code: 'hiper_unreachable', message: 'Could not reach Hiper', attempt: 2, attempts: 3 },
        errors: [],
      });
      // When: SYNC_RETRY_DELAY_SECONDS after the first failure.
      expect(Date.parse(second.waiting.retry_at) - seen).toBeGreaterThan(0);
      expect(Date.parse(second.waiting.retry_at) - seen).toBeLessThanOrEqual(2_100);
      const third = await waitFor((run) => run.waiting?.attempt === 3);
      expect(third.waiting).toMatchObject({ code: 'hiper_unreachable', attempts: 3 });
      expect(Date.parse(third.waiting.retry_at) - Date.parse(second.waiting.retry_at)).toBeGreaterThanOrEqual(3_500);

      const ended = await waitFor((run) => run.state === 'failed');
      expect(ended).toMatchObject({
        waiting: null,
        errors: [{ hiper_id: '', sku: null, code: 'hiper_unreachable', message: 'Could not reach Hiper' }],
      });
      const after = await g.request('GET', `/api/v1/clients/${client.body.id}`, { token });
      expect(after.body.sync_state).toBe('failed');

      // Hiper is back: the next scheduled run reads it.
      late = await startHiper({ port: hiperPort });
      late.addAccount(account.key).add({ nome: 'Cadeira' });
      await g.gateway.services.sync.queueConnected('catalogue');
      const runs = await g.request('GET', `/api/v1/sync-runs/?client_id=${client.body.id}`, { token });
      expect(runs.body.data[0].id).not.toBe(started.body.id);
      const next = await (async () => {
        const until = Date.now() + 30_000;
        for (;;) {
          const run = (await g.request('GET', `/api/v1/sync-runs/${runs.body.data[0].id}`, { token })).body;
          if (!['queued', 'running'].includes(run.state)) return run;
          if (Date.now() > until) throw new Error(JSON.stringify(run));
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      expect(next).toMatchObject({ trigger: 'schedule', state: 'succeeded', created: 1, waiting: null });
    } finally {
      await g.close();
      await late?.close();
    }
  }, 90_000);

  it('gives up within 15 minutes of trying with the default settings, each attempt at its longest', () => {
    const config = loadConfig({});
    expect(config.SYNC_RETRY_ATTEMPTS).toBe(8);
    const waits = Array.from({ length: config.SYNC_RETRY_ATTEMPTS - 1 }, (_, i) => retryDelaySeconds(config, i + 2));
    expect(waits).toEqual([10, 20, 40, 80, 120, 120, 120]);
    const longest = waits.reduce((a, b) => a + b, 0) * 1000 + config.SYNC_RETRY_ATTEMPTS * config.HIPER_TIMEOUT_MS;
    expect(longest).toBeLessThanOrEqual(GIVE_UP_AFTER_MS);
  });
});

describe('the codes', () => {
  it('are each given a text by the admin’s Sincronizações screen', () => {
    // The screen's texts, as the admin loads them (its `errors` are the staff notes' catalogue).
    const errors: Record<string, unknown> = labels.errors;
    const missing = SYNC_ERROR_CODES.filter((code) => typeof errors[code] !== 'string' || !/\S/.test(errors[code]));
    expect(missing).toEqual([]);
  });
});
