import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { syncEnv } from '../support/sync';
import { browserSuite, expectToast, openSignedIn } from './support/browser';

/**
 * Staff screens that tell the truth: a chip says what its state means and what to do, a store token fixed in the
 * edit dialog brings "Sincronizar agora" back at once, the dashboard counts every client that needs a person, and a
 * client is named by its store's name.
 */
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;
let token: string;

const open = browserSuite(
  async () => {
    [hiper, nuvemshop] = await Promise.all([startHiper({ pageSize: 4 }), startNuvemshopApi()]);
    t = await startTestGateway(syncEnv(hiper, nuvemshop));
    token = await t.superuserToken();
    return t;
  },
  async () => {
    await Promise.all([hiper?.close(), nuvemshop?.close()]);
  },
);

async function client(json: Record<string, unknown>) {
  const created = await t.request('POST', '/api/v1/clients/', { token, json });
  expect(created.status, created.text).toBe(200);
  return created.body.id as string;
}

async function rowMenu(page: Page, name: string) {
  await page.getByRole('button', { name: `Ações: ${name}`, exact: true }).click();
  const items = await page.getByRole('menuitem').allTextContents();
  await page.keyboard.press('Escape');
  await page.getByRole('menuitem', { name: 'Editar cliente' }).waitFor({ state: 'hidden' });
  return items;
}

const REVOKED = 'https://token-errado.example.com';

describe('the Clientes screen', () => {
  it('explains a state on hover and focus, and offers "Sincronizar agora" again once the token is fixed', async () => {
    const store = nuvemshop.addStore(9401);
    const account = hiper.addAccount();
    const id = await client({
      url: REVOKED,
      hiper_token: account.key,
      nuvemshop_token: 'token-errado',
      nuvemshop_store_id: 9401,
    });
    // Its first run, with nothing to write, finds the wrong token.
    const started = await t.request('POST', `/api/v1/clients/${id}/sync`, { token, json: { kind: 'stock' } });
    expect(started.status).toBe(202);
    await expect
      .poll(async () => (await t.request('GET', `/api/v1/clients/${id}`, { token })).body.sync_state, {
        timeout: 30_000,
      })
      .toBe('token_revoked');

    const page = await openSignedIn(open, 'light', 'desktop');
    await page.goto('/');
    await page.getByRole('heading', { name: /^Clientes parados: [1-9]/ }).waitFor();
    await page.getByRole('link', { name: 'Token revogado: 1' }).waitFor();
    await page.screenshot({ path: '/tmp/staff-shots/true-states-dashboard-desktop.png' });

    await page.goto('/clientes');
    const row = page.getByRole('row', { name: new RegExp(REVOKED) });
    const chip = row.getByText('Token revogado', { exact: true });
    await chip.hover();
    await page.getByRole('tooltip', { name: /A Nuvemshop recusou o token da loja/ }).waitFor();
    await page.mouse.move(0, 0);
    await page.getByRole('tooltip').waitFor({ state: 'hidden' });
    await chip.focus();
    await page.getByRole('tooltip', { name: /informe um token válido em “Editar cliente”/ }).waitFor();
    await page.screenshot({ path: '/tmp/staff-shots/true-states-tooltip-desktop.png' });
    expect(await rowMenu(page, REVOKED)).not.toContain('Sincronizar agora');

    await page.getByRole('button', { name: `Ações: ${REVOKED}`, exact: true }).click();
    await page.getByRole('menuitem', { name: 'Editar cliente' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar cliente' });
    await dialog.getByLabel('Token Nuvemshop').fill(store.token);
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Sucesso', 'Cliente atualizado com sucesso.');
    await dialog.waitFor({ state: 'detached' });
    await row.getByText('Nunca sincronizado', { exact: true }).waitFor();
    expect(await rowMenu(page, REVOKED)).toContain('Sincronizar agora');
  });

  it('names a client by its store name, its URL beside it, in Pedidos’ filter and column', async () => {
    const id = await client({ url: 'https://loja-da-maria.example.com', name: 'Loja da Maria' });
    await client({ url: 'https://outra-loja.example.com', name: 'Outra Loja' });
    await t.sql(
      `insert into orders (id, client_id, nuvemshop_order_id, number, state, payment_status, total, customer_name,
         lines, history, received_at, updated_at, created_at)
       values (gen_random_uuid(), $1, 3000000401, 401, 'held', 'paid', '10.00', 'Ana', '[]', '[]', now(), now(), now())`,
      [id],
    );
    const named = 'Loja da Maria (https://loja-da-maria.example.com)';
    for (const size of ['desktop', 'phone'] as const) {
      const page = await openSignedIn(open, 'light', size);
      await page.goto('/pedidos');
      await page.getByRole('link', { name: named }).first().waitFor();
      if (size === 'desktop') {
        await page.getByRole('combobox', { name: 'Cliente' }).click();
        await page.getByRole('option', { name: named }).waitFor();
        expect(await page.getByRole('option', { name: named }).count()).toBe(1);
        await page.getByRole('option', { name: named }).click();
        await page
          .getByRole('button', { name: `Remover filtro: ${named}` })
          .or(page.getByText(named).first())
          .first()
          .waitFor();
      }
      await page.screenshot({ path: `/tmp/staff-shots/true-states-pedidos-${size}.png`, fullPage: true });
    }
  });
});
