import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../gateway/paths';
import { call } from '../support/gateway';
import { freePort } from '../support/net';

const DEMO = path.join(projectRoot, 'scripts', 'demo.mjs');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'integracao-demo-'));
  // The embedded PostgreSQL runs as a user of its own, which must reach its folder.
  chmodSync(dir, 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Demo {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `npm run demo`'s script as a person would, every port a free one. */
async function runDemo(env: Record<string, string>): Promise<Demo> {
  let output = '';
  const child = spawn(process.execPath, [DEMO], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO_HIPER_PORT: '0',
      DEMO_NUVEMSHOP_PORT: '0',
      DEMO_PG_PORT: String(await freePort()),
      DEMO_DATA_DIR: dir,
      SYNC_STOCK_INTERVAL_SECONDS: '10',
      BCRYPT_COST: '4',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** Waits until `read` answers something other than undefined; fails with the demo's output after `timeoutMs`. */
async function until<T>(demo: Demo, what: string, read: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`${what} did not happen in ${timeoutMs} ms:\n${demo.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface StoreProduct {
  id: number;
  name: { pt: string };
  published: boolean;
  images: unknown[];
  variants: {
    sku: string;
    price: string;
    stock: number | null;
    values: { pt: string }[];
    inventory_levels: { location_id: string; stock: number | null }[];
  }[];
}

describe('npm run demo', () => {
  it('refuses to run with NODE_ENV=production, starting nothing', async () => {
    const demo = await runDemo({ NODE_ENV: 'production' });
    expect(await demo.exited).toEqual({ code: 1, signal: null });
    expect(demo.output()).toContain('npm run demo does not run with NODE_ENV=production');
    expect(demo.output()).not.toContain('compiling');
  });

  it('runs the product beside the stand-ins with a connected demo client: "Sincronizar agora" fills the store, a price changed in the demo ERP reaches it at the next stock run, a purchase reaches the ERP once and its NF-e comes back, and Ctrl-C stops everything', async () => {
    const demo = await runDemo({});
    try {
      const banner = await until(
        demo,
        'the demo start',
        async () => /The demo is running[\s\S]*\n\s*Demo store:.*\n/.exec(demo.output())?.[0],
        180_000,
      );
      const admin = /Admin:\s+(http:\/\/\S+)\/clientes\s+sign in as admin@example\.com \/ changethis/.exec(banner)![1];
      const erp = /Demo ERP:\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(banner)![1];
      const store = /Demo store:\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(banner)![1];
      const api = admin.replace('://localhost', '://127.0.0.1');

      const signIn = await call(api, 'POST', '/api/v1/login/access-token', {
        form: { username: 'admin@example.com', password: 'changethis' },
      });
      expect(signIn.status).toBe(200);
      const token = signIn.body.access_token as string;
      const clients = await call(api, 'GET', '/api/v1/clients/', { token });
      expect(clients.body.data).toHaveLength(2);
      const client = clients.body.data.find((c: { name: string }) => c.name === 'Loja Demonstração');
      expect(client).toMatchObject({ nuvemshop_store_id: 1_000_001, sync_state: 'never_synced' });

      // The second client's old Token Hiper: its run fails saying so, and the client reads "Falhou" until the right
      // key, the one the banner gives, is saved; then the client may be synchronised again, and its store fills.
      const bruno = clients.body.data.find((c: { name: string }) => c.name === 'Loja do Bruno');
      const rightKey = /In "Editar cliente" put (\S+)\s/.exec(banner)![1];
      const failed = await until(
        demo,
        'the second client failing on its Token Hiper',
        async () => {
          const runs = await call(api, 'GET', `/api/v1/sync-runs/?client_id=${bruno.id}`, { token });
          return runs.body.data.find((r: { state: string }) => r.state === 'failed');
        },
        30_000,
      );
      expect(failed.errors).toEqual([expect.objectContaining({ code: 'hiper_key_refused' })]);
      expect((await call(api, 'GET', `/api/v1/clients/${bruno.id}`, { token })).body.sync_state).toBe('failed');
      // The Saúde screen names it critical at the minute's check, with why.
      const critical = await until(
        demo,
        'the second client critical on the Saúde screen',
        async () => {
          const health = await call(api, 'GET', `/api/v1/client-health/?client_id=${bruno.id}`, { token });
          return health.body.data?.[0]?.health === 'critical' ? health.body.data[0] : undefined;
        },
        100_000,
      );
      expect(critical.reasons[0]).toMatchObject({
        code: 'run_failed',
        text: 'A última sincronização do catálogo falhou: Token Hiper recusado pelo Hiper',
      });
      expect(banner).toMatch(/Saúde:\s+http:\/\/\S+\/saude/);
      // ...and the superuser's alert about it is on the E-mails screen.
      const alert = await until(
        demo,
        'the alert about the second client on the E-mails screen',
        async () => {
          const mail = await call(api, 'GET', '/api/v1/mail-jobs/?limit=100', { token });
          return mail.body.data?.find((job: { kind: string }) => job.kind === 'health-alert');
        },
        30_000,
      );
      expect(alert.to).toBe('admin@example.com');
      const fixed = await call(api, 'PUT', `/api/v1/clients/${bruno.id}`, {
        token,
        json: { url: bruno.url, name: bruno.name, nuvemshop_store_id: bruno.nuvemshop_store_id, hiper_token: rightKey },
      });
      expect(fixed.status, fixed.text).toBe(200);
      expect(fixed.body.sync_state).not.toBe('failed');
      const again = await until(
        demo,
        'the second client synchronised with its right key',
        async () => {
          const started = await call(api, 'POST', `/api/v1/clients/${bruno.id}/sync`, { token, json: {} });
          let answer = started;
          while (['queued', 'running'].includes(answer.body.state)) {
            await new Promise((r) => setTimeout(r, 250));
            answer = await call(api, 'GET', `/api/v1/sync-runs/${started.body.id}`, { token });
          }
          return answer.body.kind === 'catalogue' ? answer.body : undefined;
        },
        60_000,
      );
      expect(again).toMatchObject({ state: 'succeeded', created: 4, failed: 0 });
      expect((await call(api, 'GET', `/api/v1/clients/${bruno.id}`, { token })).body.sync_state).toBe('idle');

      const erpPage = await fetch(erp);
      expect(erpPage.status).toBe(200);
      expect(await erpPage.text()).toContain('Camiseta Básica Branca');
      const storeProducts = async () => (await (await fetch(`${store}products.json`)).json()) as StoreProduct[];
      expect(await storeProducts()).toEqual([]);

      // "Sincronizar agora": the catalogue run creates every active product, with its images; the inactive one waits.
      // A stock run queued that moment is answered instead (a client has one run at a time): the click is repeated.
      const run = await until(
        demo,
        'the catalogue run',
        async () => {
          const started = await call(api, 'POST', `/api/v1/clients/${client.id}/sync`, { token, json: {} });
          expect(started.status).toBe(202);
          let answer = started;
          while (['queued', 'running'].includes(answer.body.state)) {
            await new Promise((r) => setTimeout(r, 250));
            answer = await call(api, 'GET', `/api/v1/sync-runs/${started.body.id}`, { token });
          }
          return answer.body.kind === 'catalogue' ? answer.body : undefined;
        },
        60_000,
      );
      expect(run).toMatchObject({ state: 'succeeded', created: 4, unchanged: 1, failed: 0, errors: [] });
      const products = await storeProducts();
      expect(products.map((p) => p.name.pt).sort()).toEqual([
        'Boné Aba Curva',
        'Camiseta Básica Branca',
        'Caneca de Cerâmica',
        'Tênis de Corrida',
      ]);
      const shoes = products.find((p) => p.name.pt === 'Tênis de Corrida')!;
      expect(shoes.variants.map((v) => v.values.map((value) => value.pt).join(' / '))).toEqual([
        'Azul / 40',
        'Azul / 42',
        'Preto / 40',
        'Preto / 42',
      ]);
      expect(products.find((p) => p.name.pt === 'Boné Aba Curva')!.images).toHaveLength(2);
      const shirt = () => products.find((p) => p.name.pt === 'Camiseta Básica Branca')!.variants[0];
      expect(shirt()).toMatchObject({ sku: '1001', price: '49.90', stock: 25 });
      // The store's two locations, read at start: the shoe the shop has sold out is in the warehouse, whose own ERP
      // account (its key masked) gives its stock.
      const locations = (await call(api, 'GET', `/api/v1/locations/?client_id=${client.id}`, { token })).body.data as {
        name: string;
        nuvemshop_location_id: string;
        hiper_token: string | null;
      }[];
      expect(locations.map((l) => l.name).sort()).toEqual(['Depósito', 'Loja']);
      expect(locations.find((l) => l.name === 'Depósito')!.hiper_token).toMatch(/^••/);
      const named = new Map(locations.map((l) => [l.nuvemshop_location_id, l.name]));
      const levels = (values: string) =>
        Object.fromEntries(
          shoes.variants
            .find((v) => v.values.map((value) => value.pt).join(' / ') === values)!
            .inventory_levels.map((level) => [named.get(level.location_id), level.stock]),
        );
      expect(levels('Preto / 42')).toEqual({ Loja: 0, Depósito: 6 });
      expect(levels('Azul / 40')).toEqual({ Loja: 5, Depósito: 0 });
      const storePage = await (await fetch(store)).text();
      expect(storePage).toContain('Camiseta Básica Branca');

      // The demo ERP's form, as its page posts it: the next stock run carries the new price and stock.
      const changed = await fetch(`${erp}products/1001`, {
        method: 'POST',
        body: new URLSearchParams({ preco: '39,90', estoque: '8' }),
        redirect: 'manual',
      });
      expect(changed.status).toBe(303);
      const after = await until(
        demo,
        'the new price in the store',
        async () => {
          const variant = (await storeProducts()).find((p) => p.name.pt === 'Camiseta Básica Branca')!.variants[0];
          return variant.price === '39.90' ? variant : undefined;
        },
        45_000,
      );
      expect(after).toMatchObject({ price: '39.90', stock: 8 });
      // Seen as the stock run's work once it has ended.
      const stockRun = await until(
        demo,
        'the stock run that carried it',
        async () => {
          const runs = await call(api, 'GET', `/api/v1/sync-runs/?client_id=${client.id}&limit=20`, { token });
          return runs.body.data.find((r: { kind: string; updated: number }) => r.kind === 'stock' && r.updated > 0);
        },
        15_000,
      );
      expect(stockRun).toMatchObject({ trigger: 'schedule', state: 'succeeded', updated: 1, failed: 0 });

      // A buyer's "Comprar" in the demo store: a paid order, its unit taken from the store's stock, its webhook signed.
      const shirtId = (await storeProducts()).find((p) => p.name.pt === 'Camiseta Básica Branca')!.id;
      const variantId = (
        (await (await fetch(`${store}products.json`)).json()) as { id: number; variants: { id: number }[] }[]
      ).find((p) => p.id === shirtId)!.variants[0].id;
      const bought = await fetch(`${store}orders`, {
        method: 'POST',
        body: new URLSearchParams({ variant: String(variantId) }),
        redirect: 'manual',
      });
      expect(bought.status).toBe(303);
      expect(decodeURIComponent(bought.headers.get('location')!)).toMatch(
        /Pedido #\d+ pago .*a integração foi avisada/,
      );
      // It reaches the demo ERP once, and the admin's Pedidos says so.
      const sales = await until(
        demo,
        'the sales order in the demo ERP',
        async () => {
          const list = (await (await fetch(`${erp}orders.json`)).json()) as { id: string }[];
          return list.length ? list : undefined;
        },
        30_000,
      );
      expect(sales).toHaveLength(1);
      const order = await until(
        demo,
        'the order sent in Pedidos',
        async () => {
          const orders = await call(api, 'GET', `/api/v1/orders/?client_id=${client.id}`, { token });
          const sent = orders.body.data.find((o: { state: string }) => o.state === 'sent');
          return sent as { id: string; hiper_order_id: string } | undefined;
        },
        30_000,
      );
      expect(order.hiper_order_id).toBe(sales[0].id);
      // The sold unit stays sold: the next stock run writes the ERP's 8 less the unit not yet out of its stock.
      const sold = await until(
        demo,
        'a stock run after the sale',
        async () => {
          const runs = await call(api, 'GET', `/api/v1/sync-runs/?client_id=${client.id}&limit=50`, { token });
          const later = runs.body.data.filter(
            (r: { kind: string; state: string; started_at: string }) =>
              r.kind === 'stock' && r.state === 'succeeded' && Date.parse(r.started_at) > Date.now() - 5_000,
          );
          return later.length ? (await storeProducts()).find((p) => p.id === shirtId)!.variants[0] : undefined;
        },
        45_000,
      );
      expect(sold.stock).toBe(7);
      // "Emitir NF-e" in the demo ERP: the next reading of its events writes the NF-e to the store's order.
      const issued = await fetch(`${erp}orders/${encodeURIComponent(sales[0].id)}/nfe`, {
        method: 'POST',
        redirect: 'manual',
      });
      expect(issued.status).toBe(303);
      const invoiced = await until(
        demo,
        'the NF-e in the store',
        async () => {
          const read = await call(api, 'GET', `/api/v1/orders/${order.id}`, { token });
          return read.body.state === 'invoiced' ? (read.body as { nfe_key: string }) : undefined;
        },
        90_000,
      );
      expect(invoiced.nfe_key).toMatch(/^\d{44}$/);
      expect(await (await fetch(store)).text()).toContain(invoiced.nfe_key.slice(-6));

      // A second purchase, cancelled by the buyer in the store once it is in the ERP: the ERP is asked to cancel it.
      const mug = (await storeProducts()).find((p) => p.name.pt === 'Caneca de Cerâmica')!;
      const mugVariant = (
        (await (await fetch(`${store}products.json`)).json()) as { id: number; variants: { id: number }[] }[]
      ).find((p) => p.id === mug.id)!.variants[0].id;
      expect(
        (
          await fetch(`${store}orders`, {
            method: 'POST',
            body: new URLSearchParams({ variant: String(mugVariant) }),
            redirect: 'manual',
          })
        ).status,
      ).toBe(303);
      const second = await until(
        demo,
        'the second sales order in the demo ERP',
        async () => {
          const list = (await (await fetch(`${erp}orders.json`)).json()) as { id: string }[];
          return list.length === 2 ? list[1] : undefined;
        },
        30_000,
      );
      const storeOrders = (await (await fetch(`${store}orders.json`)).json()) as { id: number; status: string }[];
      const cancelled = await fetch(`${store}orders/${storeOrders.at(-1)!.id}/cancel`, {
        method: 'POST',
        redirect: 'manual',
      });
      expect(decodeURIComponent(cancelled.headers.get('location')!)).toMatch(/cancelado: a integração foi avisada/);
      await until(
        demo,
        'the cancellation in the demo ERP',
        async () => {
          const list = (await (await fetch(`${erp}orders.json`)).json()) as { id: string; cancelado: boolean }[];
          return list.find((o) => o.id === second.id)?.cancelado || undefined;
        },
        30_000,
      );
      expect(await (await fetch(erp)).text()).toContain('cancelado');

      // "Ajustar" in the demo store: a stock typed in the store's own admin. The reconciliation (started here as the
      // demo's two-minute schedule would) writes Hiper's figure back and lists the difference as repaired.
      const shirtInStore = (await storeProducts()).find((p) => p.name.pt === 'Camiseta Básica Branca')!;
      const shirtVariant = (
        (await (await fetch(`${store}products.json`)).json()) as { id: number; variants: { id: number }[] }[]
      ).find((p) => p.id === shirtInStore.id)!.variants[0].id;
      const shopStock = shirtInStore.variants[0].inventory_levels[0].stock;
      const typed = (shopStock ?? 0) + 7;
      const adjusted = await fetch(`${store}variants/${shirtVariant}/stock`, {
        method: 'POST',
        body: new URLSearchParams({ stock: String(typed) }),
        redirect: 'manual',
      });
      expect(adjusted.status).toBe(303);
      expect((await storeProducts()).find((p) => p.id === shirtInStore.id)!.variants[0].inventory_levels[0].stock).toBe(
        typed,
      );
      const reconciled = await until(
        demo,
        'the reconciliation',
        async () => {
          const started = await call(api, 'POST', `/api/v1/clients/${client.id}/sync`, {
            token,
            json: { kind: 'reconcile' },
          });
          expect(started.status).toBe(202);
          let answer = started;
          while (['queued', 'running'].includes(answer.body.state)) {
            await new Promise((r) => setTimeout(r, 250));
            answer = await call(api, 'GET', `/api/v1/sync-runs/${started.body.id}`, { token });
          }
          return answer.body.kind === 'reconcile' ? answer.body : undefined;
        },
        60_000,
      );
      expect(reconciled.state).toBe('succeeded');
      const repaired = await call(api, 'GET', `/api/v1/divergences/?client_id=${client.id}&state=repaired`, { token });
      expect(repaired.body.data).toContainEqual(
        expect.objectContaining({ sku: shirtInStore.variants[0].sku, kind: 'stock', store_value: String(typed) }),
      );
      expect(
        (await storeProducts()).find((p) => p.id === shirtInStore.id)!.variants[0].inventory_levels[0].stock,
      ).not.toBe(typed);

      // Ctrl-C: the gateway drains and stops its database, then the stand-ins close.
      demo.child.kill('SIGINT');
      expect(await demo.exited).toEqual({ code: 0, signal: null });
      expect(demo.output()).toContain('gateway stopped');
      expect(existsSync(path.join(dir, 'postgres', 'postmaster.pid'))).toBe(false);
      await expect(fetch(erp)).rejects.toThrow();
      await expect(fetch(store)).rejects.toThrow();
    } finally {
      if (demo.child.exitCode === null && demo.child.signalCode === null) {
        demo.child.kill('SIGTERM');
        await demo.exited;
      }
    }
  }, 420_000);
});
