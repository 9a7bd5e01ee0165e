import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUPERUSER, startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, login } from './support/browser';

/**
 * What staff meet on the screens beyond the lists' rows: references named by their titles in dialogs, a mail's kind in
 * words, `—` for nothing, one spelling of E-mails, a list's filter as a chip, store tokens masked, and the build's
 * /login telling an empty field as the app does.
 */
let t: TestGateway;
let token: string;
let clientId: string;
const URL_A = 'https://loja-dos-detalhes.example.com';
const URL_B = 'https://outra-loja.example.com';
const open = browserSuite(async () => {
  t = await startTestGateway({
    HIPER_API_URL: 'http://127.0.0.1:9/api/v1',
    SYNC_CATALOGUE_CRON: '0 0 1 1 *',
    SYNC_FULL_READ_CRON: '0 0 1 1 *',
    SYNC_STOCK_INTERVAL_SECONDS: '86400',
  });
  token = await t.superuserToken();
  const ids: string[] = [];
  for (const [url, hiper] of [
    [URL_A, 'segredo-hiper-0123456789'],
    [URL_B, null],
  ] as const) {
    const created = await t.request('POST', '/api/v1/clients/', { token, json: { url, hiper_token: hiper } });
    expect(created.status, created.text).toBe(200);
    ids.push(created.body.id);
  }
  clientId = ids[0];
  for (const id of ids) {
    await t.sql(
      `insert into sync_runs (id, client_id, kind, trigger, state, queued_at, errors)
       values (gen_random_uuid(), $1, 'catalogue', 'manual', 'succeeded', now(), '[]')`,
      [id],
    );
    await t.sql(
      `insert into product_links (id, client_id, hiper_id, sku, name, nuvemshop_product_id, nuvemshop_variant_id)
       values (gen_random_uuid(), $1, $2, $2, 'Tênis — Azul / 42', 1, 2)`,
      [id, id === clientId ? '501' : '502'],
    );
  }
  await t.request('POST', `/api/v1/password-recovery/${encodeURIComponent(SUPERUSER.email)}`);
  return t;
});

const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
const COMBOS = [
  ['light', 'desktop'],
  ['dark', 'desktop'],
  ['light', 'phone'],
  ['dark', 'phone'],
] as const;

async function signedIn(theme: 'light' | 'dark' = 'light', size: keyof typeof SIZES = 'desktop') {
  const page = await open(SIZES[size]);
  await page.context().addInitScript((chosen) => {
    localStorage.setItem('RaStoreSistemaIntegracao.theme', JSON.stringify(chosen));
  }, theme);
  await login(page, SUPERUSER.email, SUPERUSER.password);
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/staff-shots/${name}.png` });
const sideways = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth > window.innerWidth);

describe('names, not ids', () => {
  for (const [theme, size] of COMBOS)
    it(`a run's and a linked product's dialog name their client by a link to it (${theme}, ${size})`, async () => {
      const page = await signedIn(theme, size);
      for (const [path, heading, action] of [
        ['/sincronizacoes', 'Sincronizações', 'Ver sincronização'],
        ['/produtos-vinculados', 'Produtos vinculados', 'Ver produto vinculado'],
      ]) {
        await page.goto(`${path}?filter=${encodeURIComponent(JSON.stringify({ client_id: clientId }))}`);
        await page.getByRole('heading', { name: heading }).waitFor();
        await page
          .getByRole('button', { name: /^Ações: / })
          .first()
          .click();
        await page.getByRole('menuitem').first().click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('link', { name: URL_A }).waitFor();
        expect(await dialog.textContent()).not.toContain(clientId);
        if (path === '/produtos-vinculados') await dialog.getByText('Tênis — Azul / 42').first().waitFor();
        await shot(page, `dialog${path.replace('/', '-')}-${size}-${theme}`);
        expect(await sideways(page)).toBe(false);
        void action;
        await dialog.getByRole('link', { name: URL_A }).click();
        await page.getByRole('heading', { name: 'Gerenciar clientes' }).waitFor();
      }
    });
});

describe('the smaller things', () => {
  for (const [theme, size] of COMBOS)
    it(`reads a mail's kind in words, — for nothing, and E-mails alike on the card and the sidebar (${theme}, ${size})`, async () => {
      const page = await signedIn(theme, size);
      await page.goto('/emails');
      await page.getByRole('heading', { name: 'E-mails' }).waitFor();
      await page.getByText('Recuperação de senha').first().waitFor();
      expect(await page.getByText('password-recovery', { exact: true }).count()).toBe(0);
      await shot(page, `emails-${size}-${theme}`);
      await page.goto('/clientes');
      await page.getByRole('heading', { name: 'Gerenciar clientes' }).waitFor();
      await page
        .getByRole('button', { name: /^Ações: / })
        .first()
        .waitFor();
      // Never synced, with no store name: nothing, as a dash.
      await page.getByText('—', { exact: true }).first().waitFor();
      expect(await page.getByText('N/A', { exact: true }).count()).toBe(0);
      expect(await sideways(page)).toBe(false);
      await shot(page, `clients-${size}-${theme}`);
      if (size === 'desktop') {
        await page.goto('/');
        await page
          .getByRole('navigation')
          .or(page.locator('.RaSidebar-fixed'))
          .getByText('E-mails', { exact: true })
          .first()
          .waitFor();
        expect(await page.getByText(/^Emails/).count()).toBe(0);
      }
    });

  for (const [theme, size] of COMBOS)
    it(`shows a list filtered from a row menu as a chip that removes the filter (${theme}, ${size})`, async () => {
      const page = await signedIn(theme, size);
      await page.goto('/clientes');
      await page.getByRole('button', { name: `Ações: ${URL_A}` }).click();
      await page.getByRole('menuitem', { name: 'Sincronizações' }).click();
      await page.getByRole('heading', { name: 'Sincronizações' }).waitFor();
      const chip = page.getByRole('button', { name: `Cliente: ${URL_A}` });
      await chip.waitFor();
      const clients = page.getByRole('link', { name: URL_B });
      expect(await clients.count()).toBe(0);
      await shot(page, `filter-chip-${size}-${theme}`);
      expect(await sideways(page)).toBe(false);
      await chip.locator('.MuiChip-deleteIcon').click();
      await chip.waitFor({ state: 'detached' });
      await clients.first().waitFor();
      expect(decodeURIComponent(page.url())).not.toContain(clientId);
    });

  for (const [theme, size] of COMBOS)
    it(`masks a store's tokens in the edit dialog, with a toggle to show them (${theme}, ${size})`, async () => {
      const page = await signedIn(theme, size);
      await page.goto('/clientes');
      await page.getByRole('button', { name: `Ações: ${URL_A}` }).click();
      await page.getByRole('menuitem', { name: 'Editar cliente' }).click();
      const dialog = page.getByRole('dialog', { name: 'Editar cliente' });
      const field = dialog.getByLabel('Token Hiper', { exact: true });
      await expect.poll(() => field.inputValue()).toBe('segredo-hiper-0123456789');
      expect(await field.getAttribute('type')).toBe('password');
      expect(await dialog.getByLabel('Token Nuvemshop', { exact: true }).getAttribute('type')).toBe('password');
      await shot(page, `client-edit-masked-${size}-${theme}`);
      await dialog
        .getByRole('button', { name: /mostrar senha|show password/i })
        .first()
        .click();
      expect(await field.getAttribute('type')).toBe('text');
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
    });
});

describe("the build's /login", () => {
  for (const [theme, size] of COMBOS)
    it(`tells an Email left empty before the app is up, and the app goes on telling it (${theme}, ${size})`, async () => {
      const page = await open(SIZES[size]);
      await page.context().addInitScript((chosen) => {
        localStorage.setItem('RaStoreSistemaIntegracao.theme', JSON.stringify(chosen));
      }, theme);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/admin-[\w-]+\.js$/, async (route) => {
        await released;
        await route.continue();
      });
      await page.goto('/login');
      await page.getByRole('heading', { name: 'Login' }).waitFor();
      await page.getByLabel('Email').click();
      await page.keyboard.press('Tab');
      // Still the build's page: its message, as the app shows it.
      await page.locator('#prerendered').getByText('Email é obrigatório').waitFor();
      expect(await page.locator('#prerendered input[name="username"]').getAttribute('aria-invalid')).toBe('true');
      await shot(page, `login-prerendered-${size}-${theme}`);
      release();
      await page.locator('#prerendered').waitFor({ state: 'detached' });
      await page.getByText('Email é obrigatório').waitFor();
      // Typed in, the message goes.
      await page.getByLabel('Email').fill(SUPERUSER.email);
      await page.keyboard.press('Tab');
      await page.getByText('Email é obrigatório').waitFor({ state: 'detached' });
    });
});
