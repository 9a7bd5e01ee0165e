import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe('toCsv', () => {
  it("starts with UTF-8's byte-order mark, so that spreadsheet programs read accents as written", () => {
    const csv = toCsv([['Sincronizar dimensões'], ['Sim']]);
    expect([...new TextEncoder().encode(csv).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv).toBe('\uFEFFSincronizar dimensões\r\nSim');
  });

  it('quotes what needs quoting and keeps formula-like text as text', () => {
    expect(toCsv([['a,b', 'say "hi"', '=SUM(A1)', '-12']])).toBe('\uFEFF"a,b","say ""hi""",\'=SUM(A1),-12');
  });
});
