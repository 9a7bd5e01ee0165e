import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { LOCATIONS_APP_SECRET } from '../support/locations';
import { startNuvemshopApi, type NuvemshopApiStandIn, type StandInStore } from '../support/standins/nuvemshop-api';
import { browserSuite, expectToast, openSignedIn, scrollsSideways, type SIZES } from './support/browser';

/**
 * The Estoques screen as staff use it: opened from a client's row menu, the store's locations read, put in a new
 * order (by keyboard) and saved to the store, one made the default, a Hiper key given and seen masked after a reload,
 * a location deleted in the store marked and not movable, a refusal of the store told in Portuguese. A real gateway
 * and its workers against the Nuvemshop stand-in, the built admin in Chromium, on a desktop and a phone, light and dark.
 */
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;
let su: string;
let nextStore = 9700;

const open = browserSuite(
  async () => {
    nuvemshop = await startNuvemshopApi();
    t = await startTestGateway({
      NUVEMSHOP_API_URL: nuvemshop.url,
      NUVEMSHOP_CLIENT_SECRET: LOCATIONS_APP_SECRET,
      SYNC_CATALOGUE_CRON: '0 0 1 1 *',
      SYNC_FULL_READ_CRON: '0 0 1 1 *',
      SYNC_STOCK_INTERVAL_SECONDS: '86400',
    });
    su = await t.superuserToken();
    nuvemshop.sendWebhooksTo({ url: t.url, secret: LOCATIONS_APP_SECRET });
    return t;
  },
  async () => {
    await nuvemshop?.close();
  },
);

/** A client whose store has three locations, none read yet. */
async function storeClient(name: string) {
  const storeId = nextStore++;
  const store = nuvemshop.addStore(storeId);
  store.locations[0].name = 'Loja';
  store.addLocation('Depósito');
  store.addLocation('Outlet');
  const created = await t.request('POST', '/api/v1/clients/', {
    token: su,
    json: {
      url: `https://estoques${storeId}.example.com`,
      name,
      hiper_token: `hiper-key-of-${storeId}`,
      nuvemshop_token: store.token,
      nuvemshop_store_id: storeId,
    },
  });
  expect(created.status, created.text).toBe(200);
  return { id: created.body.id as string, store };
}

const storeOrder = (store: StandInStore) => store.stockLocations.byPriority().map((l) => l.name);

/** The screen's rows (the desktop's table rows, or the phone's list items), by the location they name. */
const rowOf = (page: Page, name: string) =>
  page
    .getByRole('table', { name: /^Estoques de / })
    .getByRole('row')
    .or(page.getByRole('list', { name: /^Estoques de / }).getByRole('listitem'))
    .filter({ hasText: name });

const namesShown = (page: Page) =>
  page
    .getByRole('table', { name: /^Estoques de / })
    .getByRole('row')
    .or(page.getByRole('list', { name: /^Estoques de / }).getByRole('listitem'))
    .evaluateAll((rows) =>
      rows
        .map((row) => row.textContent ?? '')
        .filter((text) => /Loja|Depósito|Outlet|Quiosque/.test(text))
        .map((text) => /Loja|Depósito|Outlet|Quiosque/.exec(text)![0]),
    );

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's WCAG 2.0/2.1 A and AA violations on the page as it is now (label in name included). */
async function violations(page: Page): Promise<string[]> {
  // What stays, measured: the transitions ended and no read in flight. The screen reads its rows again every few
  // seconds, and react-admin's loading indicator in the app bar (a spinner it names nowhere, on every screen) may come
  // during a scan: that scan is made again.
  for (let scan = 1; ; scan++) {
    await page.waitForTimeout(400);
    await page.getByRole('progressbar').waitFor({ state: 'detached' });
    const found = await scanned(page);
    if (scan === 3 || !found.some((v) => v.startsWith('aria-progressbar-name: .MuiCircularProgress-root')))
      return found;
  }
}

async function scanned(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      rules: { 'label-content-name-mismatch': { enabled: true } },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

async function shoot(page: Page, name: string) {
  expect(await scrollsSideways(page), name).toBe(false);
  await page.screenshot({ path: `/tmp/locations-${name}.png`, fullPage: true });
}

describe('Estoques', () => {
  for (const [theme, size] of [
    ['light', 'desktop'],
    ['dark', 'phone'],
    ['dark', 'desktop'],
    ['light', 'phone'],
  ] as const satisfies readonly ['light' | 'dark', keyof typeof SIZES][]) {
    it(`reads, reorders, makes a default and keeps a key masked (${size}, ${theme})`, async () => {
      const clientName = `Loja da Ana ${size} ${theme}`;
      const c = await storeClient(clientName);
      const page = await openSignedIn(open, theme, size);
      const shot = (step: string) => shoot(page, `${size}-${theme}-${step}`);

      // From the client's row menu, the client's own Estoques, named by the client.
      await page.goto('/clientes');
      await page
        .getByRole('button', { name: `Ações: ${clientName} (https://` })
        .first()
        .click();
      await page.getByRole('menuitem', { name: 'Estoques', exact: true }).click();
      await page.getByRole('heading', { name: `Estoques de ${clientName}` }).waitFor();
      await page.getByText('Nenhum estoque lido da loja ainda: use “Ler estoques da loja”.').waitFor();
      await shot('empty');

      await page.getByRole('button', { name: 'Ler estoques da loja' }).click();
      await expectToast(
        page,
        'Leitura dos estoques agendada',
        `Os estoques da loja de ${clientName} serão lidos em instantes.`,
      );
      await rowOf(page, 'Outlet').waitFor({ timeout: 15_000 });
      expect(await namesShown(page)).toEqual(['Loja', 'Depósito', 'Outlet']);
      await rowOf(page, 'Loja').getByText('Padrão', { exact: true }).waitFor();
      await rowOf(page, 'Loja').getByText('Nunca sincronizado').waitFor();
      expect(await violations(page)).toEqual([]);
      await shot('read');

      // Outlet to the top, by keyboard: the focus stays on its button, which then moves it again.
      const up = page.getByRole('button', { name: 'Mover Outlet para cima' });
      await up.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => namesShown(page)).toEqual(['Loja', 'Outlet', 'Depósito']);
      expect(await up.evaluate((button) => button === document.activeElement)).toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => namesShown(page)).toEqual(['Outlet', 'Loja', 'Depósito']);
      // At the top, moving up is no longer offered: the focus went to moving it down.
      expect(await up.isDisabled()).toBe(true);
      expect(
        await page
          .getByRole('button', { name: 'Mover Outlet para baixo' })
          .evaluate((button) => button === document.activeElement),
      ).toBe(true);
      await page.getByText('A nova ordem ainda não foi salva.').waitFor();
      expect(storeOrder(c.store)).toEqual(['Loja', 'Depósito', 'Outlet']);
      await shot('moved');
      await page.getByRole('button', { name: 'Salvar ordem' }).click();
      await expectToast(page, 'Ordem salva', 'A Nuvemshop aceitou a nova ordem dos estoques.');
      expect(storeOrder(c.store)).toEqual(['Outlet', 'Loja', 'Depósito']);
      await page.getByText('A nova ordem ainda não foi salva.').waitFor({ state: 'detached' });

      // Depósito the default: marked, in the store too.
      await page.getByRole('button', { name: 'Tornar padrão: Depósito' }).click();
      await expectToast(page, 'Estoque padrão', 'Depósito agora é o estoque padrão da loja.');
      await rowOf(page, 'Depósito').getByText('Padrão', { exact: true }).waitFor();
      expect(await rowOf(page, 'Loja').getByText('Padrão', { exact: true }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Tornar padrão: Depósito' }).count()).toBe(0);
      expect(c.store.stockLocations.default?.name).toBe('Depósito');

      // A refusal of the store, in Portuguese: without write_locations it answers 403.
      c.store.scopes.delete('write_locations');
      await page.getByRole('button', { name: 'Tornar padrão: Loja' }).click();
      await expectToast(
        page,
        'A Nuvemshop não aceitou o novo estoque padrão',
        'A Nuvemshop recusou o novo estoque padrão: falta ao aplicativo a permissão write_locations (HTTP 403): ' +
          'instale o aplicativo na loja de novo para concedê-la. Nada foi alterado.',
      );
      c.store.scopes.add('write_locations');
      expect(c.store.stockLocations.default?.name).toBe('Depósito');

      // Its Hiper key, in its dialog with its (still empty) movements.
      const key = `chave-secreta-do-deposito-${size}-${theme}-9d2c`;
      await page.getByRole('button', { name: 'Editar Depósito' }).click();
      const dialog = page.getByRole('dialog', { name: 'Editar estoque: Depósito' });
      await dialog.waitFor();
      await dialog.getByText('Nenhum movimento de estoque ainda.').waitFor();
      expect(await violations(page)).toEqual([]);
      await dialog.getByLabel('Chave do Hiper').fill(key);
      await shot('dialog');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await expectToast(page, 'Sucesso', 'Estoque salvo.');
      await dialog.waitFor({ state: 'detached' });
      await rowOf(page, 'Depósito').getByText('Definida (••••••••9d2c)').waitFor();

      await page.reload();
      await rowOf(page, 'Depósito').getByText('Definida (••••••••9d2c)').waitFor();
      await page.getByRole('button', { name: 'Editar Depósito' }).click();
      await dialog.waitFor();
      const input = dialog.getByLabel('Chave do Hiper');
      expect(await input.inputValue()).toBe('••••••••9d2c');
      await dialog.getByRole('button', { name: 'Mostrar a chave' }).click();
      expect(await input.getAttribute('type')).toBe('text');
      expect(await input.inputValue()).toBe('••••••••9d2c');
      expect(await page.content()).not.toContain(key);
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await dialog.waitFor({ state: 'detached' });

      // A location the store deletes: marked, last, not movable; a new one appears.
      const outlet = c.store.locations.find((l) => l.name === 'Outlet')!;
      await c.store.stockLocations.remove(outlet.id);
      await c.store.stockLocations.add('Quiosque');
      await rowOf(page, 'Outlet').getByText('Apagado na loja').waitFor({ timeout: 15_000 });
      await rowOf(page, 'Quiosque').waitFor({ timeout: 15_000 });
      expect(await namesShown(page)).toEqual(['Loja', 'Depósito', 'Quiosque', 'Outlet']);
      expect(await page.getByRole('button', { name: /^Mover Outlet/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Tornar padrão: Outlet' }).count()).toBe(0);
      expect(await violations(page)).toEqual([]);
      await shot('final');
      expect(await page.content()).not.toContain(key);
    }, 120_000);
  }
});
