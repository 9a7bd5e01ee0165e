import { describe, expect, it } from 'vitest';
import { shipmentKey, stockLocations } from '../../gateway/locations/location-keys';

const row = (id: string, at: string, more: Partial<Parameters<typeof stockLocations>[0][number]> = {}) => ({
  id,
  nuvemshopLocationId: `L-${id}`,
  name: `Estoque ${id}`,
  hiperToken: null,
  priority: 0,
  isDefault: false,
  deletedAt: null,
  createdAt: new Date(at),
  ...more,
});

describe('which Hiper account feeds each location', () => {
  it('gives the client’s key to the first location read alone; the others show their own key or none', () => {
    const rows = [
      row('b', '2026-01-02', { priority: 0, isDefault: true }),
      row('a', '2026-01-01', { priority: 2 }),
      row('c', '2026-01-03', { priority: 1, hiperToken: 'chave-c' }),
    ];
    const found = stockLocations(rows, 'chave-cliente');
    expect(found.map((l) => [l.id, l.hiperKey, l.clientsKey])).toEqual([
      ['b', null, false],
      ['c', 'chave-c', false],
      ['a', 'chave-cliente', true],
    ]);
  });

  it('takes, of the locations read together, the store’s default for the client’s key, whatever their ids', () => {
    for (const [first, second] of [
      ['a', 'z'],
      ['z', 'a'],
    ]) {
      const rows = [
        row(first, '2026-01-01', { priority: 1, hiperToken: 'chave-deposito' }),
        row(second, '2026-01-01', { priority: 0, isDefault: true }),
      ];
      expect(stockLocations(rows, 'chave-cliente').map((l) => [l.id, l.hiperKey])).toEqual([
        [second, 'chave-cliente'],
        [first, 'chave-deposito'],
      ]);
    }
  });

  it('writes no more to a location the store deleted, and lends the client’s key to none after it', () => {
    const rows = [row('a', '2026-01-01', { deletedAt: new Date('2026-02-01') }), row('b', '2026-01-02')];
    expect(stockLocations(rows, 'chave-cliente').map((l) => [l.id, l.hiperKey])).toEqual([['b', null]]);
  });

  it('sends a shipment with its location’s key, else the client’s', () => {
    const locations = stockLocations([row('a', '2026-01-01'), row('b', '2026-01-02', { hiperToken: 'chave-b' })], 'k');
    expect(shipmentKey(locations, 'L-b', 'k')).toEqual({ key: 'chave-b', locationId: 'b' });
    expect(shipmentKey(locations, 'L-a', 'k')).toEqual({ key: 'k', locationId: 'a' });
    expect(shipmentKey(locations, 'L-zz', 'k')).toEqual({ key: 'k', locationId: null });
  });
});
