import { describe, expect, it } from 'vitest';
import { correctedSearch, parsePage } from './listAddress';

describe('the page in the address', () => {
  it('reads a whole number from 1 up, anything else is page 1', () => {
    expect(parsePage('3')).toBe(3);
    for (const invalid of [null, '', '0', '-1', 'abc', '1.5', '2x', '99999999999999999999']) {
      expect(parsePage(invalid)).toBe(1);
    }
  });

  it('corrects an invalid page and a foreign page size, and leaves a good address alone', () => {
    expect(correctedSearch('?page=2', 5)).toBeNull();
    expect(correctedSearch('', 5)).toBeNull();
    expect(correctedSearch('?page=abc', 5)).toBe('?page=1');
    expect(correctedSearch('?page=3&perPage=500', 5)).toBe('?page=3');
  });
});
