import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { memoryProvider, renderWithAdmin } from '../testing';
import DeclaredList from './DeclaredList';

const client = {
  id: 'c1',
  url: 'https://loja-mapa.example.com',
  nuvemshop_store_id: 100,
  sync_state: 'not_connected',
  orders_payment_ids: { credit_card: 4 },
};

describe('a map’s rows', () => {
  it('once fixed, no longer say “Corrija as linhas destacadas”', async () => {
    const person = userEvent.setup();
    renderWithAdmin(<DeclaredList resource="clientes" />, {
      path: '/clientes',
      dataProvider: memoryProvider([client]),
    });
    await person.click(await screen.findByRole('button', { name: 'Ações: https://loja-mapa.example.com' }));
    await person.click(await screen.findByRole('menuitem', { name: 'Editar cliente' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar cliente' });
    const map = within(dialog).getByRole('group', { name: 'Meios de pagamento no Hiper' });
    await person.click(within(map).getByRole('button', { name: 'Adicionar' }));
    await person.type(within(map).getAllByLabelText('Meio na Nuvemshop')[1], 'pix');
    await person.type(within(map).getAllByLabelText('ID no Hiper')[1], 'doze');
    fireEvent.submit(within(dialog).getByRole('button', { name: 'Salvar' }).closest('form')!);
    expect(await within(map).findByText('Corrija as linhas destacadas')).toBeInTheDocument();
    const value = within(map).getAllByLabelText('ID no Hiper')[1];
    await person.clear(value);
    await person.type(value, '12');
    await waitFor(() => expect(within(map).queryByText('Corrija as linhas destacadas')).not.toBeInTheDocument());
  });
});
