import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { syncEnv } from '../support/sync';
import { browserSuite, expectToast, openSignedIn, SIZES } from './support/browser';

/**
 * A client's state as staff read it on the Clientes screen: `Nunca sincronizado` until a run has ended, `Não conectado`
 * naming what it lacks, "Em dia" only after a run succeeded; "Sincronizar agora" only where a run can start.
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

const openIn = (theme: 'light' | 'dark', size: keyof typeof SIZES) => openSignedIn(open, theme, size);

async function client(json: Record<string, unknown>) {
  const created = await t.request('POST', '/api/v1/clients/', { token, json });
  expect(created.status, created.text).toBe(200);
  return created.body.id as string;
}

/** The menu items of a record's row menu, closed again. */
async function rowMenu(page: Page, name: string) {
  await page.getByRole('button', { name: `Ações: ${name}` }).click();
  const items = await page.getByRole('menuitem').allTextContents();
  await page.keyboard.press('Escape');
  await page.getByRole('menuitem', { name: 'Editar cliente' }).waitFor({ state: 'hidden' });
  return items;
}

const HALF = 'https://so-hiper.example.com';
const NO_STORE = 'https://sem-id-da-loja.example.com';
const NEVER = 'https://nunca-sincronizada.example.com';

describe('the Clientes screen', () => {
  it('reads Não conectado naming what is missing, Nunca sincronizado, and Em dia only after a run', async () => {
    await client({ url: HALF, hiper_token: 'h'.repeat(40) });
    await client({ url: NO_STORE, hiper_token: 'h'.repeat(40), nuvemshop_token: 'n'.repeat(40) });
    const store = nuvemshop.addStore(9301);
    const account = hiper.addAccount();
    account.add({ nome: 'Caneta azul', preco: 4.5, quantidadeEmEstoque: 10 });
    const never = await client({
      url: NEVER,
      hiper_token: account.key,
      nuvemshop_token: store.token,
      nuvemshop_store_id: 9301,
    });

    const page = await openIn('light', 'desktop');
    await page.goto('/clientes');
    const row = (url: string) => page.getByRole('row', { name: new RegExp(url) });
    // The state's tooltip (its description) names what the client lacks.
    const half = row(HALF).getByText('Não conectado', { exact: true });
    await half.hover();
    await page.getByRole('tooltip', { name: 'Faltam o token Nuvemshop e o ID da loja Nuvemshop' }).waitFor();
    await row(NO_STORE).getByText('Não conectado', { exact: true }).hover();
    await page.getByRole('tooltip', { name: 'Falta o ID da loja Nuvemshop' }).waitFor();
    await row(NEVER).getByText('Nunca sincronizado', { exact: true }).waitFor();
    expect(await page.getByText('Em dia', { exact: true }).count()).toBe(0);

    // "Sincronizar agora" is offered only to the client that can be synced, in its row menu and its edit dialog.
    expect(await rowMenu(page, HALF)).not.toContain('Sincronizar agora');
    expect(await rowMenu(page, NO_STORE)).not.toContain('Sincronizar agora');
    expect(await rowMenu(page, NEVER)).toContain('Sincronizar agora');
    await page.getByRole('button', { name: `Ações: ${NO_STORE}` }).click();
    await page.getByRole('menuitem', { name: 'Editar cliente' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar cliente' });
    await dialog.getByRole('button', { name: 'Salvar' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Sincronizar agora' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.screenshot({ path: '/tmp/staff-shots/clients-states-desktop-light.png' });

    // A client that lost its store id since the page was read: the refusal names it, in the screen's words.
    await page.getByRole('button', { name: `Ações: ${NEVER}` }).click();
    await t.request('PUT', `/api/v1/clients/${never}`, { token, json: { nuvemshop_store_id: 0 } });
    await page.getByRole('menuitem', { name: 'Sincronizar agora' }).click();
    await expectToast(page, 'Não foi possível sincronizar', 'Falta o ID da loja Nuvemshop');
    await row(NEVER).getByText('Não conectado', { exact: true }).waitFor();

    // Given it back and synced: Em dia.
    await t.request('PUT', `/api/v1/clients/${never}`, { token, json: { nuvemshop_store_id: 9301 } });
    await page.reload();
    await row(NEVER).getByText('Nunca sincronizado', { exact: true }).waitFor();
    await page.getByRole('button', { name: `Ações: ${NEVER}` }).click();
    await page.getByRole('menuitem', { name: 'Sincronizar agora' }).click();
    await expectToast(page, 'Sincronização agendada');
    await expect
      .poll(
        async () =>
          (await t.sql<{ state: string }>('select state from sync_runs where client_id = $1', [never]))[0]?.state,
        {
          timeout: 30_000,
        },
      )
      .toBe('succeeded');
    await page.reload();
    await row(NEVER).getByText('Em dia', { exact: true }).waitFor();
  });

  for (const theme of ['light', 'dark'] as const)
    for (const size of ['desktop', 'phone'] as const)
      it(`shows the states in the ${theme} appearance on a ${size}`, async () => {
        const page = await openIn(theme, size);
        await page.goto('/clientes');
        await page.getByText('Não conectado', { exact: true }).first().waitFor();
        await page
          .getByText('Nunca sincronizado', { exact: true })
          .or(page.getByText('Em dia', { exact: true }))
          .first()
          .waitFor();
        expect(await page.evaluate(() => document.scrollingElement!.scrollWidth > window.innerWidth)).toBe(false);
        await page.screenshot({ path: `/tmp/staff-shots/clients-states-${size}-${theme}.png`, fullPage: true });
      });
});
