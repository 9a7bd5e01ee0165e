import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUPERUSER, startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, expectToast, login } from './support/browser';

let t: TestGateway;
let token: string;
const open = browserSuite(async () => {
  t = await startTestGateway();
  token = await t.superuserToken();
  return t;
});

async function signedIn() {
  const page = await open();
  await login(page, SUPERUSER.email, SUPERUSER.password);
  return page;
}

const bodyRows = (page: Page, table: string) => page.getByRole('table', { name: table }).locator('tbody tr');
const pageParam = (page: Page) => new URL(page.url()).searchParams.get('page');

async function checkPagination(page: Page, path: string, table: string, labels: [string, string, string]) {
  const [previous, pageLabel, next] = labels;
  await expect.poll(() => bodyRows(page, table).count()).toBe(5);
  await page.getByText(`${pageLabel} 1`, { exact: true }).waitFor();
  expect(await page.getByRole('button', { name: previous }).isDisabled()).toBe(true);
  await page.getByRole('button', { name: next }).click();
  await expect.poll(() => pageParam(page)).toBe('2');
  await page.getByText(`${pageLabel} 2`, { exact: true }).waitFor();
  await expect.poll(() => bodyRows(page, table).count()).toBe(1);
  expect(await page.getByRole('button', { name: next }).isDisabled()).toBe(true);
  // The page survives a reload, and anything invalid in the address means page 1.
  await page.reload();
  await page.getByText(`${pageLabel} 2`, { exact: true }).waitFor();
  await page.getByRole('button', { name: previous }).click();
  await expect.poll(() => pageParam(page)).toBe('1');
  for (const invalid of ['abc', '0', '-3', '1.5']) {
    await page.goto(`${path}?page=${invalid}`);
    await page.getByText(`${pageLabel} 1`, { exact: true }).waitFor();
    await expect.poll(() => bodyRows(page, table).count()).toBe(5);
  }
}

describe('items', () => {
  it('adds, pages through, edits and deletes items', async () => {
    for (let i = 1; i <= 5; i++) {
      await t.request('POST', '/api/v1/items/', {
        token,
        json: { title: `Seed item ${i}`, description: i === 1 ? null : `Description ${i}` },
      });
    }
    const page = await signedIn();
    await page.goto('/items');
    await page.getByRole('heading', { name: 'Items Management' }).waitFor();
    for (const column of ['ID', 'Title', 'Description', 'Actions']) {
      await page.getByRole('columnheader', { name: column }).waitFor();
    }
    await page
      .getByRole('row', { name: /Seed item 1/ })
      .getByText('N/A')
      .waitFor();

    await page.getByRole('button', { name: 'Adicionar Item' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar Item' });
    await dialog.waitFor();
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Title').focus();
    await dialog.getByLabel('Description').focus();
    await dialog.getByText('Title é obrigatório.', { exact: true }).waitFor();
    await dialog.getByLabel('Title').fill('Caderno azul');
    await dialog.getByLabel('Description').fill('Pautado, 96 folhas');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Success!', 'Item created successfully.');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Caderno azul/ }).waitFor();

    await checkPagination(page, '/items', 'Items', ['Previous', 'Page', 'Next']);

    await page.getByRole('button', { name: 'Actions: Caderno azul' }).click();
    await page.getByRole('menuitem', { name: 'Editar Item' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar Item' });
    expect(await edit.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await edit.getByLabel('Title').fill('Caderno verde');
    expect(await edit.getByRole('button', { name: 'Save' }).isDisabled()).toBe(false);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Success!', 'Item updated successfully.');
    await edit.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Caderno verde/ }).waitFor();

    await page.getByRole('button', { name: 'Actions: Caderno verde' }).click();
    await page.getByRole('menuitem', { name: 'Deletar Item' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deletar Item' });
    await confirm.getByText('Tem certeza? Você não poderá desfazer esta ação.').waitFor();
    await confirm.getByRole('button', { name: 'Deletar' }).click();
    await expectToast(page, 'Sucesso', 'O item foi apagado com sucesso.');
    await confirm.waitFor({ state: 'detached' });
    // The items list itself reloads: the deleted row is gone and the next item moves up.
    await page.getByRole('row', { name: /Caderno verde/ }).waitFor({ state: 'detached' });
    await expect.poll(() => bodyRows(page, 'Items').count()).toBe(5);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
  });
});

describe('clients', () => {
  it('adds, pages through, edits and deletes clients', async () => {
    for (let i = 1; i <= 5; i++) {
      await t.request('POST', '/api/v1/clients/', { token, json: { url: `https://loja${i}.example.com` } });
    }
    const page = await signedIn();
    await page.getByRole('menuitem', { name: 'Clientes' }).click();
    await page.waitForURL('**/clientes');
    await page.getByRole('heading', { name: 'Gerenciar clientes' }).waitFor();
    await page.getByRole('columnheader', { name: 'URL' }).waitFor();
    await page.getByRole('columnheader', { name: 'Ações' }).waitFor();

    await page.getByRole('button', { name: 'Adicionar Cliente' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar Cliente' });
    await dialog.getByLabel('URL').focus();
    await dialog.getByLabel('Token Hiper').focus();
    await dialog.getByText('URL é obrigatória.', { exact: true }).waitFor();
    await dialog.getByLabel('URL').fill('https://minhaloja.example.com');
    await dialog.getByLabel('Token Hiper').fill('hiper-123');
    await dialog.getByLabel('ID da loja Nuvemshop').fill('4321');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Sucesso', 'Cliente criado com sucesso.');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /minhaloja/ }).waitFor();
    const [stored] = await t.sql<{ nuvemshop_store_id: string; hiper_sync_update_image: boolean }>(
      "select * from clients where url = 'https://minhaloja.example.com'",
    );
    expect(Number(stored.nuvemshop_store_id)).toBe(4321);

    await checkPagination(page, '/clientes', 'Clientes', ['Anterior', 'Página', 'Próximo']);

    await page.getByRole('button', { name: 'Ações: https://minhaloja.example.com' }).click();
    await page.getByRole('menuitem', { name: 'Editar cliente' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar cliente' });
    expect(await edit.getByLabel('ID da loja Nuvemshop').inputValue()).toBe('4321');
    expect(await edit.getByRole('button', { name: 'Salvar' }).isDisabled()).toBe(true);
    await edit.getByLabel('URL').fill('https://outraloja.example.com');
    await edit.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Sucesso', 'Cliente atualizado com sucesso.');
    await page.getByRole('row', { name: /outraloja/ }).waitFor();

    await page.getByRole('button', { name: 'Ações: https://outraloja.example.com' }).click();
    await page.getByRole('menuitem', { name: 'Deletar cliente' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deletar cliente' });
    await confirm.getByText('Tem certeza? Você não poderá desfazer esta ação.').waitFor();
    await confirm.getByRole('button', { name: 'Deletar' }).click();
    await expectToast(page, 'Sucesso', 'O cliente foi apagado com sucesso.');
    await page.getByRole('row', { name: /outraloja/ }).waitFor({ state: 'detached' });
  });
});

describe('users', () => {
  it('adds, pages through, edits and deletes users; the own row is marked and locked', async () => {
    for (let i = 1; i <= 4; i++) await t.createUser(`seed${i}@example.com`, 'seed-password');
    const page = await signedIn();
    await page.getByRole('menuitem', { name: 'Admin' }).click();
    await page.waitForURL('**/admin');
    await page.getByRole('heading', { name: 'Users Management' }).waitFor();
    for (const column of ['Full name', 'Email', 'Role', 'Status', 'Actions']) {
      await page.getByRole('columnheader', { name: column }).waitFor();
    }
    const own = page.getByRole('row', { name: /admin@example\.com/ });
    await own.getByText('You', { exact: true }).waitFor();
    await own.getByText('Superuser').waitFor();
    await own.getByText('Active').waitFor();
    await own.getByText('N/A').waitFor();
    expect(await own.getByRole('button', { name: /Actions/ }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByLabel('Password', { exact: true }).fill('short');
    await dialog.getByLabel('Confirm Password').focus();
    await dialog.getByLabel('Full name').focus();
    await dialog.getByText('Invalid email address', { exact: true }).waitFor();
    await dialog.getByText('Password must be at least 8 characters', { exact: true }).waitFor();
    await dialog.getByText('Please confirm your password', { exact: true }).waitFor();
    await dialog.getByLabel('Email').fill('novo@example.com');
    await dialog.getByLabel('Full name').fill('Novo Usuário');
    await dialog.getByLabel('Password', { exact: true }).fill('novo-password');
    await dialog.getByLabel('Confirm Password').fill('novo-password');
    await dialog.getByLabel('Is active?').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Success!', 'User created successfully.');
    await dialog.waitFor({ state: 'detached' });
    const created = page.getByRole('row', { name: /novo@example\.com/ });
    await created.getByText('User', { exact: true }).waitFor();
    await created.getByText('Active').waitFor();

    await checkPagination(page, '/admin', 'Users', ['Anterior', 'Página', 'Próximo']);

    await page.getByRole('button', { name: 'Actions: novo@example.com' }).click();
    await page.getByRole('menuitem', { name: 'Edit User' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    expect(await edit.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await edit.getByLabel('Is superuser?').check();
    await edit.getByLabel('Is active?').uncheck();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Success!', 'User updated successfully.');
    const edited = page.getByRole('row', { name: /novo@example\.com/ });
    await edited.getByText('Superuser').waitFor();
    await edited.getByText('Inactive').waitFor();

    await page.getByRole('button', { name: 'Actions: novo@example.com' }).click();
    await page.getByRole('menuitem', { name: 'Delete User' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete User' });
    await confirm.getByText('Tem certeza? Você não poderá desfazer esta ação.').waitFor();
    await confirm.getByRole('button', { name: 'Deletar' }).click();
    await expectToast(page, 'Sucesso', 'O usuário foi apagado com sucesso.');
    await page.getByRole('row', { name: /novo@example\.com/ }).waitFor({ state: 'detached' });
  });
});
