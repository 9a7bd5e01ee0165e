import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestGateway, SUPERUSER, type TestGateway } from '../support/gateway';
import { browserSuite, expectToast, login, openSignedIn, scrollsSideways, type SIZES } from './support/browser';

/**
 * What staff do on the Pedidos screen and in a client's dialog, in Chromium against a real gateway: money read as
 * money, an order's lines and history read as a table and a timeline, Reenviar and Já está no Hiper only where they
 * apply, and a client's payment methods edited as rows.
 */
let t: TestGateway;
const open = browserSuite(async () => {
  t = await startTestGateway();
  return t;
});

const openIn = (theme: 'light' | 'dark', size: keyof typeof SIZES) => openSignedIn(open, theme, size);
const LOOKS = [
  ['light', 'desktop'],
  ['dark', 'desktop'],
  ['light', 'phone'],
  ['dark', 'phone'],
] as const;

/** The texts a person reads (Intl writes a no-break space after R$). */
const visible = async (page: Page, selector = 'body') =>
  (await page.locator(selector).first().innerText()).replace(/\u00a0/g, ' ');

/** The labels of a row menu's items, the menu closed again. */
async function menuItems(page: Page, number: number) {
  await page
    .getByRole('button', { name: `Ações: ${number}`, exact: true })
    .first()
    .click();
  // The row's menu (the sidebar is a menu too).
  const menu = page.getByRole('menu').filter({ has: page.getByRole('menuitem', { name: 'Ver pedido' }) });
  await menu.waitFor();
  const items = await menu.getByRole('menuitem').allInnerTexts();
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  return items;
}

describe('the Pedidos screen', () => {
  it('reads money as money, offers each action only where it applies, and shows an order’s lines and history', async () => {
    const token = await t.superuserToken();
    const client = await t.request('POST', '/api/v1/clients/', {
      token,
      json: { url: 'https://loja-telas.example', nuvemshop_store_id: 7171, orders_enabled: true },
    });
    expect(client.status, client.text).toBe(200);
    const lines = JSON.stringify([
      { sku: '3001', name: 'Camiseta azul', quantity: 2, price: '49.95', hiper_id: 'h-3001' },
      { sku: '3002', name: 'Boné de algodão com aba curva', quantity: 1, price: '1250', hiper_id: null },
    ]);
    const history = JSON.stringify([
      { at: '2026-11-27T13:05:09Z', state: 'received', note: 'Recebido por webhook (order/paid)' },
      { at: '2026-11-27T13:05:11Z', state: 'held', note: 'Produto sem vínculo: 3002' },
    ]);
    for (const [id, number, state, reason, total] of [
      [3000000201, 201, 'held', 'Produto sem vínculo: 3002', '1349.90'],
      [3000000202, 202, 'uncertain', null, '65.00'],
      [3000000203, 203, 'sent', null, '99.90'],
    ] as const) {
      await t.sql(
        `insert into orders (id, client_id, nuvemshop_order_id, number, state, hold_reason, payment_status, total,
           customer_name, lines, history, received_at, updated_at, created_at)
         values (gen_random_uuid(), $1, $2, $3, $4, $5, 'paid', $6, 'Maria da Silva', $7, $8, now(), now(), now())`,
        [client.body.id, id, number, state, reason, total, lines, history],
      );
    }

    for (const [theme, size] of LOOKS) {
      const page = await openIn(theme, size);
      await page.goto('/pedidos');
      await page.getByText('Aguardando pessoa').first().waitFor();
      const list = await visible(page, 'main');
      expect(list).toContain('R$ 1.349,90');
      expect(list).toContain('R$ 99,90');
      expect(list).not.toContain('99.90');

      // The menus once per size (the appearance changes only their colours).
      if (theme === 'light') {
        expect(await menuItems(page, 203)).toEqual(['Ver pedido']);
        expect(await menuItems(page, 202)).toEqual(['Ver pedido', 'Reenviar', 'Já está no Hiper']);
        expect(await menuItems(page, 201)).toEqual(['Ver pedido', 'Reenviar']);
      }
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/orders-screens-list-${size}-${theme}.png` });

      await page.getByRole('button', { name: 'Ações: 201', exact: true }).first().click();
      await page.getByRole('menuitem', { name: 'Ver pedido' }).click();
      const dialog = page.getByRole('dialog', { name: 'Ver pedido' });
      await dialog.waitFor();
      const shown = await visible(page, '[role="dialog"]');
      expect(shown).not.toContain('"sku"');
      expect(shown).not.toContain('"note"');
      expect(shown).toContain('R$ 1.349,90');
      expect(shown).toContain('R$ 49,95');
      expect(shown).toContain('sem vínculo');
      // The steps in order, each with its moment in pt-BR, its state in words and its note.
      const steps = dialog.getByRole('list', { name: 'Histórico' }).getByRole('listitem');
      expect(await steps.count()).toBe(2);
      const when = await page.evaluate(() =>
        new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' })
          .format(new Date('2026-11-27T13:05:11Z'))
          .replace(', ', ' '),
      );
      const last = await steps.nth(1).innerText();
      expect(last).toContain(when);
      expect(last).toContain('Aguardando pessoa');
      expect(last).toContain('Produto sem vínculo: 3002');
      if (size === 'desktop') {
        const table = dialog.getByRole('table', { name: 'Itens' });
        expect(await table.getByRole('columnheader').allInnerTexts()).toEqual([
          'SKU',
          'Produto',
          'Qtd.',
          'Preço',
          'Produto no Hiper',
        ]);
      } else {
        expect(await dialog.getByRole('list', { name: 'Itens' }).getByRole('listitem').count()).toBe(2);
      }
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/orders-screens-dialog-${size}-${theme}.png` });
      await dialog.getByRole('list', { name: 'Histórico' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/orders-screens-dialog-history-${size}-${theme}.png` });
      await page.context().close();
    }
  });
});

describe('the Pedidos filter', () => {
  it('offers an order’s states in the order of their lifecycle', async () => {
    const page = await openIn('light', 'desktop');
    await page.goto('/pedidos');
    await page.getByRole('combobox', { name: 'Estado' }).click();
    const options = await page.getByRole('listbox').getByRole('option').allInnerTexts();
    expect(options).toEqual([
      'Todos',
      'Recebido',
      'Aguardando pessoa',
      'Enviando',
      'Enviado',
      'Processado',
      'Rejeitado',
      'Faturado',
      'Despachado',
      'Cancelado',
      'Incerto',
    ]);
  });
});

describe('an uncertain order', () => {
  it('is taken as sent from its dialog: Já está no Hiper, then neither action is offered', async () => {
    const token = await t.superuserToken();
    const client = await t.request('POST', '/api/v1/clients/', {
      token,
      json: { url: 'https://loja-incerta.example', nuvemshop_store_id: 7272, orders_enabled: true },
    });
    await t.sql(
      `insert into orders (id, client_id, nuvemshop_order_id, number, state, payment_status, total, customer_name,
         lines, history, received_at, updated_at, created_at)
       values (gen_random_uuid(), $1, 3000000301, 301, 'uncertain', 'paid', '65.00', 'João Souza', '[]', '[]', now(),
         now(), now())`,
      [client.body.id],
    );
    const page = await openIn('light', 'desktop');
    await page.goto(`/pedidos?filter=${encodeURIComponent(JSON.stringify({ client_id: client.body.id }))}`);
    await page.getByRole('cell', { name: '301', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Ver pedido' });
    await dialog.getByRole('button', { name: 'Reenviar' }).waitFor();
    await dialog.getByRole('button', { name: 'Já está no Hiper' }).click();
    const ask = page.getByRole('dialog', { name: 'O pedido 301 já está no Hiper' });
    await ask
      .getByRole('textbox', { name: 'ID do pedido de venda no Hiper' })
      .fill('793bd707-505f-44bb-b02b-56972bf365d5');
    await ask.getByRole('button', { name: 'Marcar como enviado' }).click();
    await expectToast(page, 'Pedido marcado como enviado', 'O pedido 301 não será enviado de novo.');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Enviado', exact: true }).waitFor();
    expect(await menuItems(page, 301)).toEqual(['Ver pedido']);
    const [row] = await t.sql<{ state: string }>(`select state from orders where nuvemshop_order_id = 3000000301`);
    expect(row.state).toBe('sent');
  });
});

describe('a client’s payment methods in Hiper', () => {
  it('are added as rows, saved, read back on reopening; a bad value is refused in Portuguese', async () => {
    const token = await t.superuserToken();
    for (const [index, [theme, size]] of LOOKS.entries()) {
      const url = `https://loja-meios-${index}.example`;
      const client = await t.request('POST', '/api/v1/clients/', { token, json: { url, orders_enabled: true } });
      expect(client.status, client.text).toBe(200);
      const page = await openIn(theme, size);
      await page.goto('/clientes');
      const edit = async () => {
        await page
          .getByRole('button', { name: `Ações: ${url}`, exact: true })
          .first()
          .click();
        await page.getByRole('menuitem', { name: 'Editar cliente' }).click();
        const dialog = page.getByRole('dialog', { name: 'Editar cliente' });
        await dialog.waitFor();
        return { dialog, map: dialog.getByRole('group', { name: 'Meios de pagamento no Hiper' }) };
      };
      const { dialog, map } = await edit();
      await map.scrollIntoViewIfNeeded();
      await map.getByRole('button', { name: 'Adicionar' }).click();
      await map.getByLabel('Meio na Nuvemshop').nth(0).fill('pix');
      await map.getByLabel('ID no Hiper').nth(0).fill('12');
      await map.getByRole('button', { name: 'Adicionar' }).click();
      await map.getByLabel('Meio na Nuvemshop').nth(1).fill('boleto');
      await map.getByLabel('ID no Hiper').nth(1).fill('doze');
      await map.getByLabel('Meio na Nuvemshop').nth(1).focus();
      await map.getByText('Informe um número inteiro a partir de 1').waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/orders-screens-payments-error-${size}-${theme}.png` });
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await map.getByText('Corrija as linhas destacadas').waitFor();
      expect((await t.request('GET', `/api/v1/clients/${client.body.id}`, { token })).body.orders_payment_ids).toBe(
        null,
      );

      await map.getByLabel('ID no Hiper').nth(1).fill('7');
      // Fixed, the map's message goes before it is saved.
      await map.getByText('Corrija as linhas destacadas').waitFor({ state: 'detached' });
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await expectToast(page, 'Sucesso', 'Cliente atualizado com sucesso.');
      await dialog.waitFor({ state: 'detached' });
      const stored = await t.request('GET', `/api/v1/clients/${client.body.id}`, { token });
      expect(stored.body.orders_payment_ids).toEqual({ pix: 12, boleto: 7 });

      const again = await edit();
      await again.map.scrollIntoViewIfNeeded();
      expect(
        await again.map
          .getByLabel('Meio na Nuvemshop')
          .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)),
      ).toEqual(['pix', 'boleto']);
      expect(
        await again.map
          .getByLabel('ID no Hiper')
          .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)),
      ).toEqual(['12', '7']);
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/orders-screens-payments-${size}-${theme}.png` });
      await page.context().close();
    }
  });
});

describe('a list in a narrow window', () => {
  it('keeps its tools in two tidy rows beside the sidebar, and the “Com falhas” chip whole, light and dark', async () => {
    const token = await t.superuserToken();
    for (const url of ['https://com-falhas.example', 'https://em-dia.example']) {
      const made = await t.request('POST', '/api/v1/clients/', { token, json: { url } });
      expect(made.status).toBe(200);
    }
    await t.sql(`update clients set sync_state = 'partial', last_synced_at = now() where url = $1`, [
      'https://com-falhas.example',
    ]);
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [700, 1000]) {
        const page = await open({ width, height: 900 });
        await page.context().addInitScript((chosen) => {
          localStorage.setItem('RaStoreSistemaIntegracao.theme', JSON.stringify(chosen));
        }, theme);
        await login(page, SUPERUSER.email, SUPERUSER.password);
        await page.goto('/clientes');
        await page.getByRole('button', { name: 'Ações: https://com-falhas.example' }).waitFor();
        const search = (await page.getByRole('search').boundingBox())!;
        const filter = (await page.getByLabel('Sincronização').first().boundingBox())!;
        const add = (await page.getByRole('button', { name: 'Adicionar Cliente' }).boundingBox())!;
        const exporting = (await page.getByRole('button', { name: 'Exportar' }).boundingBox())!;
        // The search and the filter share the first row; the two buttons the next (or the same), together.
        expect(filter.y).toBeLessThan(search.y + search.height);
        expect(Math.abs(add.y + add.height / 2 - (exporting.y + exporting.height / 2))).toBeLessThan(4);
        expect(add.x).toBeLessThan(exporting.x);
        await page.screenshot({ path: `/tmp/orders-screens-clients-${width}-${theme}.png` });
        expect(await scrollsSideways(page), `clientes at ${width}`).toBe(false);
        await page.screenshot({ path: `/tmp/orders-screens-clients-${width}-${theme}.png` });
        const chip = page.getByText('Com falhas', { exact: true }).first();
        await chip.scrollIntoViewIfNeeded();
        const box = (await chip.boundingBox())!;
        expect(box.height).toBeLessThan(30);
        await page.screenshot({ path: `/tmp/orders-screens-clients-chip-${width}-${theme}.png` });
        await page.goto('/pedidos');
        await page.getByRole('heading', { name: 'Pedidos' }).first().waitFor();
        await page.getByRole('button', { name: 'Exportar' }).waitFor();
        await page.waitForTimeout(300);
        await page.screenshot({ path: `/tmp/orders-screens-pedidos-${width}-${theme}.png` });
        expect(await scrollsSideways(page), `pedidos at ${width}`).toBe(false);
        await page.context().close();
      }
    }
  });
});
