import { describe, expect, it } from 'vitest';
import { buyerDocument, isValidCnpj, isValidCpf } from '../../gateway/orders/buyer-document';
import { ibgeCode, municipalityList } from '../../gateway/orders/ibge';
import { spreadDiscount } from '../../gateway/orders/order-mapping';

describe('the buyer’s document', () => {
  it('takes a CPF or CNPJ whose check digits hold, digits only, and nothing else', () => {
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('52998224724')).toBe(false);
    expect(isValidCpf('11111111111')).toBe(false);
    expect(isValidCnpj('11222333000181')).toBe(true);
    expect(isValidCnpj('11222333000180')).toBe(false);
    expect(buyerDocument('529.982.247-25')).toBe('52998224725');
    expect(buyerDocument('11.222.333/0001-81')).toBe('11222333000181');
    for (const bad of [null, '', '41913703', '000.000.000-00', '5299822472'])
      expect(buyerDocument(bad)).toBeUndefined();
  });
});

describe('the IBGE municipality list shipped with the product', () => {
  it('holds every municipality of Brazil, 27 states', () => {
    const list = municipalityList();
    expect(Object.keys(list)).toHaveLength(27);
    expect(Object.values(list).reduce((n, cities) => n + Object.keys(cities).length, 0)).toBe(5570);
  });

  it('finds a city by its name and its state’s name or UF, accents and case ignored', () => {
    expect(ibgeCode('Florianópolis', 'Santa Catarina')).toBe(4205407);
    expect(ibgeCode('FLORIANOPOLIS', 'sc')).toBe(4205407);
    expect(ibgeCode('São Paulo', 'SP')).toBe(3550308);
    expect(ibgeCode('sao paulo', 'São Paulo')).toBe(3550308);
    expect(ibgeCode("Santa Bárbara d'Oeste", 'SP')).toBe(3545803);
    expect(ibgeCode('Brasília', 'Distrito Federal')).toBe(5300108);
    // The same name in another state is another municipality, or none.
    expect(ibgeCode('Florianópolis', 'SP')).toBeUndefined();
    expect(ibgeCode('Cidade Que Não Existe', 'SP')).toBeUndefined();
    expect(ibgeCode('Florianópolis', 'Narnia')).toBeUndefined();
  });
});

describe('the discount spread over the lines', () => {
  const total = (units: number[], lines: { quantity: number }[]) =>
    units.reduce((sum, u, i) => sum + u * lines[i].quantity, 0);

  it('in proportion to each line’s gross, to the cent', () => {
    const lines = [
      { unitCents: 5000, quantity: 2 },
      { unitCents: 20000, quantity: 1 },
    ];
    expect(spreadDiscount(lines, 27000)).toEqual([4500, 18000]);
  });

  it('the remainder on a line where it divides, so the lines equal the net total exactly', () => {
    const lines = [
      { unitCents: 999, quantity: 3 },
      { unitCents: 1999, quantity: 1 },
      { unitCents: 333, quantity: 7 },
    ];
    for (const net of [6000, 7000, 7127, 5001]) {
      const units = spreadDiscount(lines, net);
      expect(total(units, lines)).toBe(net);
      expect(units.every((u) => Number.isInteger(u) && u >= 0)).toBe(true);
    }
  });

  it('within one cent per unit when the quantities make an exact split impossible', () => {
    const lines = [
      { unitCents: 1000, quantity: 3 },
      { unitCents: 1000, quantity: 3 },
    ];
    const units = spreadDiscount(lines, 5000);
    const units2 = 6;
    expect(Math.abs(total(units, lines) - 5000)).toBeLessThanOrEqual(units2);
  });

  it('no discount leaves the prices as they are', () => {
    const lines = [
      { unitCents: 1990, quantity: 2 },
      { unitCents: 500, quantity: 1 },
    ];
    expect(spreadDiscount(lines, 4480)).toEqual([1990, 500]);
  });
});
