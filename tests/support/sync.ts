import { afterAll, beforeAll, expect } from 'vitest';
import { startTestGateway, type TestGateway } from './gateway';
import { startHiper, type HiperAccount, type HiperStandIn, type HiperStandInOptions } from './standins/hiper';
import { startNuvemshopApi, type NuvemshopApiOptions, type NuvemshopApiStandIn } from './standins/nuvemshop-api';

/** A gateway's settings pointing it at the stand-ins, with no schedule running on its own: every run is asked for. */
export const syncEnv = (hiper: HiperStandIn, nuvemshop: NuvemshopApiStandIn): Record<string, string> => ({
  HIPER_API_URL: hiper.url,
  NUVEMSHOP_API_URL: nuvemshop.url,
  // An install (`/callback`) exchanges its code with the same stand-in, which grants the store's scopes.
  NUVEMSHOP_TOKEN_URL: nuvemshop.tokenUrl,
  SYNC_CATALOGUE_CRON: '0 0 1 1 *',
  SYNC_FULL_READ_CRON: '0 0 1 1 *',
  RECONCILE_CRON: '0 0 1 1 *',
  SYNC_STOCK_INTERVAL_SECONDS: '86400',
  // A step that could not reach a platform is retried a second later, not ten.
  SYNC_RETRY_DELAY_SECONDS: '1',
  // These tests start runs by the dozen as one user; the budget itself is tested in rate-limits.test.ts.
  RATE_LIMIT_SYNC: '1000',
});

/** Store ids, unique within a test file's stand-in. */
let nextStore = 7000;

/** What the synchronisation's tests do against one gateway and the two stand-ins. */
export function syncTools(t: TestGateway, su: string, hiper: HiperStandIn, nuvemshop: NuvemshopApiStandIn) {
  /** A client connected to a fresh Hiper account and a fresh store. */
  async function connectedClient(
    flags: Record<string, unknown> = {},
    bucket?: { size: number; drainPerSecond: number },
  ) {
    const storeId = nextStore++;
    const store = nuvemshop.addStore(storeId, bucket ? { bucket } : {});
    const account: HiperAccount = hiper.addAccount();
    const created = await t.request('POST', '/api/v1/clients/', {
      token: su,
      json: {
        url: `https://loja${storeId}.example.com`,
        hiper_token: account.key,
        nuvemshop_token: store.token,
        nuvemshop_store_id: storeId,
        ...flags,
      },
    });
    expect(created.status).toBe(200);
    return { id: created.body.id as string, storeId, store, account };
  }

  /** Waits until a run has ended; answers it as the API shows it. */
  async function waitForRun(runId: string, timeoutMs = 60_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const run = await t.request('GET', `/api/v1/sync-runs/${runId}`, { token: su });
      if (!['queued', 'running'].includes(run.body.state)) return run.body;
      if (Date.now() > until) throw new Error(`run still ${run.body.state}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Asks for a run of the client (202), and waits until it has ended. */
  async function syncNow(clientId: string, kind = 'catalogue', timeoutMs = 60_000) {
    const started = await t.request('POST', `/api/v1/clients/${clientId}/sync`, { token: su, json: { kind } });
    expect(started.status).toBe(202);
    return waitForRun(started.body.id, timeoutMs);
  }

  /** The routes of the writes a store received (after the first `since` requests). */
  const writes = (storeId: number, since = 0) =>
    nuvemshop
      .requestsOf(storeId)
      .slice(since)
      .filter((r) => r.method !== 'GET')
      .map((r) => r.route);

  return { connectedClient, waitForRun, syncNow, writes };
}

/** A test file's gateway, pointed at its own two stand-ins, its superuser's token and the synchronisation's tools. */
export interface SyncSuite {
  hiper: HiperStandIn;
  nuvemshop: NuvemshopApiStandIn;
  t: TestGateway;
  su: string;
  tools: ReturnType<typeof syncTools>;
}

/** Starts a SyncSuite before the file's tests and stops it after them; its fields are set once they have started. */
export function syncSuite(
  options: { hiper?: HiperStandInOptions; nuvemshop?: NuvemshopApiOptions; env?: Record<string, string> } = {},
): SyncSuite {
  const suite = {} as SyncSuite;
  beforeAll(async () => {
    [suite.hiper, suite.nuvemshop] = await Promise.all([
      startHiper(options.hiper),
      startNuvemshopApi(options.nuvemshop),
    ]);
    suite.t = await startTestGateway({ ...syncEnv(suite.hiper, suite.nuvemshop), ...options.env });
    suite.su = await suite.t.superuserToken();
    suite.tools = syncTools(suite.t, suite.su, suite.hiper, suite.nuvemshop);
  }, 60_000);
  afterAll(async () => {
    await suite.t?.close();
    await Promise.all([suite.hiper?.close(), suite.nuvemshop?.close()]);
  });
  return suite;
}
