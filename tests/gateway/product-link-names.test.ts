import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { syncEnv, syncTools } from '../support/sync';

/** A linked product names its variant: a grade's two variants do not both read "Tênis". */
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;
let su: string;
let tools: ReturnType<typeof syncTools>;

beforeAll(async () => {
  [hiper, nuvemshop] = await Promise.all([startHiper({ pageSize: 4 }), startNuvemshopApi()]);
  t = await startTestGateway(syncEnv(hiper, nuvemshop));
  su = await t.superuserToken();
  tools = syncTools(t, su, hiper, nuvemshop);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([hiper?.close(), nuvemshop?.close()]);
});

describe('a linked product', () => {
  it("reads with its variant's values after the product's name; a simple product by its name alone", async () => {
    const c = await tools.connectedClient();
    c.account.add({ nome: 'Caneta', preco: 2, quantidadeEmEstoque: 3 });
    c.account.add({
      nome: 'Tênis',
      preco: 199,
      variacao: [
        {
          nomeVariacaoA: 'Azul',
          tipoVariacaoA: 'Cor',
          nomeVariacaoB: '42',
          tipoVariacaoB: 'Tamanho',
          quantidadeEmEstoque: 3,
        },
        {
          nomeVariacaoA: 'Preto',
          tipoVariacaoA: 'Cor',
          nomeVariacaoB: '40',
          tipoVariacaoB: 'Tamanho',
          quantidadeEmEstoque: 1,
        },
      ],
    });
    expect((await tools.syncNow(c.id)).state).toBe('succeeded');
    const links = await t.request('GET', `/api/v1/product-links/?client_id=${c.id}&limit=100`, { token: su });
    expect(links.body.data.map((l: { name: string }) => l.name).sort()).toEqual([
      'Caneta',
      'Tênis — Azul / 42',
      'Tênis — Preto / 40',
    ]);
    // Found by its values too.
    const found = await t.request('GET', `/api/v1/product-links/?client_id=${c.id}&q=Azul`, { token: su });
    expect(found.body.data.map((l: { name: string }) => l.name)).toEqual(['Tênis — Azul / 42']);
  });
});
