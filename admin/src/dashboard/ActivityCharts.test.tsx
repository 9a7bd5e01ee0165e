import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithAdmin } from '../testing';
import { ActivityCharts } from './ActivityCharts';

const answer = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

const runs = { queued: 0, running: 0, succeeded: 0, partial: 0, failed: 0 };
const orders = {
  received: 0,
  held: 0,
  sending: 0,
  sent: 0,
  processed: 0,
  rejected: 0,
  invoiced: 0,
  shipped: 0,
  cancelled: 0,
  uncertain: 0,
};
/** 30 quiet days ending 04/12, two of them busy. */
const days = Array.from({ length: 30 }, (_, i) => {
  const day = new Date(Date.UTC(2026, 11, 4) - (29 - i) * 86_400_000).toISOString().slice(0, 10);
  return { day, runs, products_written: 0, orders, rate_limited: 0 };
});
days[28] = {
  ...days[28],
  runs: { ...runs, succeeded: 3, failed: 1 },
  products_written: 12,
  orders: { ...orders, held: 2 },
};
days[29] = { ...days[29], runs: { ...runs, partial: 1 }, products_written: 5, rate_limited: 4 };

describe('ActivityCharts', () => {
  it("asks for the client's 30 days and gives each chart its numbers as a table, in Portuguese, dd/mm", async () => {
    const fetch = vi.fn().mockResolvedValue(answer({ data: { dailyActivity: { days } } }));
    vi.stubGlobal('fetch', fetch);
    renderWithAdmin(<ActivityCharts clientId="c1" />);
    expect(await screen.findByRole('heading', { name: 'Últimos 30 dias' })).toBeInTheDocument();
    const request = JSON.parse(fetch.mock.calls[0][1].body);
    expect(request.variables).toEqual({ client_id: 'c1', days: 30 });
    expect(request.query).toContain('dailyActivity');

    const runsTable = await screen.findByRole('table', { name: 'Sincronizações por resultado' });
    // Only the outcomes that happened, by their labels.
    expect(
      within(runsTable)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Dia', 'Concluída', 'Concluída com falhas', 'Falhou']);
    expect(within(runsTable).getAllByRole('row')).toHaveLength(31);
    expect(within(runsTable).getByRole('row', { name: '03/12 3 0 1' })).toBeInTheDocument();
    expect(within(runsTable).getByRole('row', { name: '04/12 0 1 0' })).toBeInTheDocument();
    expect(within(runsTable).getByRole('row', { name: '05/11 0 0 0' })).toBeInTheDocument();

    const written = screen.getByRole('table', { name: 'Produtos gravados na loja' });
    expect(within(written).getByRole('row', { name: '03/12 12' })).toBeInTheDocument();
    const ordersTable = screen.getByRole('table', { name: 'Pedidos por estado' });
    expect(within(ordersTable).getByRole('columnheader', { name: 'Aguardando pessoa' })).toBeInTheDocument();
    expect(within(ordersTable).getByRole('row', { name: '03/12 2' })).toBeInTheDocument();
    const limited = screen.getByRole('table', { name: 'Limites da Nuvemshop (429)' });
    expect(within(limited).getByRole('row', { name: '04/12 4' })).toBeInTheDocument();

    // Each chart is a figure named by its title.
    expect(screen.getByRole('figure', { name: 'Pedidos por estado' })).toBeInTheDocument();
    // "Ver números" shows a table to anyone; it says so.
    const show = within(screen.getByRole('figure', { name: 'Pedidos por estado' })).getByRole('button', {
      name: 'Ver números',
    });
    await userEvent.click(show);
    expect(show).toHaveAttribute('aria-expanded', 'true');
    expect(show).toHaveTextContent('Ocultar números');
  });

  it('says when nothing happened instead of an empty chart', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(answer({ data: { dailyActivity: { days: days.slice(0, 28) } } })));
    renderWithAdmin(<ActivityCharts />);
    expect(await screen.findByText('Nenhuma sincronização nestes dias.')).toBeInTheDocument();
    expect(screen.getByText('Nenhum pedido recebido nestes dias.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
