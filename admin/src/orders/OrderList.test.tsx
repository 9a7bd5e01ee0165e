import { createTheme, ThemeProvider, type ThemeOptions } from '@mui/material';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { memoryProvider, renderWithAdmin } from '../testing';
import DeclaredList from '../crud/DeclaredList';
import { lightTheme, textColors } from '../themes';

const OrderList = () => <DeclaredList resource="pedidos" />;

/** Money as Intl writes it has a no-break space after R$: read as a person reads it. */
const plain = (text: string | null | undefined) => (text ?? '').replace(/\u00a0/g, ' ');

const order = (number: number, state: string, extra: Record<string, unknown> = {}) => ({
  id: `o${number}`,
  client_id: null,
  nuvemshop_order_id: 3000000000 + number,
  number,
  state,
  hold_reason: null,
  payment_status: 'paid',
  total: '99.90',
  customer_name: 'Maria da Silva',
  hiper_order_id: null,
  hiper_code: null,
  nfe_key: null,
  tracking_code: null,
  last_error: null,
  lines: [],
  history: [],
  received_at: '2026-11-27T13:05:09Z',
  sent_at: null,
  updated_at: '2026-11-27T13:05:09Z',
  search_text: null,
  store_status: 'open',
  placed_at: null,
  sending_since: null,
  hiper_events_seen: 0,
  ...extra,
});

const menuOf = async (person: ReturnType<typeof userEvent.setup>, number: number) => {
  await person.click(screen.getByRole('button', { name: `Ações: ${number}` }));
  const menu = await screen.findByRole('menu');
  const items = within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);
  await person.keyboard('{Escape}');
  return items;
};

/** The Pedidos screen over one order, that order's dialog opened from its number as a person opens it. */
const dialogOf = async (record: ReturnType<typeof order>) => {
  const person = userEvent.setup();
  renderWithAdmin(<OrderList />, { path: '/pedidos', dataProvider: memoryProvider([record]) });
  await person.click(await screen.findByText(String(record.number)));
  return screen.findByRole('dialog', { name: 'Ver pedido' });
};

describe('the Pedidos screen', () => {
  it('offers an order’s states in its filter in the order of their lifecycle', async () => {
    const person = userEvent.setup();
    renderWithAdmin(<OrderList />, { path: '/pedidos', dataProvider: memoryProvider([order(101, 'sent')]) });
    await person.click(await screen.findByRole('combobox', { name: 'Estado' }));
    const options = within(await screen.findByRole('listbox'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual([
      'Todos',
      'Recebido',
      'Aguardando pessoa',
      'Enviando',
      'Enviado',
      'Processado',
      'Rejeitado',
      'Faturado',
      'Despachado',
      'Cancelado',
      'Incerto',
    ]);
  });

  it('draws each state’s chip in the tone its declaration gives it, a state without one in the secondary text', async () => {
    const theme = createTheme(lightTheme as ThemeOptions);
    renderWithAdmin(
      <ThemeProvider theme={theme}>
        <OrderList />
      </ThemeProvider>,
      {
        path: '/pedidos',
        dataProvider: memoryProvider([
          order(101, 'held'),
          order(102, 'rejected'),
          order(103, 'shipped'),
          order(104, 'sending'),
          order(105, 'received'),
        ]),
      },
    );
    const chip = async (number: number, text: string) =>
      within((await screen.findByText(String(number))).closest('tr')!).getByText(text);
    expect(await chip(101, 'Aguardando pessoa')).toHaveStyle({ color: textColors.light.warning });
    expect(await chip(102, 'Rejeitado')).toHaveStyle({ color: textColors.light.error });
    expect(await chip(103, 'Despachado')).toHaveStyle({ color: textColors.light.success });
    expect(await chip(104, 'Enviando')).toHaveStyle({ color: textColors.light.info });
    expect(await chip(105, 'Recebido')).toHaveStyle({ color: theme.palette.text.secondary });
  });

  it('shows the total as money in reais, not the store’s decimal text', async () => {
    renderWithAdmin(<OrderList />, {
      path: '/pedidos',
      dataProvider: memoryProvider([order(101, 'sent', { total: '1234.5' }), order(102, 'held')]),
    });
    const row = (await screen.findByText('101')).closest('tr')!;
    expect(plain(within(row).getByText(/R\$/).textContent)).toBe('R$ 1.234,50');
    expect(within(row).queryByText('1234.5')).not.toBeInTheDocument();
    const other = screen.getByText('102').closest('tr')!;
    expect(plain(within(other).getByText(/R\$/).textContent)).toBe('R$ 99,90');
  });

  it('offers Reenviar and Já está no Hiper only where the server takes them', async () => {
    const person = userEvent.setup();
    renderWithAdmin(<OrderList />, {
      path: '/pedidos',
      dataProvider: memoryProvider([
        order(201, 'sent'),
        order(202, 'uncertain'),
        order(203, 'held'),
        order(204, 'rejected'),
        order(205, 'invoiced'),
      ]),
    });
    await screen.findByText('201');
    expect(await menuOf(person, 201)).toEqual(['Ver pedido']);
    expect(await menuOf(person, 202)).toEqual(['Ver pedido', 'Reenviar', 'Já está no Hiper']);
    expect(await menuOf(person, 203)).toEqual(['Ver pedido', 'Reenviar']);
    expect(await menuOf(person, 204)).toEqual(['Ver pedido', 'Reenviar']);
    expect(await menuOf(person, 205)).toEqual(['Ver pedido']);
  });

  it('offers the same actions in an order’s dialog as in its menu', async () => {
    const person = userEvent.setup();
    renderWithAdmin(<OrderList />, {
      path: '/pedidos',
      dataProvider: memoryProvider([order(401, 'sent'), order(402, 'uncertain')]),
    });
    const buttonsOf = async (number: number) => {
      await person.click(await screen.findByText(String(number)));
      const dialog = await screen.findByRole('dialog', { name: 'Ver pedido' });
      const names = within(dialog)
        .getAllByRole('button')
        .map((button) => button.textContent);
      await person.click(within(dialog).getByRole('button', { name: 'Fechar' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      return names;
    };
    expect(await buttonsOf(401)).toEqual(['Fechar']);
    expect(await buttonsOf(402)).toEqual(['Reenviar', 'Já está no Hiper', 'Fechar']);
  });

  it('shows an order’s lines as a table and its history as a timeline, in Portuguese', async () => {
    const dialog = await dialogOf(
      order(301, 'held', {
        hold_reason: 'Produto sem vínculo: 3002',
        lines: [
          { sku: '3001', name: 'Camiseta azul', quantity: 2, price: '49.95', hiper_id: 'h-3001' },
          { sku: '3002', name: 'Boné', quantity: 1, price: '1250', hiper_id: null },
        ],
        history: [
          { at: '2026-11-27T13:05:09Z', state: 'received', note: 'Recebido por webhook (order/paid)' },
          { at: '2026-11-27T13:05:11Z', state: 'held', note: 'Produto sem vínculo: 3002' },
        ],
      }),
    );
    expect(dialog.textContent).not.toContain('"sku"');
    expect(dialog.textContent).not.toContain('"note"');

    const lines = within(dialog).getByRole('table', { name: 'Itens' });
    expect(
      within(lines)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['SKU', 'Produto', 'Qtd.', 'Preço', 'Produto no Hiper']);
    const rows = within(lines)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => plain(cell.textContent)),
      );
    expect(rows).toEqual([
      ['3001', 'Camiseta azul', '2', 'R$ 49,95', 'h-3001'],
      ['3002', 'Boné', '1', 'R$ 1.250,00', 'sem vínculo'],
    ]);

    const history = within(dialog).getByRole('list', { name: 'Histórico' });
    const steps = within(history).getAllByRole('listitem');
    expect(steps).toHaveLength(2);
    // The moment as dd/mm/aaaa hh:mm (the browser's time zone), the state by its label, the note.
    const at = new Date('2026-11-27T13:05:09Z');
    const when = `27/11/2026 ${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
    expect(within(steps[0]).getByText(when)).toBeInTheDocument();
    expect(within(steps[0]).getByText('Recebido')).toBeInTheDocument();
    expect(within(steps[0]).getByText('Recebido por webhook (order/paid)')).toBeInTheDocument();
    expect(within(steps[1]).getByText('Aguardando pessoa')).toBeInTheDocument();
    expect(within(steps[1]).getByText('Produto sem vínculo: 3002')).toBeInTheDocument();
    expect(plain(within(dialog).getByText(/R\$ 99/).textContent)).toBe('R$ 99,90');
  });
});

describe('an order’s dialog', () => {
  it('shows what a person reads of the order, never the product’s own bookkeeping', async () => {
    const dialog = await dialogOf(
      order(501, 'sending', {
        customer_name: 'João Pereira',
        search_text: '501 joão pereira sku-5001',
        sending_since: '2026-11-27T13:06:00Z',
        hiper_events_seen: 7,
      }),
    );
    const terms = within(dialog)
      .getAllByRole('term')
      .map((term) => term.textContent);
    expect(terms).toEqual(expect.arrayContaining(['Número', 'Comprador', 'Estado']));
    expect(within(dialog).getByText('João Pereira')).toBeInTheDocument();
    // The store's status in words, as Nuvemshop's own screens name it.
    expect(within(dialog).getByText('Aberto')).toBeInTheDocument();
    // The search text, the send's lease and Hiper's event cursor: answered by the API, not for people.
    for (const label of ['Busca', 'Enviando desde', 'Eventos do Hiper lidos'])
      expect(within(dialog).queryByText(label)).not.toBeInTheDocument();
    for (const name of ['search_text', 'sending_since', 'hiper_events_seen']) expect(terms).not.toContain(name);
    expect(dialog.textContent).not.toContain('sku-5001');
  });
});
