import { describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { browserSuite, openSignedIn, scrollsSideways, SIZES } from './support/browser';

/**
 * Why a run failed, on the Sincronizações screen: the first error in the list and every one in the run's dialog, in
 * Portuguese; and a run whose Hiper cannot be reached saying it waits to try again, and when.
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
      // The waiting run stays waiting while the screen is looked at.
      SYNC_RETRY_DELAY_SECONDS: '120',
    });
    token = await t.superuserToken();
    return t;
  },
  async () => {
    await Promise.all([hiper?.close(), nuvemshop?.close()]);
  },
);

const openIn = (theme: 'light' | 'dark', size: keyof typeof SIZES) => openSignedIn(open, theme, size);

let nextStore = 9300;
async function client(url: string) {
  const storeId = nextStore++;
  const store = nuvemshop.addStore(storeId);
  const account = hiper.addAccount();
  const created = await t.request('POST', '/api/v1/clients/', {
    token,
    json: { url, hiper_token: account.key, nuvemshop_token: store.token, nuvemshop_store_id: storeId },
  });
  expect(created.status, created.text).toBe(200);
  return { id: created.body.id as string, account };
}

async function runOf(clientId: string, until: (run: any) => boolean) {
  const started = await t.request('POST', `/api/v1/clients/${clientId}/sync`, { token, json: {} });
  expect(started.status).toBe(202);
  const end = Date.now() + 30_000;
  for (;;) {
    const run = (await t.request('GET', `/api/v1/sync-runs/${started.body.id}`, { token })).body;
    if (until(run)) return run;
    if (Date.now() > end) throw new Error(JSON.stringify(run));
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the Sincronizações screen', () => {
  it('says why a run failed in Portuguese, lists every error in its dialog, and shows a run waiting to try again', async () => {
    const refused = await client('https://chave-recusada.example');
    hiper.refuseKey(refused.account.key);
    await runOf(refused.id, (run) => run.state === 'failed');

    const partial = await client('https://imagem-recusada.example');
    partial.account.add({ codigo: 501, nome: 'Vaso', imagem: 'https://imagens.example/vaso.svg' });
    partial.account.add({ codigo: 502, nome: 'Prato', imagem: 'https://imagens.example/prato.svg' });
    partial.account.add({ codigo: 503, nome: 'Copo' });
    await runOf(partial.id, (run) => run.state === 'partial');

    const unreachable = await client('https://hiper-fora.example');
    hiper.inject({ path: `/auth/gerar-token/${unreachable.account.key}`, drop: true, times: Infinity });
    const waiting = await runOf(unreachable.id, (run) => run.waiting?.attempt === 2);
    const at = new Intl.DateTimeFormat('pt-BR', { timeStyle: 'medium' }).format(new Date(waiting.waiting.retry_at));

    for (const [theme, size] of [
      ['light', 'desktop'],
      ['dark', 'desktop'],
      ['light', 'phone'],
      ['dark', 'phone'],
    ] as const) {
      const page = await openIn(theme, size);
      await page.goto('/sincronizacoes');
      await page.getByRole('heading', { name: 'Sincronizações' }).waitFor();
      await page.getByText('Token Hiper recusado pelo Hiper', { exact: true }).first().waitFor();
      await page
        .getByText(
          'SKU 501: A Nuvemshop recusou o produto: The image must be a .gif, .jpg, .png or .webp file (e mais 1)',
          { exact: true },
        )
        .first()
        .waitFor();
      await page
        .getByText(`Aguardando nova tentativa: não foi possível falar com o Hiper (tentativa 2 de 8), às ${at}`, {
          exact: true,
        })
        .first()
        .waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/sync-errors-list-${size}-${theme}.png` });

      // The partial run's dialog: both errors, product by product.
      await page.getByText('Concluída com falhas').first().click();
      const dialog = page.getByRole('dialog', { name: 'Ver sincronização' });
      await dialog.waitFor();
      const items = dialog.getByRole('listitem');
      await expect.poll(() => items.count()).toBe(2);
      const texts = (await items.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
      expect(texts).toEqual(
        [501, 502].map(
          (codigo) =>
            `SKU ${codigo} A Nuvemshop recusou o produto: The image must be a .gif, .jpg, .png or .webp file ` +
            `Produto no Hiper: ${partial.account.product(codigo).id}`,
        ),
      );
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/sync-errors-dialog-${size}-${theme}.png`, animations: 'disabled' });

      // The waiting run's dialog says the same, and that it has no error yet.
      await dialog.getByRole('button', { name: 'Fechar' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('Sincronizando').first().click();
      await dialog.waitFor();
      await dialog
        .getByText(`Aguardando nova tentativa: não foi possível falar com o Hiper (tentativa 2 de 8), às ${at}`, {
          exact: true,
        })
        .waitFor();
      await dialog.getByText('Nenhum', { exact: true }).waitFor();
      await page.context().close();
    }
  });
});
