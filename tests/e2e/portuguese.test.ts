import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { APP_SECRET, ordersEnv, orderTools } from '../support/orders';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { deliverWebhook, startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { englishIn } from '../support/english';
import { browserSuite, openSignedIn, scrollsSideways, type SIZES } from './support/browser';

/**
 * Every screen staff use, walked after the product wrote its own notes there (an order held by a refused Token
 * Hiper, a run that failed on it, webhooks it handled, ignored and could not verify): what a person reads, and every
 * tooltip and label a screen reader reads, is Portuguese.
 */
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;
let su: string;
const open = browserSuite(
  async () => {
    [hiper, nuvemshop] = await Promise.all([startHiper(), startNuvemshopApi()]);
    t = await startTestGateway(ordersEnv(hiper, nuvemshop));
    su = await t.superuserToken();
    return t;
  },
  async () => {
    await Promise.all([hiper?.close(), nuvemshop?.close()]);
  },
);
const openIn = (theme: 'light' | 'dark', size: keyof typeof SIZES) => openSignedIn(open, theme, size);

/** Every screen of the sidebar, by its address and a text it shows once drawn (a list's heading). */
const SCREENS = [
  ['/', 'Desconectados'],
  ['/clientes', 'Gerenciar clientes'],
  ['/pedidos', 'Pedidos'],
  ['/sincronizacoes', 'Sincronizações'],
  ['/produtos-vinculados', 'Produtos vinculados'],
  ['/webhooks', 'Webhooks recebidos'],
  ['/webhooks-por-dia', 'Webhooks assinados por loja e dia'],
  ['/emails', 'E-mails'],
  ['/clientes-arquivados', 'Clientes arquivados'],
  ['/auditoria', 'Auditoria'],
  ['/saude', 'Saúde dos clientes'],
  ['/divergencias', 'Divergências entre a loja e o Hiper'],
] as const;

/** What a person and a screen reader read on the page: its text, every tooltip and every accessible label. */
const textsOf = (page: Page) =>
  page.evaluate(() => [
    document.body.innerText,
    ...Array.from(document.querySelectorAll('[title], [aria-label], [placeholder]')).flatMap((element) =>
      ['title', 'aria-label', 'placeholder'].map((name) => element.getAttribute(name) ?? ''),
    ),
  ]);

/** The texts of a page that hold English words, each with the words found. */
async function englishOn(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const text of await textsOf(page)) {
    for (const line of text.split('\n')) {
      // What the product is given, not what it says: store addresses, e-mail addresses, Nuvemshop's event names,
      // and ids (a uuid's `be`, a code's letters).
      const said = line.replace(/https?:\/\/\S+|\S+@\S+|\b[a-z_]+\/[a-z_]+\b|\S*\d\S*/g, '');
      const words = englishIn(said);
      if (words.length) found.push(`${line.trim()} [${words.join(' ')}]`);
    }
  }
  return found;
}

describe('every screen staff use', () => {
  it('speaks Portuguese in its lists, dialogs, tooltips and labels, the product’s own notes included', async () => {
    const tools = orderTools(t, su, hiper, nuvemshop);
    const c = await tools.clientWithCatalogue({ name: 'Loja da Ana' });
    // Hiper stops taking the key once the catalogue is in the store, and the bearer it issued lapses.
    hiper.refuseKey(c.account.key);
    await t.sql(`update sync_clients set hiper_bearer = null`);
    const order = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    expect(await tools.webhook(c.storeId, 'order/paid', order.id)).toBe(200);
    const held = await tools.waitForOrder(c.id, order.id, ['held']);
    expect(held.hold_reason).toBe('Token Hiper recusado pelo Hiper: corrija-o no cliente e use Reenviar.');
    expect((await tools.syncNow(c.id)).state).toBe('failed');
    // A store no client has, and a privacy request anyone could have posted.
    const unknown = await deliverWebhook(
      `${t.url}/api/v1/webhooks/nuvemshop`,
      { store_id: 999_999, event: 'order/paid', id: 1 },
      APP_SECRET,
    );
    expect(unknown).toBe(200);
    const unsigned = await t.request('POST', '/api/v1/webhooks/nuvemshop/store-redact', {
      json: { store_id: c.storeId },
    });
    expect(unsigned.status).toBe(200);
    await tools.settled();
    // The client's store locations read, for its Estoques screen.
    expect((await t.request('POST', `/api/v1/clients/${c.id}/locations/read`, { token: su })).status).toBe(202);
    await expect
      .poll(async () => (await t.request('GET', `/api/v1/locations/?client_id=${c.id}`, { token: su })).body.count)
      .toBeGreaterThan(0);
    const screens = [
      ...SCREENS,
      [`/estoques?filter=${encodeURIComponent(JSON.stringify({ client_id: c.id }))}`, 'Estoques de Loja da Ana'],
    ] as const;

    for (const [theme, size] of [
      ['light', 'desktop'],
      ['dark', 'phone'],
    ] as const) {
      const page = await openIn(theme, size);
      const english: string[] = [];
      for (const [path, heading] of screens) {
        await page.goto(path);
        await (path === '/' ? page.getByText(heading) : page.getByRole('heading', { name: heading })).first().waitFor();
        await page.getByRole('progressbar').waitFor({ state: 'detached' });
        // The references' names and the sidebar are read after the rows.
        await page.waitForLoadState('networkidle');
        english.push(...(await englishOn(page)).map((text) => `${path}: ${text}`));
        expect(await scrollsSideways(page), path).toBe(false);
        await page.screenshot({ path: `/tmp/portuguese${path.replace(/\W/g, '-')}-${size}-${theme}.png` });
        // The first record's dialog, where the list has one.
        const actions = page.getByRole('button', { name: /^Ações: / }).first();
        if (path !== '/' && (await actions.count())) {
          await actions.click();
          const menu = page
            .getByRole('menu')
            .filter({ has: page.getByRole('menuitem') })
            .last();
          await menu.waitFor();
          english.push(...(await englishOn(page)).map((text) => `${path} (menu): ${text}`));
          const see = menu.getByRole('menuitem', { name: /^(Ver|Editar) / }).first();
          if (!(await see.count())) {
            await page.keyboard.press('Escape');
            continue;
          }
          await see.click();
          const dialog = page.getByRole('dialog');
          await dialog.waitFor();
          english.push(...(await englishOn(page)).map((text) => `${path} (dialog): ${text}`));
          await dialog
            .getByRole('button', { name: /^(Fechar|Cancelar)$/ })
            .first()
            .click();
          await dialog.waitFor({ state: 'detached' });
        }
      }
      await page.goto('/pedidos');
      await page
        .getByRole('link', { name: /Loja da Ana/ })
        .first()
        .waitFor();
      await page.getByText('Token Hiper recusado pelo Hiper: corrija-o no cliente e use Reenviar.').first().waitFor();
      await page.goto('/webhooks');
      await page
        .getByRole('link', { name: /Loja da Ana/ })
        .first()
        .waitFor();
      await page.getByText(`Pedido ${order.id} registrado e na fila para o Hiper`).first().waitFor();
      await page.getByText('Nenhum cliente tem esta loja').first().waitFor();
      await page.getByText('Sem assinatura: registrado, nada apagado').first().waitFor();
      await page.goto('/sincronizacoes');
      await page.getByText('Token Hiper recusado pelo Hiper').first().waitFor();
      expect(english).toEqual([]);
      await page.context().close();
    }
  });
});
