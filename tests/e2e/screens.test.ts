import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUPERUSER, startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, expectConsoleErrors, expectToast, login } from './support/browser';

/** The list screens as someone new to them expects them, on a desktop and on a phone. */
let t: TestGateway;
let token: string;
const open = browserSuite(async () => {
  t = await startTestGateway();
  token = await t.superuserToken();
  return t;
});

const PHONE = { width: 390, height: 844 };

async function signedIn(viewport?: { width: number; height: number }) {
  const page = await open(viewport);
  await login(page, SUPERUSER.email, SUPERUSER.password);
  return page;
}

async function createClients(urls: string[]) {
  for (const url of urls) {
    const answer = await t.request('POST', '/api/v1/clients/', { token, json: { url, hiper_token: 'h'.repeat(40) } });
    expect(answer.status, answer.text).toBe(200);
  }
}

async function createItems(titles: string[]) {
  for (const title of titles) {
    const answer = await t.request('POST', '/api/v1/items/', { token, json: { title, description: `${title}: ok` } });
    expect(answer.status, answer.text).toBe(200);
  }
}

/** Whether the page can be scrolled sideways. */
const scrollsSideways = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth > window.innerWidth);

/** The element's box lies between the viewport's left and right edges, as drawn now (nothing scrolled sideways). */
async function withinWidth(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  return !!box && box.x >= 0 && box.x + box.width <= page.viewportSize()!.width;
}

describe('on a phone', () => {
  it("shows each list's rows within the screen, every row's menu in reach, editing and deleting from it", async () => {
    await createClients(
      [1, 2, 3].map((i) => `https://celular-${i}.uma-loja-com-um-endereco-bem-comprido.example.com.br`),
    );
    await createItems([1, 2, 3].map((i) => `Um item de celular com um título bem comprido ${i}`));
    for (const i of [1, 2]) await t.createUser(`celular-${i}@example.com`, 'a-good-password');
    const page = await signedIn(PHONE);
    const screens = [
      {
        path: '/clientes',
        list: 'Clientes',
        actions: 'Ações',
        name: 'https://celular-2.uma-loja-com-um-endereco-bem-comprido.example.com.br',
        edit: 'Editar cliente',
        remove: 'Deletar cliente',
        cancel: 'Cancelar',
        confirm: 'Deletar',
        deleted: 'O cliente foi apagado com sucesso.',
      },
      {
        path: '/items',
        list: 'Items',
        actions: 'Actions',
        name: 'Um item de celular com um título bem comprido 2',
        edit: 'Editar Item',
        remove: 'Deletar Item',
        cancel: 'Cancel',
        confirm: 'Delete',
        deleted: 'O item foi apagado com sucesso.',
      },
      {
        path: '/admin',
        list: 'Users',
        actions: 'Actions',
        name: 'celular-2@example.com',
        edit: 'Edit User',
        remove: 'Delete User',
        cancel: 'Cancel',
        confirm: 'Delete',
        deleted: 'O usuário foi apagado com sucesso.',
      },
    ];
    for (const screen of screens) {
      await page.goto(screen.path);
      const rows = page.getByRole('list', { name: screen.list }).getByRole('listitem');
      const menus = rows.getByRole('button', { name: new RegExp(`^${screen.actions}: `) });
      await menus.first().waitFor();
      expect(await rows.count(), screen.path).toBeGreaterThanOrEqual(3);
      expect(await menus.count(), screen.path).toBe(await rows.count());
      expect(await scrollsSideways(page), screen.path).toBe(false);
      // Every row's menu is on screen as the page is drawn, not at the end of a table to scroll to.
      for (const menu of await menus.all()) {
        expect(await withinWidth(page, menu), `${screen.path}: ${await menu.getAttribute('aria-label')}`).toBe(true);
      }
      // A row names its record in full, and shows its other fields with their labels.
      await rows.filter({ hasText: screen.name }).getByText(screen.name, { exact: true }).waitFor();

      const menu = page.getByRole('button', { name: `${screen.actions}: ${screen.name}` });
      await menu.click();
      await page.getByRole('menuitem', { name: screen.edit }).click();
      const dialog = page.getByRole('dialog', { name: screen.edit });
      await dialog.waitFor();
      expect(await scrollsSideways(page), `${screen.path} ${screen.edit}`).toBe(false);
      await dialog.getByRole('button', { name: screen.cancel }).click();
      await dialog.waitFor({ state: 'detached' });

      await menu.click();
      await page.getByRole('menuitem', { name: screen.remove }).click();
      const confirm = page.getByRole('dialog', { name: screen.remove });
      await confirm.getByText(screen.name, { exact: true }).waitFor();
      await confirm.getByRole('button', { name: screen.confirm }).click();
      await expectToast(page, 'Sucesso', screen.deleted);
      await rows.filter({ hasText: screen.name }).waitFor({ state: 'detached' });
    }
    // A tap on a row opens its edit dialog too; the own row in Users Management opens nothing.
    await page
      .getByRole('list', { name: 'Users' })
      .getByRole('listitem')
      .filter({ hasText: 'celular-1@example.com' })
      .getByText('celular-1@example.com')
      .click();
    await page.getByRole('dialog', { name: 'Edit User' }).getByRole('button', { name: 'Cancel' }).click();
    const own = page.getByRole('list', { name: 'Users' }).getByRole('listitem').filter({ hasText: SUPERUSER.email });
    await own.getByText('You', { exact: true }).waitFor();
    expect(await own.getByRole('button', { name: /^Actions: / }).isDisabled()).toBe(true);
  });
});

describe('on a narrow window', () => {
  it('a table wider than its box scrolls within it, its Ações column kept in view at the right edge', async () => {
    await createClients([1, 2].map((i) => `https://janela-${i}.uma-loja-com-um-endereco-bem-comprido.example.com.br`));
    // Wide enough for the table (not the phone's list), too narrow for every column of the clients.
    const page = await signedIn({ width: 700, height: 900 });
    await page.goto('/clientes');
    const table = page.locator('.RaDataTable-tableWrapper');
    const menus = table.getByRole('button', { name: /^Ações: / });
    await menus.first().waitFor();
    expect(await table.evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(true);
    expect(await scrollsSideways(page)).toBe(false);

    /** Whether every row's menu lies within the table's box, as drawn now. */
    const menusInView = async () => {
      const box = (await table.boundingBox())!;
      const inView = [];
      for (const menu of await menus.all()) {
        const own = (await menu.boundingBox())!;
        inView.push(own.x >= box.x && own.x + own.width <= box.x + box.width);
      }
      return inView;
    };
    expect(await menus.count()).toBeGreaterThanOrEqual(2);
    expect(await menusInView()).not.toContain(false);
    // Scrolled to the middle of the columns, the menus stay at the right edge, over the cells that pass under them.
    await table.evaluate((box) => (box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2));
    expect(await menusInView()).not.toContain(false);
    const menu = page.getByRole('button', {
      name: 'Ações: https://janela-1.uma-loja-com-um-endereco-bem-comprido.example.com.br',
    });
    await menu.click();
    await page.getByRole('menuitem', { name: 'Editar cliente' }).waitFor();
  });
});

describe('toasts', () => {
  it('a new toast replaces the one on screen: after a quick create and delete only the delete is told', async () => {
    const page = await signedIn();
    await page.goto('/items');
    await page.getByRole('button', { name: 'Adicionar Item' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar Item' });
    await dialog.getByLabel(/^Title/).fill('Vai e volta');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // By role even while a dialog hides the rest of the page from assistive technology.
    const created = page.getByRole('status', { includeHidden: true }).filter({ hasText: 'Item created successfully.' });
    await created.waitFor();

    await page.getByRole('button', { name: 'Actions: Vai e volta' }).click();
    await page.getByRole('menuitem', { name: 'Deletar Item' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deletar Item' });
    await confirm.getByText('Vai e volta', { exact: true }).waitFor();
    // Still on screen: the create's toast lasts 5 s, and nothing here closes it.
    expect(await created.isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    // The delete's toast comes at once, in place of the create's, rather than after it.
    const deleted = page
      .getByRole('status', { includeHidden: true })
      .filter({ hasText: 'O item foi apagado com sucesso.' });
    await deleted.waitFor({ timeout: 1500 });
    expect(await page.getByText('Item created successfully.').count()).toBe(0);
    expect(await page.getByRole('status', { includeHidden: true }).count()).toBe(1);
  });

  it('a network failure is told in the screen’s language and the app’s toast, with a close button', async () => {
    await createClients(['https://fora-do-ar.example.com']);
    await createItems(['Fora do ar']);
    const page = await signedIn();
    expectConsoleErrors(page, /Failed to load resource: net::ERR_INTERNET_DISCONNECTED/);
    const refresh = page.getByRole('button', { name: /^(Refresh|Atualizar)$/ });
    const failures = [
      {
        path: '/clientes',
        row: 'https://fora-do-ar.example.com',
        edit: 'Editar cliente',
        field: 'Token Hiper',
        save: 'Salvar',
        cancel: 'Cancelar',
        title: 'Algo deu errado.',
        text: 'Não foi possível falar com o servidor. Verifique sua conexão e tente novamente.',
        close: 'Fechar',
      },
      {
        path: '/items',
        row: 'Fora do ar',
        edit: 'Editar Item',
        field: 'Description',
        save: 'Save',
        cancel: 'Cancel',
        title: 'Something went wrong.',
        text: 'The server could not be reached. Check your connection and try again.',
        close: 'Close',
      },
    ];
    for (const failure of failures) {
      await page.goto(failure.path);
      await page.getByRole('row', { name: new RegExp(failure.row) }).waitFor();
      await page.route('**/graphql', (route) => route.abort('internetdisconnected'));

      /** The toast: the app's own, with a title and the words of the screen, closed with its button. */
      const toldAndClosed = async (what: string) => {
        const alert = page.getByRole('alert', { includeHidden: true }).filter({ hasText: failure.title });
        await alert.getByText(failure.text).waitFor();
        expect(await alert.getByText('Failed to fetch').count(), what).toBe(0);
        await alert.getByRole('button', { name: failure.close, includeHidden: true }).click();
        await alert.waitFor({ state: 'detached' });
      };

      // A refresh of the list.
      await refresh.click();
      await toldAndClosed(`${failure.path} refresh`);
      // The rows stay as they were.
      await page.getByRole('row', { name: new RegExp(failure.row) }).waitFor();

      // Opening a record's dialog reads it again: the dialog opens with the row's values all the same.
      await page
        .getByRole('row', { name: new RegExp(failure.row) })
        .getByText(failure.row, { exact: true })
        .click();
      const dialog = page.getByRole('dialog', { name: failure.edit });
      await toldAndClosed(`${failure.path} edit`);
      // A save: the dialog stays open with what was typed.
      await dialog.getByLabel(failure.field).fill('sem rede');
      await dialog.getByRole('button', { name: failure.save }).click();
      await toldAndClosed(`${failure.path} save`);
      expect(await dialog.getByLabel(failure.field).inputValue()).toBe('sem rede');
      await dialog.getByRole('button', { name: failure.cancel }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.unroute('**/graphql');
    }
  });
});

describe('empty lists', () => {
  it('a search with no result says so, with the text searched, and offers to clear it', async () => {
    await createClients([1, 2, 3].map((i) => `https://vazio-${i}.example.com`));
    const page = await signedIn();
    for (const screen of [
      {
        path: '/clientes',
        table: 'Clientes',
        search: 'Pesquisar',
        said: 'Nenhum resultado para “nada-por-aqui”',
        clear: 'Limpar pesquisa',
        empty: 'Nenhum cliente cadastrado.',
        headings: ['URL', 'Ações'],
      },
      {
        path: '/admin',
        table: 'Users',
        search: 'Search',
        said: 'No results for “nada-por-aqui”',
        clear: 'Clear search',
        empty: 'No users.',
        headings: ['Full name', 'Email', 'Actions'],
      },
    ]) {
      await page.goto(screen.path);
      const table = page.getByRole('table', { name: screen.table });
      const rows = table.locator('tbody tr');
      await expect.poll(() => rows.count()).toBeGreaterThan(0);
      const before = await rows.count();
      await page.getByPlaceholder(screen.search).fill('nada-por-aqui');
      // In the table's body, under its headings.
      await table.locator('tbody').getByText(screen.said, { exact: true }).waitFor();
      for (const heading of screen.headings) await table.getByRole('columnheader', { name: heading }).waitFor();
      expect(await page.getByText(screen.empty).count(), screen.path).toBe(0);
      await table.getByRole('button', { name: screen.clear }).click();
      await expect.poll(() => rows.count()).toBe(before);
      expect(await page.getByPlaceholder(screen.search).inputValue()).toBe('');
    }
  });

  it('a list with nothing in it says so in its own words, under its headings', async () => {
    const user = await t.createUser('sem-itens@example.com', 'a-good-password');
    const page = await open();
    await login(page, user.email, user.password);
    await page.goto('/items');
    const table = page.getByRole('table', { name: 'Items' });
    await table.locator('tbody').getByText("You don't have any items yet.", { exact: true }).waitFor();
    for (const heading of ['ID', 'Title', 'Description', 'Actions']) {
      await table.getByRole('columnheader', { name: heading }).waitFor();
    }
    expect(await page.getByRole('button', { name: 'Clear search' }).count()).toBe(0);
  });
});

/**
 * The inputs of a form dialog, in order, by their labels with their required marks ('URL *'); a choice (MUI's select,
 * whose input is hidden from people) by the label of its field.
 */
const formFields = (dialog: Locator) =>
  dialog
    .locator('input:not([type="hidden"])')
    .evaluateAll((inputs) =>
      inputs.map((input) =>
        (
          (input as HTMLInputElement).labels?.[0]?.textContent ??
          input.closest('.MuiFormControl-root')?.querySelector('label')?.textContent ??
          '?'
        )
          .replace(/\s+/g, ' ')
          .trim(),
      ),
    );

describe('client dialogs', () => {
  it('add and edit show the same fields in the same order with the same required marks', async () => {
    await createClients(['https://mesmos-campos.example.com']);
    const page = await signedIn();
    await page.goto('/clientes');
    await page.getByRole('button', { name: 'Adicionar Cliente' }).click();
    const add = page.getByRole('dialog', { name: 'Adicionar Cliente' });
    await add.getByLabel(/^URL/).waitFor();
    const added = await formFields(add);
    await add.getByRole('button', { name: 'Cancelar' }).click();
    await add.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Ações: https://mesmos-campos.example.com' }).click();
    await page.getByRole('menuitem', { name: 'Editar cliente' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar cliente' });
    await edit.getByLabel(/^URL/).waitFor();
    expect(await formFields(edit)).toEqual(added);
    await edit
      .getByRole('group', { name: 'Meios de pagamento no Hiper' })
      .getByRole('button', { name: 'Adicionar' })
      .waitFor();
    expect(added).toEqual([
      'URL *',
      'Token Hiper',
      'Token Nuvemshop',
      'Local de estoque Nuvemshop',
      'Nome da loja',
      // The payment methods are rows (none yet), under their own heading, between these two.
      'CNPJ do marketplace (Hiper)',
      'Nome do marketplace (Hiper)',
      'ID da loja Nuvemshop',
      'Enviar pedidos quando *',
      'Estoque baixado no Hiper quando *',
      'Sincronizar imagens',
      'Sincronizar dimensões',
      'Enviar pedidos ao Hiper',
      'Cancelar na loja o que o Hiper cancelar',
    ]);
  });

  it('take only an http or https address as URL', async () => {
    await createClients(['https://endereco-valido.example.com']);
    const page = await signedIn();
    await page.goto('/clientes');
    const message = 'Informe um endereço http ou https, como https://loja.example.com';
    const count = async () => Number((await t.sql<{ n: string }>('select count(*) as n from clients'))[0].n);
    const before = await count();

    await page.getByRole('button', { name: 'Adicionar Cliente' }).click();
    const add = page.getByRole('dialog', { name: 'Adicionar Cliente' });
    await add.getByLabel(/^URL/).fill('not a url');
    await add.getByLabel('Token Hiper').focus();
    await add.getByText(message, { exact: true }).waitFor();
    await add.getByRole('button', { name: 'Salvar' }).click();
    await add.getByText(message, { exact: true }).waitFor();
    expect(await count()).toBe(before);
    await add.getByLabel(/^URL/).fill('https://nova-loja.example.com');
    await add.getByLabel('Token Hiper').focus();
    expect(await add.getByText(message).count()).toBe(0);
    await add.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Sucesso', 'Cliente criado com sucesso.');
    expect(await count()).toBe(before + 1);

    await page.getByRole('button', { name: 'Ações: https://endereco-valido.example.com' }).click();
    await page.getByRole('menuitem', { name: 'Editar cliente' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar cliente' });
    await edit.getByLabel(/^URL/).fill('ftp://endereco-valido.example.com');
    await edit.getByRole('button', { name: 'Salvar' }).click();
    await edit.getByText(message, { exact: true }).waitFor();
    await edit.getByRole('button', { name: 'Cancelar' }).click();
    const [row] = await t.sql<{ url: string }>("select url from clients where url like '%endereco-valido%'");
    expect(row.url).toBe('https://endereco-valido.example.com');
  });
});

/** The left edges of each sidebar entry's icon and text, as drawn. */
const entryEdges = (menu: Locator) =>
  menu.getByRole('menuitem').evaluateAll((entries) =>
    entries.map((entry) => {
      const icon = entry.querySelector('svg')!.getBoundingClientRect();
      const walker = document.createTreeWalker(entry, NodeFilter.SHOW_TEXT);
      let node = walker.nextNode();
      while (node && !node.textContent?.trim()) node = walker.nextNode();
      const range = document.createRange();
      range.selectNodeContents(node!);
      return {
        text: node!.textContent!.trim(),
        icon: Math.round(icon.left),
        label: Math.round(range.getBoundingClientRect().left),
      };
    }),
  );

describe('icons and alignment', () => {
  it("the delete confirmation's icons say what its buttons do", async () => {
    await createClients(['https://icones.example.com']);
    const page = await signedIn();
    await page.goto('/clientes');
    await page.getByRole('button', { name: 'Ações: https://icones.example.com' }).click();
    await page.getByRole('menuitem', { name: 'Deletar cliente' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deletar cliente' });
    const remove = confirm.getByRole('button', { name: 'Deletar' });
    const cancel = confirm.getByRole('button', { name: 'Cancelar' });
    await remove.locator('[data-testid="DeleteIcon"]').waitFor();
    await cancel.locator('[data-testid="CloseIcon"]').waitFor();
    // react-admin's own: a warning on Cancel, a tick on Delete.
    expect(await confirm.locator('[data-testid="ErrorOutlineIcon"], [data-testid="CheckCircleIcon"]').count()).toBe(0);
    await cancel.click();
    await confirm.waitFor({ state: 'detached' });
  });

  it.each([
    ['sidebar', undefined],
    ['phone drawer', PHONE],
  ])(
    'the %s entries, Logout included, line up: one left edge for the icons, one for the texts',
    async (where, viewport) => {
      const page = await signedIn(viewport);
      if (viewport) await page.getByRole('button', { name: 'Abrir menu' }).click();
      const menu = page.locator('.RaMenu-open');
      await menu.getByRole('menuitem', { name: 'Logout' }).waitFor();
      const edges = await entryEdges(menu);
      expect(edges.map((entry) => entry.text)).toEqual([
        'Dashboard',
        'Saúde',
        'Divergências',
        'Clientes',
        'Clientes arquivados',
        'Pedidos',
        'Sincronizações',
        'Produtos vinculados',
        'Itens',
        'Configurações',
        'Admin',
        'Webhooks',
        'Webhooks por dia',
        'Auditoria',
        'E-mails',
        'Logout',
      ]);
      expect(new Set(edges.map((entry) => entry.icon)).size, `${where} icons: ${JSON.stringify(edges)}`).toBe(1);
      expect(new Set(edges.map((entry) => entry.label)).size, `${where} texts: ${JSON.stringify(edges)}`).toBe(1);
    },
  );
});

describe('the e-mails screen', () => {
  it('shows superusers the mail outbox from the sidebar and the dashboard, read-only, filtered by state', async () => {
    for (const [email, state] of [
      ['fila@example.com', 'created'],
      ['falhou@example.com', 'failed'],
    ] as const) {
      // Due tomorrow: the gateway's mail workers leave them as they are while the screen is read.
      await t.sql(
        `insert into pgboss.job (name, data, state, output, start_after)
         values ('mail', $1, $2, $3, now() + interval '1 day')`,
        [{ kind: 'new-account', email }, state, state === 'failed' ? { message: 'SMTP recusou' } : null],
      );
    }
    const page = await signedIn();
    await page.getByRole('menuitem', { name: 'E-mails' }).click();
    await page.getByRole('heading', { name: 'E-mails' }).waitFor();
    const table = page.getByRole('table', { name: 'E-mails' });
    await table.getByText('falhou@example.com').waitFor();
    expect(await table.getByText('Falhou', { exact: true }).count()).toBe(1);
    expect(await table.getByText('SMTP recusou').count()).toBe(1);
    // A history: nothing to add, edit, select or delete.
    expect(await page.getByRole('button', { name: /Adicionar/ }).count()).toBe(0);
    expect(await table.getByRole('checkbox').count()).toBe(0);

    await table.getByText('falhou@example.com').click();
    const dialog = page.getByRole('dialog', { name: 'Ver e-mail' });
    await dialog.getByText('Destinatário').waitFor();
    await dialog.getByRole('button', { name: 'Fechar' }).click();

    await expect.poll(() => dialog.count()).toBe(0);

    await page.getByRole('combobox', { name: 'Estado' }).click();
    await page.getByRole('option', { name: 'Na fila' }).click();
    await table.getByText('fila@example.com').waitFor();
    await expect.poll(() => table.getByText('falhou@example.com').count()).toBe(0);

    // The failed-mail card leads to the failed mail.
    await page.getByRole('menuitem', { name: 'Dashboard' }).click();
    await page.getByText('E-mails que falharam: 1').click();
    await table.getByText('falhou@example.com').waitFor();
    expect(await table.getByText('fila@example.com').count()).toBe(0);
    expect(await scrollsSideways(page)).toBe(false);
    await page.screenshot({ path: '/tmp/emails-desktop.png' });
  });
});
