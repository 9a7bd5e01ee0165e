import { describe, expect, it } from 'vitest';
import { SUPERUSER, startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, login, openSignedIn, scrollsSideways, SIZES } from './support/browser';

/**
 * The Auditoria screen: a superuser changes a client on the Clientes screen, then finds the change in Auditoria
 * (who, from where, "Alterou", the client) with the filters, and reads its fields before → after; nobody else has the
 * screen in the sidebar.
 */
let t: TestGateway;
let token: string;

const open = browserSuite(async () => {
  t = await startTestGateway();
  token = await t.superuserToken();
  return t;
});

async function client(name: string) {
  const created = await t.request('POST', '/api/v1/clients/', {
    token,
    json: { url: `https://${name.toLowerCase().replace(/\W+/g, '-')}.example.com`, name, hiper_token: 'k'.repeat(40) },
  });
  expect(created.status, created.text).toBe(200);
  return created.body.id as string;
}

describe('the Auditoria screen', () => {
  it('shows a change made on the screens, found with the filters, its fields before → after', async () => {
    let n = 0;
    for (const [theme, size] of [
      ['light', 'desktop'],
      ['dark', 'desktop'],
      ['light', 'phone'],
      ['dark', 'phone'],
    ] as const) {
      n += 1;
      const before = `Loja Antes ${n}`;
      const after = `Loja Depois ${n}`;
      const id = await client(before);
      // Another client changed too, which the record filter leaves out.
      const other = await client(`Loja Outra ${n}`);
      expect(
        (await t.request('PUT', `/api/v1/clients/${other}`, { token, json: { name: `Loja Outra ${n}b` } })).status,
      ).toBe(200);

      const page = await openSignedIn(open, theme, size);
      // The change, made through the Clientes screen's edit dialog.
      await page.goto('/clientes');
      await page
        .getByRole('button', { name: `Ações: ${before}` })
        .first()
        .click();
      await page.getByRole('menuitem', { name: 'Editar cliente' }).click();
      const edit = page.getByRole('dialog', { name: 'Editar cliente' });
      await edit.getByLabel('Nome da loja').fill(after);
      await edit.getByRole('button', { name: 'Salvar' }).click();
      await edit.waitFor({ state: 'detached' });

      // Found in Auditoria, by the sidebar.
      if (size === 'phone') await page.getByRole('button', { name: /menu/i }).first().click();
      await page.getByRole('menuitem', { name: 'Auditoria' }).click();
      await page.getByRole('heading', { name: 'Auditoria' }).waitFor();
      const search = page.getByRole('search', { name: 'Auditoria' });
      await search.getByLabel('Recurso').click();
      await page.getByRole('option', { name: 'Clientes', exact: true }).click();
      await search.getByLabel('Registro (id)').fill(id);
      await search.getByLabel('Registro (id)').press('Enter');
      const today = new Date().toISOString().slice(0, 10);
      await search.getByLabel('De').fill(today);
      await search.getByLabel('Até').fill(today);
      await search.getByLabel('Usuário').click();
      await page.getByRole('option', { name: SUPERUSER.email }).click();
      await page.waitForURL((url) => {
        const filter = JSON.parse(url.searchParams.get('filter') ?? '{}');
        return filter.record_id === id && filter.resource === 'Client' && !!filter.user_id && !!filter.since;
      });
      // The user's select closed, its menu faded out.
      await expect.poll(() => page.locator('.MuiPopover-root').count()).toBe(0);
      const main = page.getByRole('main');
      await main.getByText('Alterou').first().waitFor();
      await main.getByText('Criou').first().waitFor();
      await expect.poll(() => main.getByText('Alterou').count()).toBe(1);
      await expect.poll(() => main.getByText(/Loja Outra/).count()).toBe(0);
      await main.getByText(SUPERUSER.email).first().waitFor();
      await main.getByText('127.0.0.1').first().waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `/tmp/audit-list-${size}-${theme}.png`, fullPage: true });

      // The event, read-only: its fields before → after, a secret as alterado on the creation.
      await main.getByText('Alterou').first().click();
      const shown = page.getByRole('dialog', { name: 'Ver evento' });
      await shown.waitFor();
      // Drawn once its opening transition is over.
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll('.MuiDialog-container')).every((c) => getComputedStyle(c).opacity === '1'),
      );
      await shown.getByText(before, { exact: true }).waitFor();
      await shown.getByText(after, { exact: true }).waitFor();
      await shown.getByText('Nome da loja', { exact: true }).waitFor();
      expect(await shown.getByRole('button', { name: /Salvar|Excluir|Deletar/ }).count()).toBe(0);
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/audit-event-${size}-${theme}.png`, fullPage: true });
      await page.keyboard.press('Escape');
      await shown.waitFor({ state: 'detached' });
      await main.getByText('Criou').first().click();
      await page.getByRole('dialog', { name: 'Ver evento' }).getByText('alterado', { exact: true }).waitFor();
      // No create, edit or delete anywhere on the screen.
      await page.keyboard.press('Escape');
      expect(await page.getByRole('button', { name: /Adicionar/ }).count()).toBe(0);
      await page.context().close();
    }
  });

  it('is not in the sidebar of someone who is not a superuser', async () => {
    const user = await t.createUser();
    const page = await open(SIZES.desktop);
    await login(page, user.email, user.password);
    await page.getByRole('menuitem', { name: 'Clientes', exact: true }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Auditoria' }).count()).toBe(0);
    await page.context().close();
  });
});
