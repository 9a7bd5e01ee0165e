import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startTestGateway } from '../support/gateway';
import { orderTools, ordersEnv, type OrderSuite } from '../support/orders';
import { clientWithTwoLocations, stockAt, twoShipmentOrder, waitForShipments } from '../support/shipments';
import { startHiper } from '../support/standins/hiper';
import { startNuvemshopApi } from '../support/standins/nuvemshop-api';
import { browserSuite, expectToast, openSignedIn, scrollsSideways, type SIZES } from './support/browser';

/**
 * An order the store ships from two locations, each shipment sent into its location's Hiper account, as staff see it
 * on the Pedidos screen in Chromium: the shipments under the order's number, each with its state, its location, its
 * code in Hiper and its own actions; at 1440×900 and 390×844, light and dark.
 */
const suite = {} as OrderSuite;
const open = browserSuite(
  async () => {
    [suite.hiper, suite.nuvemshop] = await Promise.all([
      startHiper(),
      startNuvemshopApi({ bucket: { size: 400, drainPerSecond: 400 } }),
    ]);
    suite.t = await startTestGateway(ordersEnv(suite.hiper, suite.nuvemshop));
    suite.su = await suite.t.superuserToken();
    suite.tools = orderTools(suite.t, suite.su, suite.hiper, suite.nuvemshop);
    return suite.t;
  },
  async () => {
    await Promise.all([suite.hiper?.close(), suite.nuvemshop?.close()]);
  },
);

const LOOKS = [
  ['light', 'desktop'],
  ['dark', 'desktop'],
  ['light', 'phone'],
  ['dark', 'phone'],
] as const;
const openIn = (theme: 'light' | 'dark', size: keyof typeof SIZES) => openSignedIn(open, theme, size);
const visible = async (page: Page, selector = 'main') =>
  (await page.locator(selector).first().innerText()).replace(/\u00a0/g, ' ');

describe('an order shipped from two locations on the Pedidos screen', () => {
  it('shows its shipments under its number, each with its state, location, Hiper code and actions', async () => {
    const c = await clientWithTwoLocations(suite);
    // The warehouse's Hiper lacks the black shoe, so its shipment waits for a person; the shop's is sent, then invoiced.
    c.warehouse.remove(c.warehouse.product(c.warehouseIds.black).produtoPrimarioId);
    stockAt(c.store, c.black.variant.id, { [c.far.id]: 10 });
    const order = twoShipmentOrder(c, {
      lines: [
        { variant: c.shirt.variant, quantity: 2 },
        { variant: c.black.variant, quantity: 1 },
      ],
    });
    // Another, shipped whole from the shop: a row of its own.
    stockAt(c.store, c.shirt.variant.id, { [c.shop.id]: 10 });
    const single = c.store.seedOrder({ lines: [{ variant: c.shirt.variant }] });
    for (const o of [order, single]) await suite.tools.webhook(c.storeId, 'order/paid', o.id);
    await suite.tools.settled();
    const rows = await waitForShipments(suite, c.id, order, 2, ['sent', 'held']);
    expect(rows.map((r) => r.state)).toEqual(['sent', 'held']);
    const [sale] = c.account.ordersNumbered(`${order.number}-1`);
    c.account.addOrderEvent(sale.id, 3, {
      chaveDocumentoFiscal: '42241112345678000190550010000001231000001234',
      urlArquivoXml: 'https://nfe.example/1234.xml',
    });
    await suite.tools.pollStatus();
    await waitForShipments(suite, c.id, order, 2, ['invoiced', 'held']);
    await waitForShipments(suite, c.id, single, 1, ['sent', 'invoiced']);
    const code = (await waitForShipments(suite, c.id, order, 2, ['invoiced', 'held']))[0].hiper_code;

    const heading = `Pedido ${order.number} · 2 remessas`;
    for (const [theme, size] of LOOKS) {
      const page = await openIn(theme, size);
      await page.goto('/pedidos');
      await page.getByText(heading).waitFor();
      // The shipments together under the heading, each with its location by its name, a link to it (each
      // location's name is read on its own: wait for both inside the group, not for the other order's).
      const group = page.getByRole(size === 'desktop' ? 'rowgroup' : 'list', { name: heading }).first();
      await group
        .getByRole('link', { name: /^Depósito Sul\b/ })
        .first()
        .waitFor();
      await group
        .getByRole('link', { name: /^Loja\b/ })
        .first()
        .waitFor();
      const shown = await visible(page);
      expect(shown).toContain('Comprador: Maria da Silva');
      expect(shown).toContain(`Total: R$ ${order.total.replace('.', ',')}`);
      for (const text of [`${order.number}-1`, `${order.number}-2`, 'Faturado', 'Aguardando pessoa', code]) {
        expect(shown).toContain(text);
      }
      // The shipments read in their order under the heading, each with its location.
      const inGroup = (await group.innerText()).replace(/\u00a0/g, ' ');
      expect(inGroup.indexOf(`${order.number}-1`)).toBeLessThan(inGroup.indexOf(`${order.number}-2`));
      expect(inGroup).toContain('Loja');
      expect(inGroup).toContain('Depósito Sul');
      expect(inGroup).not.toContain(String(single.number));
      // The order sent whole stands on its own, under no heading.
      expect(shown).not.toContain(`Pedido ${single.number} ·`);
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/orders-shipments-${size}-${theme}.png`, fullPage: true });

      if (theme === 'light') {
        // Each shipment's own actions, named by its number in Hiper.
        await page.getByRole('button', { name: `Ações: ${order.number}-2`, exact: true }).click();
        const menu = page.getByRole('menu').filter({ has: page.getByRole('menuitem', { name: 'Ver pedido' }) });
        expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['Ver pedido', 'Reenviar']);
        await page.getByRole('menuitem', { name: 'Ver pedido' }).click();
        const dialog = page.getByRole('dialog', { name: 'Ver pedido' });
        await dialog.waitFor();
        const said = await visible(page, '[role="dialog"]');
        expect(said).toContain(`Produto sem cadastro no Hiper do estoque Depósito Sul: ${c.black.variant.sku}`);
        expect(said).toContain(`${order.number}-2`);
        expect(said).toContain('Depósito Sul');
        await page.screenshot({ path: `/tmp/orders-shipments-dialog-${size}.png` });
        await dialog.getByRole('button', { name: 'Fechar' }).click();
      }
    }

    // Its product added to the warehouse's Hiper, staff resend that shipment alone.
    c.warehouse.add({
      nome: 'Tênis preto',
      preco: 200,
      variacao: [
        { codigo: c.black.hiper.codigo, nomeVariacaoA: 'Preto', tipoVariacaoA: 'Cor', quantidadeEmEstoque: 2 },
      ],
    });
    const page = await openIn('light', 'desktop');
    await page.goto('/pedidos');
    await page.getByRole('button', { name: `Ações: ${order.number}-2`, exact: true }).click();
    await page.getByRole('menuitem', { name: 'Reenviar' }).click();
    await expectToast(page, 'Pedido na fila');
    await waitForShipments(suite, c.id, order, 2, ['invoiced', 'sent']);
    await page.reload();
    const group = page.getByRole('rowgroup', { name: heading });
    await group.getByText('Enviado').waitFor();
    await group.getByRole('link', { name: /^Loja\b/ }).waitFor();
    expect(c.warehouse.ordersNumbered(`${order.number}-2`)).toHaveLength(1);
    expect(c.account.ordersNumbered(`${order.number}-2`)).toHaveLength(0);
    await page.screenshot({ path: '/tmp/orders-shipments-resent.png' });
  });
});
