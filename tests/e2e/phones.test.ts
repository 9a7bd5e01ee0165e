import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUPERUSER, startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, login } from './support/browser';

/**
 * Every list screen as a phone and a desktop show it: no translation key shown in place of its text in any row menu
 * or dialog, the toolbar's tools on one row, the clients' headings whole, and icon buttons named even when disabled.
 */
let t: TestGateway;
const open = browserSuite(async () => {
  // The platforms nowhere to be reached, and nothing run on a schedule: a run asked for only waits to retry.
  t = await startTestGateway({
    HIPER_API_URL: 'http://127.0.0.1:9/api/v1',
    SYNC_CATALOGUE_CRON: '0 0 1 1 *',
    SYNC_FULL_READ_CRON: '0 0 1 1 *',
    SYNC_STOCK_INTERVAL_SECONDS: '86400',
  });
  return t;
});

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const SCREENS = [
  ['/clientes', 'Gerenciar clientes'],
  ['/sincronizacoes', 'Sincronizações'],
  ['/produtos-vinculados', 'Produtos vinculados'],
  ['/webhooks', 'Webhooks recebidos'],
  ['/emails', 'E-mails'],
  ['/auditoria', 'Auditoria'],
  ['/items', 'Items Management'],
  ['/admin', 'Users Management'],
] as const;

/** A row on every list: a client with a run, a linked product and a webhook; an item; a mail; another user. */
async function seed() {
  const token = await t.superuserToken();
  const client = await t.request('POST', '/api/v1/clients/', {
    token,
    json: {
      url: 'https://loja-de-telefone.example.com',
      name: 'Loja de Telefone',
      hiper_token: 'h'.repeat(40),
      nuvemshop_token: 'n'.repeat(40),
      nuvemshop_store_id: 5151,
    },
  });
  expect(client.status, client.text).toBe(200);
  const id = client.body.id as string;
  await t.sql(
    `insert into sync_runs (id, client_id, kind, trigger, state, queued_at, errors)
     values (gen_random_uuid(), $1, 'catalogue', 'manual', 'succeeded', now(), '[]')`,
    [id],
  );
  await t.sql(
    `insert into product_links (id, client_id, hiper_id, sku, name, nuvemshop_product_id, nuvemshop_variant_id)
     values (gen_random_uuid(), $1, '11', '3001', 'Caneta azul', 1, 2)`,
    [id],
  );
  await t.sql(
    `insert into webhook_events (id, event, store_id, client_id, received_at, delivery_key)
     values (gen_random_uuid(), 'app/resumed', 5151, $1, now(), 'telefone-1')`,
    [id],
  );
  await t.request('POST', '/api/v1/items/', { token, json: { title: 'Caderno', description: 'Azul' } });
  await t.createUser('outra-pessoa@example.com', 'a-good-password');
  await t.request('POST', `/api/v1/password-recovery/${encodeURIComponent('outra-pessoa@example.com')}`);
}

async function signedIn(viewport: { width: number; height: number }, theme: 'light' | 'dark' = 'light') {
  const page = await open(viewport);
  await page.context().addInitScript((chosen) => {
    localStorage.setItem('RaStoreSistemaIntegracao.theme', JSON.stringify(chosen));
  }, theme);
  await login(page, SUPERUSER.email, SUPERUSER.password);
  return page;
}

/** Texts shaped like a translation key (`resources.sincronizacoes.menu`, `ra.action.export`), anywhere visible. */
async function keysShown(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => document.body.innerText);
  const names = await page.evaluate(() =>
    Array.from(document.querySelectorAll('[aria-label], [title], [placeholder]')).map((e) =>
      ['aria-label', 'title', 'placeholder'].map((a) => e.getAttribute(a) ?? '').join(' '),
    ),
  );
  return [text, ...names].flatMap((t) => t.match(/\b(resources|ra|app)\.[\w-]+(\.[\w-]+)+/g) ?? []);
}

/** The row menu of the screen's first row, opened. */
async function openFirstRowMenu(page: Page) {
  // The first one that opens: the signed-in user's own row has none.
  await page
    .getByRole('button', { name: /^(Ações|Actions): / })
    .and(page.locator(':enabled'))
    .first()
    .click();
  await page.getByRole('menuitem').first().waitFor();
}

let seeded = false;

describe('on a phone', () => {
  it('no row menu, dialog or screen shows a translation key instead of its text', async () => {
    if (!seeded) await seed();
    seeded = true;
    const page = await signedIn(PHONE);
    for (const [path, heading] of SCREENS) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading }).waitFor();
      await openFirstRowMenu(page);
      const items = await page.getByRole('menuitem').allTextContents();
      expect(await keysShown(page), `${path}: its row menu`).toEqual([]);
      await page.keyboard.press('Escape');
      for (const item of items) {
        await page.goto(path);
        await page.getByRole('heading', { name: heading }).waitFor();
        await openFirstRowMenu(page);
        await page.getByRole('menuitem', { name: item, exact: true }).click();
        // A dialog opens, or another list, or a toast tells what happened.
        await page.waitForTimeout(700);
        expect(await keysShown(page), `${path}: ${item}`).toEqual([]);
      }
      // The add dialog, where the screen has one.
      await page.goto(path);
      await page.getByRole('heading', { name: heading }).waitFor();
      const add = page.getByRole('button', { name: /^(Adicionar|Add)/ });
      if (await add.count()) {
        await add.first().click();
        await page.getByRole('dialog').waitFor();
        expect(await keysShown(page), `${path}: add`).toEqual([]);
      }
    }
  });

  it("names a client's other lists in its row menu however late the sidebar's texts come", async () => {
    if (!seeded) await seed();
    seeded = true;
    const page = await signedIn(PHONE);
    // The texts of the other screens, on a slow line: the sidebar loads them all once the first screen is painted.
    await page.route(/\/assets\/(sincronizacoes|produtos-vinculados|webhooks)-[\w-]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 4000));
      await route.continue();
    });
    await page.goto('/clientes');
    await page.getByRole('heading', { name: 'Gerenciar clientes' }).waitFor();
    await openFirstRowMenu(page);
    expect(await keysShown(page)).toEqual([]);
    for (const name of ['Sincronizações', 'Produtos vinculados', 'Webhooks'])
      await page.getByRole('menuitem', { name, exact: true }).waitFor();
  });

  it("keeps the toolbar's export beside the other tools, on every list, on a phone and a desktop", async () => {
    if (!seeded) await seed();
    seeded = true;
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await signedIn(viewport);
      for (const [path, heading] of SCREENS) {
        await page.goto(path);
        await page.getByRole('heading', { name: heading }).waitFor();
        const exporter = page.getByRole('button', { name: /^(Exportar|Export)$/ });
        await exporter.waitFor();
        await page.waitForTimeout(300);
        const box = (await exporter.boundingBox())!;
        // Every other control of the toolbar (its filters, the add button) sits on the export's row.
        const toolbar = page
          .locator('.RaList-actions .MuiToolbar-root, .RaList-actions [class*="RaTopToolbar"]')
          .first();
        const others = await toolbar.evaluate((bar, exportTop) => {
          const controls = Array.from(bar.querySelectorAll('button, input, [role="combobox"]')).filter(
            (e) => (e as HTMLElement).offsetParent !== null,
          );
          return controls.map((e) => {
            const r = e.getBoundingClientRect();
            return { name: e.getAttribute('aria-label') ?? e.textContent, center: r.top + r.height / 2, exportTop };
          });
        }, box.y);
        // Nothing of it reaches past the page's right edge (over the export, or off the screen).
        const right = await toolbar.evaluate((bar) =>
          Math.max(...Array.from(bar.querySelectorAll('*')).map((e) => e.getBoundingClientRect().right)),
        );
        expect(right, `${path} ${viewport.width}: the toolbar's right edge`).toBeLessThanOrEqual(viewport.width);
        for (const other of others)
          expect(
            Math.abs(other.center - (box.y + box.height / 2)),
            `${path} ${viewport.width}: ${other.name}`,
          ).toBeLessThan(box.height);
        await page.screenshot({ path: `/tmp/staff-shots/toolbar${path.replace(/\//g, '-')}-${viewport.width}.png` });
      }
      await page.context().close();
    }
  });
});

describe('on a desktop', () => {
  for (const theme of ['light', 'dark'] as const)
    it(`shows every heading of the clients' table whole, none under the actions column (${theme})`, async () => {
      if (!seeded) await seed();
      seeded = true;
      // A client with every column filled, its store name and address long.
      const token = await t.superuserToken();
      await t.request('POST', '/api/v1/clients/', {
        token,
        json: {
          url: `https://uma-loja-com-um-endereco-bem-comprido-${theme}.exemplo-de-loja.com.br`,
          name: 'Uma loja com um nome bastante comprido',
          hiper_token: 'h'.repeat(40),
          nuvemshop_token: 'n'.repeat(40),
          nuvemshop_store_id: theme === 'light' ? 5252 : 5353,
        },
      });
      await t.sql(`update clients set last_synced_at = now(), sync_state = 'idle' where nuvemshop_store_id = $1`, [
        theme === 'light' ? 5252 : 5353,
      ]);
      const page = await signedIn(DESKTOP, theme);
      await page.goto('/clientes');
      const table = page.getByRole('table', { name: 'Clientes' });
      await table
        .getByRole('button', { name: /^Ações: / })
        .first()
        .waitFor();
      await page.waitForTimeout(300);
      const headings = await table.locator('thead th').evaluateAll((cells) => {
        const sticky = cells.find((c) => c.classList.contains('actions-column'))!.getBoundingClientRect();
        return cells
          .filter((c) => !c.classList.contains('actions-column'))
          .map((c) => {
            const r = c.getBoundingClientRect();
            const words =
              Array.from(c.querySelectorAll('span, div')).find((e) => e.textContent && !e.children.length) ?? c;
            return {
              text: c.textContent,
              underActions: r.right > sticky.left + 0.5,
              clipped: words.scrollWidth > words.clientWidth + 0.5,
            };
          });
      });
      await page.screenshot({ path: `/tmp/staff-shots/clients-table-1440-${theme}.png` });
      for (const heading of headings) {
        expect(heading.underActions, `${heading.text} under the actions column`).toBe(false);
        expect(heading.clipped, `${heading.text} clipped`).toBe(false);
      }
    });
});

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

describe('an icon-only button', () => {
  it('has an accessible name, disabled or not (/items on a phone, the list empty)', async () => {
    await t.sql('delete from items');
    const page = await signedIn(PHONE);
    await page.goto('/items');
    await page.getByRole('heading', { name: 'Items Management' }).waitFor();
    await page.getByText("You don't have any items yet.").waitFor();
    await page.evaluate(axeSource);
    const nameless = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
      const result = await axe.run(document, { runOnly: { type: 'rule', values: ['button-name'] } });
      return result.violations.flatMap((v) => v.nodes.map((n) => n.html));
    });
    expect(nameless).toEqual([]);
    await page.getByRole('button', { name: 'Export' }).waitFor();
    expect(await page.getByRole('button', { name: 'Export' }).isDisabled()).toBe(true);
  });
});
