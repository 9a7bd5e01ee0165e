import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUPERUSER, startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, login } from './support/browser';

/**
 * Every screen and dialog checked by axe-core against WCAG 2.0 and 2.1, levels A and AA, on a desktop and on a
 * phone, in the light and the dark appearance: any violation fails, listed by screen, rule and element.
 */
let t: TestGateway;
const USER = { email: 'leitor-de-tela@example.com', password: 'a-good-password' };
const open = browserSuite(async () => {
  t = await startTestGateway();
  const token = await t.superuserToken();
  const clients: string[] = [];
  for (const url of ['https://loja-um.example.com', 'https://loja-dois.example.com']) {
    const answer = await t.request('POST', '/api/v1/clients/', { token, json: { url } });
    if (answer.status !== 200) throw new Error(answer.text);
    clients.push((answer.body as { id: string }).id);
  }
  // A sync run, a product link and a received webhook of a client, stored as their workers would.
  await t.sql(
    `insert into sync_runs (id, client_id, kind, trigger, state, queued_at, errors)
     values (gen_random_uuid(), $1, 'catalogue', 'manual', 'succeeded', now(), '[]')`,
    [clients[0]],
  );
  await t.sql(
    `insert into product_links (id, client_id, hiper_id, sku, name, nuvemshop_product_id, nuvemshop_variant_id)
     values (gen_random_uuid(), $1, '11', '3001', 'Caneta azul', 1, 2)`,
    [clients[0]],
  );
  await t.sql(
    `insert into webhook_events (id, event, store_id, client_id, received_at, delivery_key)
     values (gen_random_uuid(), 'app/resumed', 1, $1, now(), 'a11y-delivery')`,
    [clients[0]],
  );
  for (const title of ['Caneta', 'Caderno']) {
    const answer = await t.request('POST', '/api/v1/items/', { token, json: { title, description: 'Azul' } });
    if (answer.status !== 200) throw new Error(answer.text);
  }
  await t.createUser(USER.email, USER.password);
  // A mail in the queue, for the E-mails screen and its show dialog.
  await t.request('POST', `/api/v1/password-recovery/${encodeURIComponent(USER.email)}`);
  return t;
});

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; summary: string }[];
}

/** Runs axe on the page as it is now; answers each violation with the elements it names. */
async function axe(page: Page): Promise<Finding[]> {
  // Evaluated through the debugging protocol: the app's Content-Security-Policy does not apply.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      // WCAG 2.5.3 (label in name), A: still marked experimental in axe, so off unless asked for.
      rules: { 'label-content-name-mismatch': { enabled: true } },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target.join(' '),
        summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
      })),
    }));
  }, TAGS);
}

/** Waits for MUI's transitions (dialogs, menus, drawers) to settle, so what axe measures is what stays. */
const settle = (page: Page) => page.waitForTimeout(400);

/** A walk's scans, and what each found. */
class Walk {
  readonly found: string[] = [];
  readonly scanned: string[] = [];
  constructor(private page: Page) {}

  async scan(name: string) {
    await settle(this.page);
    this.scanned.push(name);
    for (const finding of await axe(this.page)) {
      this.found.push(
        `${name}: ${finding.id} (${finding.impact}) ${finding.help}\n` +
          finding.nodes.map((n) => `    ${n.target}\n      ${n.summary}`).join('\n'),
      );
    }
  }
}

const LIGHT_AND_DARK = ['light', 'dark'] as const;
const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };

async function openIn(theme: (typeof LIGHT_AND_DARK)[number], size: keyof typeof SIZES) {
  const page = await open(SIZES[size]);
  // The appearance the settings' toggle stores (react-admin's store: `RaStore<appKey>.theme`), set before any load.
  await page.context().addInitScript((chosen) => {
    if (!localStorage.getItem('RaStoreSistemaIntegracao.theme'))
      localStorage.setItem('RaStoreSistemaIntegracao.theme', JSON.stringify(chosen));
  }, theme);
  return page;
}

/** Opens a record's row menu (in the table or the phone's list) and chooses `action`. */
async function fromRowMenu(page: Page, menuName: RegExp, action: string) {
  await page.getByRole('button', { name: menuName }).first().click();
  await page.getByRole('menuitem', { name: action }).click();
}

async function closeDialog(page: Page, dialog: Locator) {
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

interface ListScreen {
  path: string;
  title: string;
  actions: string;
  create?: string;
  edit: string;
  remove?: string;
}

const LISTS: ListScreen[] = [
  {
    path: '/clientes',
    title: 'Gerenciar clientes',
    actions: 'Ações',
    create: 'Adicionar Cliente',
    edit: 'Editar cliente',
    remove: 'Deletar cliente',
  },
  {
    path: '/items',
    title: 'Items Management',
    actions: 'Actions',
    create: 'Adicionar Item',
    edit: 'Editar Item',
    remove: 'Deletar Item',
  },
  {
    path: '/admin',
    title: 'Users Management',
    actions: 'Actions',
    create: 'Add User',
    edit: 'Edit User',
    remove: 'Delete User',
  },
  { path: '/emails', title: 'E-mails', actions: 'Ações', edit: 'Ver e-mail' },
  { path: '/sincronizacoes', title: 'Sincronizações', actions: 'Ações', edit: 'Ver sincronização' },
  { path: '/produtos-vinculados', title: 'Produtos vinculados', actions: 'Ações', edit: 'Ver produto vinculado' },
  { path: '/webhooks', title: 'Webhooks recebidos', actions: 'Ações', edit: 'Ver webhook' },
];

async function walkLists(page: Page, walk: Walk, desktop: boolean) {
  for (const list of LISTS) {
    await page.goto(list.path);
    await page.getByRole('heading', { name: list.title }).waitFor();
    const menus = page.getByRole('button', { name: new RegExp(`^${list.actions}: `) });
    await menus.first().waitFor();
    await walk.scan(list.path);

    if (list.create) {
      await page.getByRole('button', { name: list.create }).click();
      const dialog = page.getByRole('dialog', { name: list.create });
      await dialog.waitFor();
      await walk.scan(`${list.path} ${list.create}`);
      // Saved empty: the required fields' errors, in red, one of them focused.
      const save = dialog.getByRole('button', { name: /^(Save|Salvar)$/ });
      if (await save.isEnabled()) {
        await save.click();
        await dialog
          .getByText(/obrigatóri|required|confirm your password/i)
          .first()
          .waitFor();
        await walk.scan(`${list.path} ${list.create} with errors`);
      }
      await closeDialog(page, dialog);
    }

    // Not the signed-in user's own row, whose menu is disabled.
    const other = new RegExp(`^${list.actions}: (?!${SUPERUSER.email})`);
    await page.getByRole('button', { name: other }).first().click();
    await page.getByRole('menuitem', { name: list.edit }).waitFor();
    await walk.scan(`${list.path} row menu`);
    await page.getByRole('menuitem', { name: list.edit }).click();
    const edit = page.getByRole('dialog', { name: list.edit });
    await edit.waitFor();
    await walk.scan(`${list.path} ${list.edit}`);
    await closeDialog(page, edit);

    if (list.remove) {
      await fromRowMenu(page, other, list.remove);
      const confirm = page.getByRole('dialog', { name: list.remove });
      await confirm.waitFor();
      await walk.scan(`${list.path} ${list.remove}`);
      await closeDialog(page, confirm);
    }

    if (desktop && list.remove) {
      // A selected row: the bulk actions' toolbar.
      const selectable = page.locator('tbody input[type="checkbox"]:not([disabled])');
      await selectable.first().check();
      await walk.scan(`${list.path} with a row selected`);
      await page
        .locator('[class*="RaBulkActionsToolbar"] button')
        .filter({ hasText: /^(Delete|Deletar|Excluir)$/ })
        .click();
      const bulk = page.getByRole('dialog', { name: list.remove });
      await bulk.waitFor();
      await walk.scan(`${list.path} bulk delete confirmation`);
      await closeDialog(page, bulk);
      await selectable.first().uncheck();
    }
  }
}

async function walkSettings(page: Page, walk: Walk, tabs: string[]) {
  await page.goto('/config');
  for (const tab of tabs) {
    await page.getByRole('tab', { name: tab }).click();
    await walk.scan(`/config ${tab}`);
  }
}

describe.each(Object.keys(SIZES) as (keyof typeof SIZES)[])('at %s size', (size) => {
  it.each(LIGHT_AND_DARK)(
    'every screen and dialog in the %s appearance passes axe (WCAG 2.1 A and AA)',
    async (theme) => {
      const page = await openIn(theme, size);
      const walk = new Walk(page);
      const desktop = size === 'desktop';

      // The public pages, each with its first field focused (a focused field's label has its own colour).
      for (const path of [
        '/login',
        '/signup',
        '/recover-password',
        '/reset-password?token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl',
      ]) {
        await page.goto(path);
        const field = page.locator('input').first();
        await field.waitFor();
        await field.focus();
        await walk.scan(path);
        // Sent empty: every field's error, in red (the first field focused again on the login page).
        await page.locator('button[type="submit"]').first().click();
        await page.locator('.Mui-error').first().waitFor();
        await walk.scan(`${path} with errors`);
      }
      await page.goto('/callback');
      await page.getByRole('heading', { name: 'Autorização bem sucedida!' }).waitFor();
      await walk.scan('/callback');
      await page.goto('/nao-existe');
      await page.getByText('Page not found.').waitFor();
      await walk.scan('404');

      await login(page, SUPERUSER.email, SUPERUSER.password);
      await walk.scan('/ (dashboard)');
      if (desktop) {
        await page.locator('header').getByRole('button', { name: SUPERUSER.email }).click();
        await page.getByRole('menuitem', { name: 'Meu perfil' }).waitFor();
        await walk.scan('user menu');
        await page.keyboard.press('Escape');
      } else {
        await page.getByRole('button', { name: 'Abrir menu' }).click();
        await page.getByRole('menuitem', { name: 'Configurações' }).waitFor();
        await walk.scan('navigation drawer');
        await page.keyboard.press('Escape');
      }
      await walkLists(page, walk, desktop);
      await walkSettings(page, walk, ['Meu perfil', 'Senha', 'Aparência']);
      await page.getByRole('tab', { name: 'Meu perfil' }).click();
      await page.getByRole('button', { name: 'Editar' }).click();
      await walk.scan('/config Meu perfil (editing)');

      // An ordinary user's settings have the Danger zone, and its confirmation.
      await page.evaluate(() => localStorage.removeItem('access_token'));
      await login(page, USER.email, USER.password);
      await walkSettings(page, walk, ['Danger zone']);
      await page.getByRole('button', { name: 'Excluir conta' }).click();
      await page.getByRole('dialog').waitFor();
      await walk.scan('/config Danger zone confirmation');

      expect(walk.scanned.length).toBeGreaterThan(20);
      // Counted, with the list as the message: the list is long and reads better once than as a diff.
      const rules = walk.found.length;
      expect(rules, `axe found, ${size} ${theme}:\n${walk.found.join('\n')}\n`).toBe(0);
    },
  );
});

/** Whether the focused element shows that it has the focus: an outline, a ring, or MUI's focus-visible styles. */
function showsFocus(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body || !element.matches(':focus-visible')) return false;
    const style = getComputedStyle(element);
    if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) return true;
    if (style.boxShadow && style.boxShadow !== 'none') return true;
    // MUI: a button's focus ripple, a field's focused underline and label.
    return element.classList.contains('Mui-focusVisible') || !!element.closest('.Mui-focused');
  });
}

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

/** Presses Tab until `target` has the focus (at most `limit` times), and checks that the focus shows. */
async function tabTo(page: Page, target: Locator, limit = 60) {
  for (let i = 0; i < limit; i++) {
    if ((await target.count()) === 1 && (await isFocused(target))) {
      expect(await showsFocus(page), `the focus shows on ${await target.textContent()}`).toBe(true);
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** Tabs round a dialog more times than it has controls: the focus stays inside. */
async function expectFocusTrapped(page: Page, dialog: Locator) {
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
}

describe('by keyboard alone', () => {
  it('adds, edits and deletes an item on /items: focus shown, dialogs trap it and give it back, Escape closes', async () => {
    const page = await open(SIZES.desktop);
    await login(page, SUPERUSER.email, SUPERUSER.password);
    await page.goto('/items');
    await page.getByRole('heading', { name: 'Items Management' }).waitFor();
    await page
      .getByRole('button', { name: /^Actions: / })
      .first()
      .waitFor();

    // Add.
    const add = page.getByRole('button', { name: 'Adicionar Item' });
    await tabTo(page, add);
    await page.keyboard.press('Enter');
    const create = page.getByRole('dialog', { name: 'Adicionar Item' });
    await create.waitFor();
    await expect.poll(() => isFocused(create.getByLabel(/^Title/))).toBe(true);
    await page.keyboard.type('Feito no teclado');
    await expectFocusTrapped(page, create);
    await tabTo(page, create.getByRole('button', { name: 'Save' }), 12);
    await page.keyboard.press('Enter');
    await page.getByText('Item created successfully.').waitFor();
    await create.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(add), { message: 'the focus back on Adicionar Item' }).toBe(true);

    // Edit, from the row's menu opened with Enter; Escape closes the dialog first, giving the focus back.
    const menu = page.getByRole('button', { name: 'Actions: Feito no teclado' });
    await tabTo(page, menu);
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(page.getByRole('menuitem', { name: 'Editar Item' }))).toBe(true);
    await page.keyboard.press('Enter');
    const edit = page.getByRole('dialog', { name: 'Editar Item' });
    await edit.waitFor();
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(menu), { message: 'the focus back on the row menu' }).toBe(true);

    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(page.getByRole('menuitem', { name: 'Editar Item' }))).toBe(true);
    await page.keyboard.press('Enter');
    await edit.waitFor();
    await expect.poll(() => isFocused(edit.getByLabel(/^Title/))).toBe(true);
    await page.keyboard.press('End');
    await page.keyboard.type(' e editado');
    await expectFocusTrapped(page, edit);
    await tabTo(page, edit.getByRole('button', { name: 'Save' }), 12);
    await page.keyboard.press('Enter');
    await edit.waitFor({ state: 'detached' });
    const edited = page.getByRole('button', { name: 'Actions: Feito no teclado e editado' });
    await edited.waitFor();
    await expect.poll(() => isFocused(edited), { message: 'the focus back on the row menu' }).toBe(true);

    // Delete, confirmed in its dialog.
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(page.getByRole('menuitem', { name: 'Editar Item' }))).toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => isFocused(page.getByRole('menuitem', { name: 'Deletar Item' }))).toBe(true);
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Deletar Item' });
    await confirm.getByText('Feito no teclado e editado', { exact: true }).waitFor();
    await expectFocusTrapped(page, confirm);
    await tabTo(page, confirm.getByRole('button', { name: 'Delete' }), 6);
    await page.keyboard.press('Enter');
    await page.getByText('O item foi apagado com sucesso.').waitFor();
    await edited.waitFor({ state: 'detached' });
  });
});
