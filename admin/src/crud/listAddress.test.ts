import { describe, expect, it } from 'vitest';
import { correctedSearch, pageSizesOf, parsePage } from './listAddress';

describe('the page in the address', () => {
  it('reads a whole number from 1 up, anything else is page 1', () => {
    expect(parsePage('3')).toBe(3);
    for (const invalid of [null, '', '0', '-1', 'abc', '1.5', '2x', '99999999999999999999']) {
      expect(parsePage(invalid)).toBe(1);
    }
  });

  it('corrects an invalid page and a foreign page size, and leaves a good address alone', () => {
    expect(correctedSearch('?page=2', [5])).toBeNull();
    expect(correctedSearch('', [5])).toBeNull();
    expect(correctedSearch('?page=abc', [5])).toBe('?page=1');
    expect(correctedSearch('?page=3&perPage=500', [5])).toBe('?page=3');
    expect(correctedSearch('?page=3&perPage=25', [5])).toBe('?page=3');
    expect(correctedSearch('?page=3&perPage=25', pageSizesOf('pedidos'))).toBeNull();
  });

  it('keeps five rows on the specification’s lists and offers 10, 25 or 50 on the others', () => {
    for (const spec of ['items', 'clientes', 'admin']) expect(pageSizesOf(spec)).toEqual([5]);
    for (const added of ['pedidos', 'sincronizacoes', 'webhooks', 'emails'])
      expect(pageSizesOf(added)).toEqual([10, 25, 50]);
  });
});
