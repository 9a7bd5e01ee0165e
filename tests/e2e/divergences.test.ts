import { describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { browserSuite, openSignedIn, scrollsSideways } from './support/browser';

/**
 * What the nightly reconciliation found: the Divergências screen lists each difference with what the store says and
 * what Hiper says, and the client's health reason for open ones leads there, filtered by the client.
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
      RECONCILE_CRON: '0 0 1 1 *',
      SYNC_STOCK_INTERVAL_SECONDS: '86400',
      HEALTH_CRON: '0 0 1 1 *',
    });
    token = await t.superuserToken();
    return t;
  },
  async () => {
    await Promise.all([hiper?.close(), nuvemshop?.close()]);
  },
);

async function runNow(clientId: string, kind: string) {
  const started = await t.request('POST', `/api/v1/clients/${clientId}/sync`, { token, json: { kind } });
  expect(started.status).toBe(202);
  const end = Date.now() + 30_000;
  for (;;) {
    const run = (await t.request('GET', `/api/v1/sync-runs/${started.body.id}`, { token })).body;
    if (!['queued', 'running'].includes(run.state)) return run;
    if (Date.now() > end) throw new Error(JSON.stringify(run));
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the Divergências screen', () => {
  it('shows what the store and Hiper each say, and the health reason leads to the client’s open ones', async () => {
    const store = nuvemshop.addStore(9800);
    const account = hiper.addAccount();
    const created = await t.request('POST', '/api/v1/clients/', {
      token,
      json: {
        url: 'https://loja9800.example.com',
        name: 'Loja Divergente',
        hiper_token: account.key,
        nuvemshop_token: store.token,
        nuvemshop_store_id: 9800,
      },
    });
    expect(created.status).toBe(200);
    const clientId = created.body.id as string;
    const mug = account.add({ nome: 'Caneca Azul', preco: 25, quantidadeEmEstoque: 7 });
    expect(await runNow(clientId, 'catalogue')).toMatchObject({ state: 'succeeded' });
    store.variants.find((v) => v.sku === String(mug.codigo))!.stock = 2;
    store.seedProduct({ name: { pt: 'Vela aromática da loja' }, variants: [{ sku: 'LOJA-VELA', price: '19.90' }] });
    account.add({ nome: 'Boné só no Hiper', preco: 30, quantidadeEmEstoque: 4 });
    expect(await runNow(clientId, 'reconcile')).toMatchObject({ state: 'succeeded' });
    await t.gateway.services.health.refresh();

    for (const [theme, size] of [
      ['light', 'desktop'],
      ['dark', 'desktop'],
      ['light', 'phone'],
      ['dark', 'phone'],
    ] as const) {
      const page = await openSignedIn(open, theme, size);
      await page.goto('/saude');
      await page
        .getByText('2 divergências abertas entre a loja e o Hiper (veja o que cada lado diz)')
        .first()
        .waitFor();
      await page.getByRole('link', { name: 'Ver divergências' }).first().click();
      await page.waitForURL(/\/divergencias\?/);
      expect(JSON.parse(new URL(page.url()).searchParams.get('filter') ?? '{}')).toEqual({
        client_id: clientId,
        state: 'open',
      });
      await page.getByRole('heading', { name: 'Divergências entre a loja e o Hiper' }).waitFor();
      await page.getByText('Só na loja').first().waitFor();
      await page.getByText('Vela aromática da loja').first().waitFor();
      await page.getByText('Boné só no Hiper').first().waitFor();
      // Each row names its client.
      await page
        .getByRole('main')
        .getByRole('link', { name: /Loja Divergente/ })
        .first()
        .waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/divergences-open-${size}-${theme}.png`, fullPage: true });

      // Every state: the repaired stock shows the store's 2 and Hiper's 7.
      await page.goto('/divergencias');
      await page.getByText('Corrigida').first().waitFor();
      await page.getByText('Estoque', { exact: true }).first().waitFor();
      await page
        .getByRole('main')
        .getByRole('link', { name: /Loja Divergente/ })
        .first()
        .waitFor();
      if (size === 'desktop')
        await page.locator('.RaMenu-open').getByRole('menuitem', { name: 'Divergências' }).waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/divergences-all-${size}-${theme}.png`, fullPage: true });
      await page.context().close();
    }
  });
});
