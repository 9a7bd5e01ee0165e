import type { ChildProcess } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { spawnWorker } from '../support/process';
import { startHiper, type HiperAccount, type HiperStandIn } from '../support/standins/hiper';
import {
  startNuvemshopApi,
  type NuvemshopApiStandIn,
  type ReceivedRequest,
  type StandInStore,
} from '../support/standins/nuvemshop-api';
import { syncEnv, syncTools } from '../support/sync';

/**
 * The proofs the synchronisation owes (issue "The store synchronisation"), against the stand-ins: a first sync at
 * size, incremental runs with each flag on and off, kills at any point of a first sync, two workers on one client,
 * two stores at once. The benchmark (`npm run bench:sync`) runs the same at full size with the platform's bucket.
 */
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;

beforeAll(async () => {
  // Hiper answers in pages of 50; the store has the larger plan's bucket (400, draining 20 a second).
  [hiper, nuvemshop] = await Promise.all([
    startHiper({ pageSize: 50 }),
    startNuvemshopApi({ bucket: { size: 400, drainPerSecond: 20 } }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([hiper?.close(), nuvemshop?.close()]);
});

const IMAGE = (name: string) => `https://hiper-gestao.s3.amazonaws.com/acc/imagem-de-produto/${name}/600.jpeg`;

/** A catalogue of `simple` products and `grades` grades of three colours, each with an image and dimensions. */
function seed(account: HiperAccount, simple: number, grades: number) {
  const products = [];
  for (let i = 0; i < simple; i++)
    products.push(
      account.add({
        nome: `Produto ${i}`,
        preco: 10 + (i % 90),
        quantidadeEmEstoque: i % 13,
        categoria: `Categoria ${i % 5}`,
        imagem: IMAGE(`p${i}`),
        peso: 0.5,
        altura: 10,
      }),
    );
  for (let i = 0; i < grades; i++)
    products.push(
      account.add({
        nome: `Grade ${i}`,
        preco: 100 + i,
        categoria: `Categoria ${i % 5}`,
        imagem: IMAGE(`g${i}`),
        variacao: ['Azul', 'Preto', 'Branco'].map((cor, n) => ({
          nomeVariacaoA: cor,
          tipoVariacaoA: 'Cor',
          quantidadeEmEstoque: n + 1,
        })),
      }),
    );
  return products;
}

/** Every SKU of a store's products, in one list (a duplicate shows twice). */
const skusOf = (store: StandInStore) => store.products.flatMap((p) => p.variants.map((v) => v.sku));

/** The SKUs a Hiper account's products should have in the store (grades by their variations). */
const expectedSkus = (account: HiperAccount) =>
  account.products
    .filter((p) => p.produtoPrimarioId === '00000000-0000-0000-0000-000000000000')
    .flatMap((p) => (p.variacao?.length ? p.variacao.map((v) => String(v.codigo)) : [String(p.codigo)]));

describe('with the gateway’s own workers', () => {
  let t: TestGateway;
  let su: string;
  let tools: ReturnType<typeof syncTools>;

  beforeAll(async () => {
    t = await startTestGateway(syncEnv(hiper, nuvemshop));
    su = await t.superuserToken();
    tools = syncTools(t, su, hiper, nuvemshop);
  }, 60_000);
  afterAll(async () => t?.close());

  it('a first full sync of 500 products, 50 of them grades: each created once, every variant linked, one request per product', async () => {
    const c = await tools.connectedClient();
    seed(c.account, 450, 50);
    const run = await tools.syncNow(c.id, 'full', 240_000);
    expect(run).toMatchObject({ state: 'succeeded', created: 500, failed: 0, errors: [] });
    expect(c.store.products).toHaveLength(500);
    const skus = skusOf(c.store);
    expect(new Set(skus).size).toBe(skus.length);
    expect(skus.sort()).toEqual(expectedSkus(c.account).sort());
    const links = await t.request('GET', `/api/v1/product-links/?client_id=${c.id}&state=linked&limit=1`, {
      token: su,
    });
    expect(links.body.count).toBe(450 + 150);
    // One creation per product, the five categories, and reading the store's record, SKUs and categories once.
    const requests = nuvemshop.requestsOf(c.storeId);
    expect(requests.filter((r) => r.route === 'POST /products')).toHaveLength(500);
    expect(requests.filter((r) => r.route === 'POST /categories')).toHaveLength(5);
    expect(requests.filter((r) => r.method === 'GET')).toHaveLength(3);
    expect(requests.filter((r) => r.status === 429)).toEqual([]);
    expect(run.requests).toBe(requests.length);
    // Each image went up once, inside its product's creation.
    expect(requests.filter((r) => r.route === 'POST /products/{id}/images')).toEqual([]);
  }, 300_000);

  for (const flags of [
    { hiper_sync_update_image: true, hiper_sync_update_dimensions: true },
    { hiper_sync_update_image: false, hiper_sync_update_dimensions: false },
  ]) {
    const on = flags.hiper_sync_update_image;
    it(`an incremental run with images and dimensions ${on ? 'followed' : 'not followed'}: only what changed is written`, async () => {
      const c = await tools.connectedClient(flags);
      const [priced, stocked, renamed, pictured, measured, untouched] = seed(c.account, 6, 0);
      const first = await tools.syncNow(c.id);
      expect(first).toMatchObject({ state: 'succeeded', created: 6 });
      const mark = nuvemshop.requestsOf(c.storeId).length;

      c.account.change(priced.id, { preco: 77.7 });
      c.account.setStock(stocked.id, 42);
      c.account.change(renamed.id, { nome: 'Nome novo' });
      c.account.change(pictured.id, { imagem: IMAGE('nova') });
      c.account.change(measured.id, { peso: 2, largura: 30 });
      const run = await tools.syncNow(c.id);
      expect(run).toMatchObject({ state: 'succeeded', created: 0, failed: 0 });
      expect(run.updated).toBe(on ? 5 : 3);
      expect(run.unchanged).toBe(on ? 0 : 2);

      const writes = nuvemshop
        .requestsOf(c.storeId)
        .slice(mark)
        .filter((r) => r.method !== 'GET');
      const routes = writes.map((r) => r.route).sort();
      expect(routes).toEqual(
        [
          'PATCH /products/stock-price',
          'PUT /products/{id}',
          ...(on
            ? ['POST /products/{id}/images', 'DELETE /products/{id}/images/{iid}', 'PATCH /products/{id}/variants']
            : []),
        ].sort(),
      );
      const idOf = (codigo: number) => c.store.products.find((p) => p.variants[0].sku === String(codigo))!;
      // Price and stock of both products in one batch; the name alone in the product's update.
      const batch = writes.find((r) => r.route === 'PATCH /products/stock-price')!.body as any[];
      expect(batch.map((p) => p.id).sort()).toEqual([idOf(priced.codigo).id, idOf(stocked.codigo).id].sort());
      expect(writes.find((r) => r.route === 'PUT /products/{id}')!.body).toEqual({ name: 'Nome novo' });
      expect(idOf(priced.codigo).variants[0].price).toBe('77.70');
      expect(idOf(stocked.codigo).variants[0].stock).toBe(42);
      expect(idOf(renamed.codigo).name).toEqual({ pt: 'Nome novo' });
      expect(idOf(pictured.codigo).images).toHaveLength(1);
      expect(idOf(measured.codigo).variants[0].weight).toBe(on ? '2.000' : '0.500');
      expect(idOf(untouched.codigo).variants[0].price).toBe(untouched.preco.toFixed(2));

      // Read again from the start: nothing differs, nothing is written, no image goes up twice.
      const again = nuvemshop.requestsOf(c.storeId).length;
      const full = await tools.syncNow(c.id, 'full');
      expect(full).toMatchObject({ state: 'succeeded', created: 0, updated: 0, unchanged: 6 });
      expect(tools.writes(c.storeId, again)).toEqual([]);
      const uploads = nuvemshop.requestsOf(c.storeId).filter((r) => r.route === 'POST /products/{id}/images');
      expect(uploads).toHaveLength(on ? 1 : 0);
    }, 60_000);
  }

  it('a product removed in the ERP is unpublished, and stays so', async () => {
    const c = await tools.connectedClient();
    const [gone] = seed(c.account, 2, 0);
    await tools.syncNow(c.id);
    c.account.remove(gone.id);
    const run = await tools.syncNow(c.id);
    expect(run).toMatchObject({ state: 'succeeded', updated: 1 });
    const product = c.store.products.find((p) => p.variants[0].sku === String(gone.codigo))!;
    expect(product.published).toBe(false);
    const mark = nuvemshop.requestsOf(c.storeId).length;
    expect(await tools.syncNow(c.id, 'full')).toMatchObject({ updated: 0 });
    expect(tools.writes(c.storeId, mark)).toEqual([]);
  });

  it('two clients on two stores at once: each store gets its own products only', async () => {
    const a = await tools.connectedClient();
    const b = await tools.connectedClient();
    seed(a.account, 30, 3);
    seed(b.account, 20, 5);
    // Each store's calls wait until the other store has been called too: worked on at the same time, the first call
    // of one run waits for the first of the other; worked on one after the other, it would time out, failing its step,
    // which would be tried again once the other run had begun.
    const runIds: string[] = [];
    const called = new Set<number>();
    let bothCalled!: () => void;
    const both = new Promise<void>((resolve) => (bothCalled = resolve));
    nuvemshop.intercept(async (request, phase) => {
      if (phase !== 'received' || (request.store !== a.storeId && request.store !== b.storeId)) return;
      called.add(request.store);
      if (called.size === 2) bothCalled();
      await both;
    });
    try {
      const started = await Promise.all(
        [a, b].map((c) => t.request('POST', `/api/v1/clients/${c.id}/sync`, { token: su, json: {} })),
      );
      runIds.push(...started.map((s) => s.body.id as string));
      const runs = await Promise.all(started.map((s) => tools.waitForRun(s.body.id)));
      expect(runs.map((r) => [r.state, r.created])).toEqual([
        ['succeeded', 33],
        ['succeeded', 25],
      ]);
    } finally {
      nuvemshop.intercept(null);
    }
    const steps = await t.sql<{ retried: number }>(
      `select count(*) filter (where retry_count > 0)::int as retried from pgboss.job
        where name = 'sync' and data->>'runId' in ($1, $2)`,
      runIds,
    );
    expect(steps).toEqual([{ retried: 0 }]);
    for (const c of [a, b]) {
      expect(skusOf(c.store).sort()).toEqual(expectedSkus(c.account).sort());
      // Every call to a store carried that store's own token.
      expect(nuvemshop.requestsOf(c.storeId).every((r) => r.headers.authentication === `bearer ${c.store.token}`)).toBe(
        true,
      );
    }
  }, 60_000);
});

describe('with worker processes (`npm run worker`)', () => {
  let t: TestGateway;
  let su: string;
  let tools: ReturnType<typeof syncTools>;
  const workers = new Map<string, ChildProcess>();
  const spawned: ChildProcess[] = [];
  const logs: string[] = [];
  const kills: string[] = [];

  /** The worker's environment: the same database and keys as the gateway; its User-Agent names it. */
  const workerEnv = (name: string) => ({
    NODE_ENV: 'test',
    DATABASE_URL: t.databaseUrl,
    SECRET_KEY: t.config.SECRET_KEY,
    TOKEN_ENCRYPTION_KEY: t.config.TOKEN_ENCRYPTION_KEY,
    ...syncEnv(hiper, nuvemshop),
    NUVEMSHOP_USER_AGENT: `Integracao ${name} (tests@example.com)`,
    // A step writes for a second at most: a killed worker's step expires in 3 s, and is taken up a second later.
    SYNC_STEP_SECONDS: '1',
    JOBS_MAINTENANCE_SECONDS: '1',
    JOBS_POLL_INTERVAL_SECONDS: '0.5',
  });

  async function start(name: string) {
    const worker = await spawnWorker(workerEnv(name));
    workers.set(name, worker.child);
    spawned.push(worker.child);
    worker.child.stdout!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (/"level":[4-6]0/.test(line)) logs.push(`${name} ${line}`);
    });
  }

  const nameOf = (request: ReceivedRequest) => /Integracao (\S+)/.exec(String(request.headers['user-agent']))?.[1];

  beforeAll(async () => {
    // The gateway only serves: every step runs in a worker process.
    t = await startTestGateway({ ...syncEnv(hiper, nuvemshop), RUN_WORKERS: 'false' });
    su = await t.superuserToken();
    tools = syncTools(t, su, hiper, nuvemshop);
    await Promise.all([start('A'), start('B')]);
  }, 90_000);
  afterEach((context) => {
    // What the workers warned about, when a test of theirs failed.
    if (context.task.result?.state === 'fail') console.log(logs.slice(-30).join('\n'));
    logs.length = 0;
  });
  afterAll(async () => {
    nuvemshop.intercept(null);
    for (const child of spawned) child.kill('SIGKILL');
    await t?.close();
  });

  it('two workers and one client, its run queued several times over: never two steps at once, each product once', async () => {
    const c = await tools.connectedClient({}, { size: 40, drainPerSecond: 20 });
    seed(c.account, 120, 10);
    const inFlight = new Set<ReceivedRequest>();
    let overlaps = 0;
    nuvemshop.intercept((request, phase) => {
      if (request.store !== c.storeId) return;
      if (phase === 'received') {
        if (inFlight.size > 0) overlaps++;
        inFlight.add(request);
      } else inFlight.delete(request);
    });
    try {
      const started = await t.request('POST', `/api/v1/clients/${c.id}/sync`, { token: su, json: {} });
      // The same run's step queued four times more, as a schedule racing a click or a retry racing its job would.
      for (let i = 0; i < 4; i++) await t.gateway.services.jobs.send('sync', { runId: started.body.id });
      const run = await tools.waitForRun(started.body.id, 120_000);
      expect(run).toMatchObject({ state: 'succeeded', created: 130, failed: 0 });
    } finally {
      nuvemshop.intercept(null);
    }
    expect(overlaps).toBe(0);
    expect(skusOf(c.store).sort()).toEqual(expectedSkus(c.account).sort());
    expect(nuvemshop.requestsOf(c.storeId).filter((r) => r.route === 'POST /products')).toHaveLength(130);
    // Steps did find the client held by another, and waited their turn.
    const [{ busy }] = await t.sql<{ busy: number }>(
      `select count(*)::int as busy from pgboss.job where name = 'sync' and output->>'busy' = 'true'`,
    );
    expect(busy).toBeGreaterThan(0);
  }, 180_000);

  it('a worker killed (SIGKILL) at any point of a first sync: another finishes it, nothing duplicated or lost', async () => {
    let generation = 0;
    await fc.assert(
      fc.asyncProperty(
        // Kill points: the n-th write the store receives, killed as it arrives (never applied) or once applied
        // (its answer lost).
        fc.uniqueArray(fc.record({ at: fc.integer({ min: 1, max: 14 }), applied: fc.boolean() }), {
          minLength: 1,
          maxLength: 2,
          selector: (k) => k.at,
        }),
        async (points) => {
          const c = await tools.connectedClient();
          seed(c.account, 10, 2);
          let seen = 0;
          nuvemshop.intercept(async (request, phase) => {
            if (request.store !== c.storeId || request.method === 'GET') return;
            if (phase === 'received') seen++;
            const point = points.find((p) => p.at === seen && p.applied === (phase === 'served'));
            if (!point) return;
            const name = nameOf(request)!;
            kills.push(`${name}@${seen}${point.applied ? '+' : '-'}`);
            workers.get(name)!.kill('SIGKILL');
            // The killed process is replaced, as a supervisor would; the store never answers it.
            void start(`${name}${++generation}`).then(() => workers.delete(name));
          });
          try {
            const run = await tools.syncNow(c.id, 'catalogue', 120_000);
            expect(run).toMatchObject({ state: 'succeeded', failed: 0 });
          } finally {
            nuvemshop.intercept(null);
          }
          const skus = skusOf(c.store);
          expect(skus.sort()).toEqual(expectedSkus(c.account).sort());
          expect(c.store.products).toHaveLength(12);
          // Each image once, whether sent inside a creation or after.
          for (const product of c.store.products) expect(product.images).toHaveLength(1);
          const [marks] = await t.sql<{ marked: number; linked: number }>(
            `select count(*) filter (where creating_since is not null)::int as marked,
                    count(*) filter (where nuvemshop_product_id is not null)::int as linked
               from sync_products where client_id = $1`,
            [c.id],
          );
          expect(marks).toEqual({ marked: 0, linked: 12 });
        },
      ),
      { numRuns: 4 },
    );
    expect(kills.length).toBeGreaterThanOrEqual(4);
  }, 600_000);
});
