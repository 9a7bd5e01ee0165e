import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUPERUSER, startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, expectToast, login } from './support/browser';

/**
 * A client deleted from its row menu is archived, in Chromium against a real gateway: gone from Clientes, its order
 * still in Pedidos naming it, and a superuser restores it from Clientes arquivados, or purges another after a
 * confirmation naming what is erased.
 */
let t: TestGateway;
const open = browserSuite(async () => {
  t = await startTestGateway();
  return t;
});

/** A client with one order sent to Hiper. */
async function clientWithOrder(url: string, storeId: number) {
  const token = await t.superuserToken();
  const client = await t.request('POST', '/api/v1/clients/', { token, json: { url, nuvemshop_store_id: storeId } });
  expect(client.status, client.text).toBe(200);
  await t.sql(
    `insert into orders (id, client_id, nuvemshop_order_id, number, state, payment_status, total, customer_name,
       lines, history, received_at, updated_at, created_at)
     values (gen_random_uuid(), $1, $2, $3, 'sent', 'paid', '99.90', 'Maria da Silva', '[]', '[]', now(), now(), now())`,
    [client.body.id, storeId * 10, storeId],
  );
  return client.body.id as string;
}

async function fromRowMenu(page: Page, name: string, action: string) {
  await page.getByRole('button', { name: `Ações: ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

describe('deleting a client', () => {
  it('archives it: gone from Clientes, its order still in Pedidos; a superuser restores it', async () => {
    const url = 'https://loja-arquivada.example';
    await clientWithOrder(url, 6101);
    const staff = await t.createUser('arquivo.staff@example.com', 'staff-password-1');

    const page = await open();
    await login(page, staff.email, staff.password);
    await page.goto('/clientes');
    await page.getByRole('row', { name: new RegExp(url) }).waitFor();
    await fromRowMenu(page, url, 'Deletar cliente');
    const confirm = page.getByRole('dialog', { name: 'Deletar cliente' });
    await confirm.getByText('Tem certeza? Você não poderá desfazer esta ação.').waitFor();
    await confirm.getByRole('button', { name: 'Deletar' }).click();
    await expectToast(page, 'Sucesso', 'O cliente foi apagado com sucesso.');
    await page.getByRole('row', { name: new RegExp(url) }).waitFor({ state: 'detached' });

    // Its order is still there, naming it.
    await page.goto('/pedidos');
    await page.getByRole('row', { name: /6101/ }).getByText(url).waitFor();
    // Not a superuser's: no archive to open.
    await page.getByRole('menuitem', { name: 'Pedidos' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Clientes arquivados' }).count()).toBe(0);

    const admin = await open();
    await login(admin, SUPERUSER.email, SUPERUSER.password);
    await admin.getByRole('menuitem', { name: 'Clientes arquivados' }).click();
    await admin.getByRole('row', { name: new RegExp(url) }).waitFor();
    await fromRowMenu(admin, url, 'Restaurar');
    await expectToast(admin, 'Cliente restaurado', `${url} voltou para Clientes.`);
    await admin.getByRole('row', { name: new RegExp(url) }).waitFor({ state: 'detached' });
    await admin.goto('/clientes');
    await admin.getByRole('row', { name: new RegExp(url) }).waitFor();
  });

  it('purges an archived client only once its confirmation, naming what is erased, is accepted', async () => {
    const url = 'https://loja-apagada.example';
    const id = await clientWithOrder(url, 6102);
    expect((await t.request('DELETE', `/api/v1/clients/${id}`, { token: await t.superuserToken() })).status).toBe(200);

    const admin = await open();
    await login(admin, SUPERUSER.email, SUPERUSER.password);
    await admin.goto('/clientes-arquivados');
    await fromRowMenu(admin, url, 'Apagar definitivamente');
    const confirm = admin.getByRole('dialog', { name: `Apagar ${url} definitivamente?` });
    await confirm.getByText(/pedidos, sincronizações, produtos vinculados e webhooks recebidos/).waitFor();
    // Cancelled: nothing erased.
    await confirm.getByRole('button', { name: /Cancel/ }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await t.sql('select 1 from orders where client_id = $1', [id])).toHaveLength(1);

    await fromRowMenu(admin, url, 'Apagar definitivamente');
    await confirm.getByRole('button', { name: 'Apagar definitivamente' }).click();
    await expectToast(admin, 'Cliente apagado', `${url} e todo o seu histórico foram apagados.`);
    await admin.getByRole('row', { name: new RegExp(url) }).waitFor({ state: 'detached' });
    expect(await t.sql('select 1 from orders where client_id = $1', [id])).toEqual([]);
    expect(await t.sql('select 1 from clients where id = $1', [id])).toEqual([]);
  });
});
