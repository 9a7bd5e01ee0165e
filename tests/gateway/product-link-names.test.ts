import { describe, expect, it } from 'vitest';
import { syncSuite } from '../support/sync';

/** A linked product names its variant: a grade's two variants do not both read "Tênis". */
const suite = syncSuite({ hiper: { pageSize: 4 } });

describe('a linked product', () => {
  it("reads with its variant's values after the product's name; a simple product by its name alone", async () => {
    const c = await suite.tools.connectedClient();
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
    expect((await suite.tools.syncNow(c.id)).state).toBe('succeeded');
    const links = await suite.t.request('GET', `/api/v1/product-links/?client_id=${c.id}&limit=100`, {
      token: suite.su,
    });
    expect(links.body.data.map((l: { name: string }) => l.name).sort()).toEqual([
      'Caneta',
      'Tênis — Azul / 42',
      'Tênis — Preto / 40',
    ]);
    // Found by its values too.
    const found = await suite.t.request('GET', `/api/v1/product-links/?client_id=${c.id}&q=Azul`, { token: suite.su });
    expect(found.body.data.map((l: { name: string }) => l.name)).toEqual(['Tênis — Azul / 42']);
  });
});
