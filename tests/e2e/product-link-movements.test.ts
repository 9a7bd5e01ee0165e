import { describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/gateway';
import { startTestGateway } from '../support/gateway';
import { placeLocations } from '../support/locations';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { syncEnv, syncTools } from '../support/sync';
import { browserSuite, openSignedIn, scrollsSideways } from './support/browser';

/**
 * A product link's dialog lists its SKU's stock movements at every location, newest first, in Portuguese (and says so
 * when there are none); the Sincronizações screen says which SKU a location's Hiper account lacks.
 */
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;
let su: string;

const open = browserSuite(
  async () => {
    [hiper, nuvemshop] = await Promise.all([
      startHiper(),
      startNuvemshopApi({ bucket: { size: 40, drainPerSecond: 40 } }),
    ]);
    t = await startTestGateway(syncEnv(hiper, nuvemshop));
    su = await t.superuserToken();
    return t;
  },
  async () => {
    await Promise.all([hiper?.close(), nuvemshop?.close()]);
  },
);

describe('a product link’s dialog', () => {
  it('shows its SKU’s stock movements at every location, newest first, and says when there are none', async () => {
    const tools = syncTools(t, su, hiper, nuvemshop);
    const c = await tools.connectedClient();
    const mug = c.account.add({ codigo: 7001, nome: 'Caneca esmaltada', quantidadeEmEstoque: 5 });
    c.account.add({ codigo: 7002, nome: 'Caneca sem depósito', quantidadeEmEstoque: 1 });
    const [, warehouse] = await placeLocations(t, su, hiper, c, [
      { name: 'Loja do centro', feed: 'client' },
      { name: 'Depósito', feed: 'own', stockOf: (codigo) => (codigo === 7001 ? 12 : undefined) },
      { name: 'Quiosque', feed: 'none' },
    ]);
    expect((await tools.syncNow(c.id)).state).toBe('succeeded');
    warehouse.account!.setStock(mug.codigo, 9);
    c.account.setStock(mug.id, 4);
    expect((await tools.syncNow(c.id, 'stock')).state).toBe('succeeded');

    // A client of one location whose product was created with its stock: nothing written apart, nothing moved.
    const plain = await tools.connectedClient();
    plain.account.add({ codigo: 7100, nome: 'Meia lisa', quantidadeEmEstoque: 3 });
    expect((await tools.syncNow(plain.id)).state).toBe('succeeded');

    for (const [theme, size] of [
      ['light', 'desktop'],
      ['dark', 'desktop'],
      ['light', 'phone'],
      ['dark', 'phone'],
    ] as const) {
      const page = await openSignedIn(open, theme, size);
      await page.goto('/produtos-vinculados');
      await page.getByRole('heading', { name: 'Produtos vinculados' }).waitFor();
      await page.getByText('Caneca esmaltada', { exact: true }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Ver produto vinculado' });
      await dialog.waitFor();
      const section = dialog.getByRole('region', { name: 'Movimentos de estoque deste SKU, em todos os estoques' });
      await section.waitFor();
      const rows = size === 'desktop' ? section.getByRole('row') : section.getByRole('listitem');
      // Newest first: this run's two changes, then the first writes after the creation at each location.
      await expect.poll(() => rows.count()).toBe(size === 'desktop' ? 6 : 5);
      const texts = (await rows.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
      const shown = size === 'desktop' ? texts.slice(1) : texts;
      const moment = String.raw`\d\d/\d\d/\d{4} \d\d:\d\d`;
      const line = (where: string, before: number | string, after: number) =>
        new RegExp(
          size === 'desktop'
            ? `^${moment} ${where} ${before} ${after} Mudança no Hiper —$`
            : `^Quando ${moment} Estoque ${where} Valor anterior ${before} Valor escrito ${after} ` +
                `Motivo Mudança no Hiper Pedido —$`,
        );
      // The last run's two writes (one batch, in either order), then the first ones after the creation.
      expect(shown.slice(0, 2).sort()).toEqual([
        expect.stringMatching(line('Depósito', 12, 9)),
        expect.stringMatching(line('Loja do centro', 5, 4)),
      ]);
      if (size === 'desktop') expect(texts[0]).toBe('Quando Estoque Antes Escrito Motivo Pedido');
      // What a location held before the first write after the creation is not known.
      expect(shown.slice(2).sort()).toEqual([
        expect.stringMatching(line('Depósito', '—', 12)),
        expect.stringMatching(line('Loja do centro', '—', 5)),
        expect.stringMatching(line('Quiosque', '—', 0)),
      ]);
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/product-link-movements-${size}-${theme}.png`, animations: 'disabled' });
      await dialog.getByRole('button', { name: 'Fechar' }).click();
      await dialog.waitFor({ state: 'detached' });

      await page.getByText('Meia lisa', { exact: true }).first().click();
      await dialog.waitFor();
      await dialog
        .getByText(
          'Nenhum movimento de estoque deste SKU ainda: aparecem aqui quando a integração escrever o estoque dele.',
          { exact: true },
        )
        .waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/product-link-no-movements-${size}-${theme}.png`, animations: 'disabled' });
      await dialog.getByRole('button', { name: 'Fechar' }).click();
      await dialog.waitFor({ state: 'detached' });

      // The run that created them says which SKU the warehouse's Hiper account lacks.
      await page.goto('/sincronizacoes');
      await page.getByText('SKU 7002: SKU sem estoque no Hiper do estoque Depósito', { exact: true }).first().waitFor();
      await page.context().close();
    }
  });
});
