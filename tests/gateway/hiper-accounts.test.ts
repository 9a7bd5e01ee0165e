import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HiperClient, HiperKeyRefused, HiperUnavailable } from '../../gateway/platforms/hiper.client';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';

/**
 * The Hiper stand-in as several stock locations use it: one account per location, each with its own security key,
 * its own product ids, its own stock and its own change cursor, every one as strict as a single account.
 */
let hiper: HiperStandIn;

beforeAll(async () => {
  hiper = await startHiper({ pageSize: 2 });
});
afterAll(async () => {
  await hiper?.close();
});
afterEach(() => hiper.clearFaults());

const clientOf = (key: string) => new HiperClient({ baseUrl: hiper.url, key, timeoutMs: 2000 });

/** A shop's catalogue and a warehouse account holding the same codes with ids and stock of its own. */
function shopAndWarehouse() {
  const shop = hiper.addAccount();
  shop.add({ codigo: 501, nome: 'Caneca', quantidadeEmEstoque: 4 });
  shop.add({
    codigo: 600,
    nome: 'Camisa',
    variacao: [
      { codigo: 601, nomeVariacaoA: 'P', tipoVariacaoA: 'Tamanho', quantidadeEmEstoque: 1 },
      { codigo: 602, nomeVariacaoA: 'G', tipoVariacaoA: 'Tamanho', quantidadeEmEstoque: 2 },
    ],
  });
  const warehouse = hiper.addAccount();
  warehouse.copyCatalogue(shop, (codigo) => codigo - 500);
  return { shop, warehouse };
}

describe('several Hiper accounts', () => {
  it('each answers its own products, ids and stock, after its own cursor', async () => {
    const { shop, warehouse } = shopAndWarehouse();
    const [ofShop, ofWarehouse] = await Promise.all([
      clientOf(shop.key).readAll(0),
      clientOf(warehouse.key).readAll(0),
    ]);
    const stock = (page: typeof ofShop) =>
      Object.fromEntries(
        page.products.flatMap((p) =>
          p.variacao?.length
            ? p.variacao.map((v) => [v.codigo, v.quantidadeEmEstoque])
            : p.produtoPrimarioId === '00000000-0000-0000-0000-000000000000'
              ? [[p.codigo, p.quantidadeEmEstoque]]
              : [],
        ),
      );
    expect(stock(ofShop)).toEqual({ 501: 4, 601: 1, 602: 2 });
    expect(stock(ofWarehouse)).toEqual({ 501: 1, 601: 101, 602: 102 });
    // The same codes, never the same ids.
    const ids = (page: typeof ofShop) => new Set(page.products.map((p) => p.id));
    expect([...ids(ofShop)].filter((id) => ids(ofWarehouse).has(id))).toEqual([]);

    // A change in one account moves that account's cursor alone.
    warehouse.setStock(501, 9);
    expect((await clientOf(shop.key).readAll(ofShop.cursor)).products).toEqual([]);
    const moved = await clientOf(warehouse.key).readAll(ofWarehouse.cursor);
    expect(moved.products.map((p) => [p.codigo, p.quantidadeEmEstoque])).toEqual([[501, 9]]);
    expect(moved.cursor).toBeGreaterThan(ofWarehouse.cursor);
    // Codes the warehouse gives later never repeat the copied ones.
    expect(warehouse.add({ nome: 'Novo' }).codigo).toBeGreaterThan(602);
  });

  it('takes a token only for its own account, and refuses one account’s key while the others work', async () => {
    const { shop, warehouse } = shopAndWarehouse();
    const warehouseClient = clientOf(warehouse.key);
    const token = await warehouseClient.token();
    // A sales order naming the shop's product ids is refused by the warehouse: its ids are its own.
    const answer = await warehouseClient.authorized('POST', '/pedido-de-venda/', {
      itens: [{ produtoId: shop.product(501).id }],
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain(`Produto ${shop.product(501).id} não encontrado`);
    expect(hiper.requestsOf(warehouse.key).every((r) => r.key === warehouse.key)).toBe(true);
    expect(hiper.requestsOf(shop.key)).toEqual([]);
    expect(token).not.toBe(await clientOf(shop.key).token());

    hiper.refuseKey(warehouse.key);
    await expect(clientOf(warehouse.key).page(0)).rejects.toBeInstanceOf(HiperKeyRefused);
    expect((await clientOf(shop.key).page(0)).products.length).toBeGreaterThan(0);
  });

  it('fails one account’s calls alone when a fault names its key', async () => {
    const { shop, warehouse } = shopAndWarehouse();
    hiper.inject({ key: warehouse.key, path: '/produtos/pontoDeSincronizacao', status: 503, times: 5 });
    await expect(clientOf(warehouse.key).page(0)).rejects.toBeInstanceOf(HiperUnavailable);
    expect((await clientOf(shop.key).page(0)).products.length).toBe(2);
    const failed = hiper.requestsOf(warehouse.key).filter((r) => r.path === '/produtos/pontoDeSincronizacao');
    expect(failed.map((r) => r.status)).toEqual([503]);
  });

  it('serves one account as before, its key refused when unknown', async () => {
    const only = hiper.addAccount();
    only.add({ nome: 'Sozinho', quantidadeEmEstoque: 3 });
    const page = await clientOf(only.key).page(0);
    expect(page.products.map((p) => p.quantidadeEmEstoque)).toEqual([3]);
    await expect(clientOf('f'.repeat(64)).page(0)).rejects.toBeInstanceOf(HiperKeyRefused);
  });
});
