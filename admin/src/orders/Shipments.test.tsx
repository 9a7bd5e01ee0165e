import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { memoryProvider, renderWithAdmin } from '../testing';
import { groupRows } from '../crud/rowGroups';
import OrderList from './OrderList';
import { shipmentGroups } from './Shipments';

const plain = (text: string | null | undefined) => (text ?? '').replace(/\u00a0/g, ' ');

const row = (id: string, extra: Record<string, unknown>) => ({
  id,
  client_id: null,
  nuvemshop_order_id: 3000000100,
  number: 100,
  fulfillment_order_id: null,
  location_id: null,
  state: 'sent',
  hold_reason: null,
  payment_status: 'paid',
  total: '99.90',
  customer_name: 'Maria da Silva',
  hiper_order_id: null,
  hiper_code: null,
  hiper_number: null,
  nfe_key: null,
  tracking_code: null,
  last_error: null,
  lines: [],
  history: [],
  received_at: '2026-11-27T13:05:09.000Z',
  sent_at: null,
  updated_at: '2026-11-27T13:05:09Z',
  store_status: 'open',
  placed_at: null,
  ...extra,
});

/** Order 100 shipped from two locations (its two rows newest first, as the list answers), and order 99 sent whole. */
const rows = [
  row('s2', {
    fulfillment_order_id: '01FO2',
    location_id: 'loc-far',
    state: 'uncertain',
    total: '88.00',
    hiper_number: '100-2',
    received_at: '2026-11-27T13:05:09.001Z',
  }),
  row('s1', {
    fulfillment_order_id: '01FO1',
    location_id: 'loc-shop',
    total: '47.00',
    hiper_code: 'LV00000000007',
    hiper_number: '100-1',
  }),
  row('w99', { nuvemshop_order_id: 3000000099, number: 99, hiper_number: '99', received_at: '2026-11-26T10:00:00Z' }),
];

const locations = [
  { id: 'loc-shop', name: 'Loja' },
  { id: 'loc-far', name: 'Depósito Sul' },
];

function provider() {
  const base = memoryProvider(rows);
  return {
    ...base,
    getMany: async (_resource: string, params: { ids: string[] }) => ({
      data: locations.filter((l) => params.ids.includes(l.id)),
    }),
  };
}

describe('the Pedidos screen, an order of a store with several locations', () => {
  it('shows its shipments under its number, first shipment first, each with its state, location and Hiper code', async () => {
    renderWithAdmin(<OrderList resource="pedidos" />, { path: '/pedidos', dataProvider: provider() });
    const heading = await screen.findByRole('rowheader', { name: /Pedido 100 · 2 remessas/ });
    expect(plain(heading.textContent)).toBe('Pedido 100 · 2 remessasComprador: Maria da SilvaTotal: R$ 135,00');
    const group = heading.closest('tbody')!;
    // Each location by its name, as its link reads once the locations are read.
    await within(group).findByText('Depósito Sul');
    await within(group).findByText('Loja');
    const shipments = within(group)
      .getAllByRole('row')
      .slice(1)
      .map((tr) => tr.textContent);
    expect(shipments).toHaveLength(2);
    expect(shipments[0]).toMatch(/^100-1Enviado.*LojaLV00000000007/);
    expect(shipments[1]).toMatch(/^100-2Incerto.*Depósito Sul/);
    // The order sent whole is a row of its own, under no heading.
    const whole = screen.getByText('99').closest('tbody')!;
    expect(within(whole).queryByRole('rowheader')).not.toBeInTheDocument();
  });

  it('offers each shipment’s actions on its own row, named by its number in Hiper', async () => {
    const person = userEvent.setup();
    renderWithAdmin(<OrderList resource="pedidos" />, { path: '/pedidos', dataProvider: provider() });
    await person.click(await screen.findByRole('button', { name: 'Ações: 100-2' }));
    const items = within(await screen.findByRole('menu'))
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(items).toEqual(['Ver pedido', 'Reenviar', 'Já está no Hiper']);
    await person.keyboard('{Escape}');
    await person.click(screen.getByRole('button', { name: 'Ações: 100-1' }));
    expect(
      within(await screen.findByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Ver pedido']);
  });
});

describe('the shipments’ groups', () => {
  it('keep an order’s rows together where its first is, a row sent whole on its own', () => {
    const groups = groupRows(rows, shipmentGroups);
    expect(groups.map((g) => g.records.map((r) => r.id))).toEqual([['s1', 's2'], ['w99']]);
    expect(groups.map((g) => g.heading !== null)).toEqual([true, false]);
  });
});
