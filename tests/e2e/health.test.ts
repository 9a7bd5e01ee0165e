import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { browserSuite, openSignedIn, scrollsSideways } from './support/browser';

/**
 * Who needs a person, at a glance: the dashboard's first card and the Saúde screen list the clients worst first, each
 * with its reasons in Portuguese, and a reason leads to what shows it (the client's held orders, its failed runs).
 */
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;
let token: string;

const open = browserSuite(
  async () => {
    [hiper, nuvemshop] = await Promise.all([startHiper(), startNuvemshopApi()]);
    t = await startTestGateway({
      HIPER_API_URL: hiper.url,
      NUVEMSHOP_API_URL: nuvemshop.url,
      SYNC_CATALOGUE_CRON: '0 0 1 1 *',
      SYNC_FULL_READ_CRON: '0 0 1 1 *',
      SYNC_STOCK_INTERVAL_SECONDS: '86400',
      // Worked out when the test asks, not on the minute.
      HEALTH_CRON: '0 0 1 1 *',
    });
    token = await t.superuserToken();
    return t;
  },
  async () => {
    await Promise.all([hiper?.close(), nuvemshop?.close()]);
  },
);

let nextStore = 9500;
async function client(name: string, key?: string) {
  const storeId = nextStore++;
  const store = nuvemshop.addStore(storeId);
  const account = hiper.addAccount();
  const created = await t.request('POST', '/api/v1/clients/', {
    token,
    json: {
      url: `https://loja${storeId}.example.com`,
      name,
      hiper_token: key ?? account.key,
      nuvemshop_token: store.token,
      nuvemshop_store_id: storeId,
    },
  });
  expect(created.status, created.text).toBe(200);
  return { id: created.body.id as string, storeId };
}

async function syncNow(clientId: string) {
  const started = await t.request('POST', `/api/v1/clients/${clientId}/sync`, { token, json: {} });
  expect(started.status).toBe(202);
  const end = Date.now() + 30_000;
  for (;;) {
    const run = (await t.request('GET', `/api/v1/sync-runs/${started.body.id}`, { token })).body;
    if (!['queued', 'running'].includes(run.state)) return run;
    if (Date.now() > end) throw new Error(JSON.stringify(run));
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the Saúde screen', () => {
  it('lists clients worst first with their reasons, each leading to what shows it; the dashboard leads there', async () => {
    const fine = await client('Loja Em Dia');
    expect(await syncNow(fine.id)).toMatchObject({ state: 'succeeded' });
    const held = await client('Loja Com Pedidos');
    expect(await syncNow(held.id)).toMatchObject({ state: 'succeeded' });
    const at = new Date(Date.now() - 5 * 3_600_000);
    await t.sql(
      `insert into orders (id, client_id, nuvemshop_order_id, state, lines, history, received_at, updated_at, created_at)
       values ($1, $2, 501, 'held', '[]', '[]', $3, $3, $3)`,
      [randomUUID(), held.id, at],
    );
    const failing = await client('Loja Com Chave Errada', 'h'.repeat(64));
    expect(await syncNow(failing.id)).toMatchObject({ state: 'failed' });
    await t.gateway.services.health.refresh();

    for (const [theme, size] of [
      ['light', 'desktop'],
      ['dark', 'desktop'],
      ['light', 'phone'],
      ['dark', 'phone'],
    ] as const) {
      const page = await openSignedIn(open, theme, size);
      // The dashboard's first card: how many in each health, and the worst by name with why.
      await page.goto('/');
      const card = page.getByRole('region', { name: 'Saúde dos clientes' });
      await card.waitFor();
      await card.getByRole('link', { name: 'Crítico: 1' }).waitFor();
      await card.getByRole('link', { name: 'Atenção: 1' }).waitFor();
      await card.getByRole('link', { name: 'Em dia: 1' }).waitFor();
      await card.getByText('Loja Com Pedidos').waitFor();
      await card.getByText(/1 pedido aguardando pessoa; o mais antigo há 5 h/).waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/health-dashboard-${size}-${theme}.png`, fullPage: true });

      await card.getByRole('link', { name: 'Ver a saúde de todos os clientes' }).click();
      await page.getByRole('heading', { name: 'Saúde dos clientes' }).waitFor();
      await page.getByText('1 pedido aguardando pessoa; o mais antigo há 5 h').first().waitFor();
      await page
        .getByText('A última sincronização do catálogo falhou: Token Hiper recusado pelo Hiper')
        .first()
        .waitFor();
      // The failure, which says what to fix, before the catalogue it left unwritten.
      await card.waitFor({ state: 'detached' });
      // Worst first: the critical client, then the one needing attention, then the one up to date.
      for (const name of ['Loja Com Pedidos', 'Loja Com Chave Errada', 'Loja Em Dia'])
        await page.getByRole('main').getByText(name).first().waitFor();
      const order = await page.evaluate(() => {
        const text = document.querySelector('main')?.textContent ?? '';
        return ['Loja Com Pedidos', 'Loja Com Chave Errada', 'Loja Em Dia'].map((name) => text.indexOf(name));
      });
      expect(order.every((at) => at >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      await page.getByText('Crítico', { exact: true }).first().waitFor();
      await page.getByText('Em dia', { exact: true }).first().waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/health-list-${size}-${theme}.png`, fullPage: true });

      // The held order's reason leads to that client's held orders.
      await page.getByRole('link', { name: 'Ver pedidos' }).first().click();
      await page.waitForURL(/\/pedidos\?/);
      const filter = JSON.parse(new URL(page.url()).searchParams.get('filter') ?? '{}');
      expect(filter).toEqual({ client_id: held.id, state: 'held' });
      await page.getByText('#501').or(page.getByText('Aguardando pessoa').first()).first().waitFor();

      // The failing client's reason leads to its failed runs.
      await page.goto('/saude');
      await page.getByRole('link', { name: 'Ver sincronizações' }).first().click();
      await page.waitForURL(/\/sincronizacoes\?/);
      expect(JSON.parse(new URL(page.url()).searchParams.get('filter') ?? '{}')).toEqual({
        client_id: failing.id,
        state: 'failed',
      });
      await page.getByText('Token Hiper recusado pelo Hiper', { exact: true }).first().waitFor();
      await page.context().close();
    }
  });
});

describe('Configurações, Alertas', () => {
  it('switches whether the account receives alerts, saved and read back after a reload', async () => {
    for (const [theme, size] of [
      ['light', 'desktop'],
      ['dark', 'phone'],
    ] as const) {
      const page = await openSignedIn(open, theme, size);
      await page.goto('/config');
      await page.getByRole('tab', { name: 'Alertas' }).click();
      const toggle = page.getByRole('switch', { name: 'Receber alertas por e-mail' });
      await toggle.waitFor();
      const before = await toggle.isChecked();
      await toggle.click();
      await page.getByText(before ? 'Você não vai mais receber os alertas.' : 'Você vai receber os alertas.').waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/health-alerts-tab-${size}-${theme}.png` });
      await page.reload();
      await page.getByRole('tab', { name: 'Alertas' }).click();
      await expect
        .poll(() => page.getByRole('switch', { name: 'Receber alertas por e-mail' }).isChecked())
        .toBe(!before);
      const me = await t.request('GET', '/api/v1/users/me', { token });
      expect(me.body.receives_alerts).toBe(!before);
      await page.context().close();
    }
  });
});
