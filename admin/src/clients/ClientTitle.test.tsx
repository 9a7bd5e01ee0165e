import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { memoryProvider, renderWithAdmin } from '../testing';
import DeclaredList from '../crud/DeclaredList';

const client = (id: string, url: string, name: string | null) => ({
  id,
  url,
  hiper_token: null,
  nuvemshop_token: null,
  nuvemshop_store_id: 0,
  hiper_sync_update_image: true,
  hiper_sync_update_dimensions: true,
  nuvemshop_location_id: null,
  sync_state: 'not_connected',
  last_synced_at: null,
  name,
  orders_enabled: false,
  orders_send_on: 'paid',
  orders_payment_ids: null,
  orders_release_on: 'invoiced',
  orders_cancel_in_store: true,
  hiper_marketplace_cnpj: null,
  hiper_marketplace_name: null,
});

describe('a client’s title', () => {
  it('is its store name with its URL beside it, in its row menu and the delete confirmation; its URL alone without a name', async () => {
    const person = userEvent.setup();
    renderWithAdmin(<DeclaredList resource="clientes" />, {
      path: '/clientes',
      dataProvider: memoryProvider([
        client('c1', 'https://loja-da-maria.example.com', 'Loja da Maria'),
        client('c2', 'https://sem-nome.example.com', null),
      ]),
    });
    const named = 'Loja da Maria (https://loja-da-maria.example.com)';
    await person.click(await screen.findByRole('button', { name: `Ações: ${named}` }));
    await person.click(await screen.findByRole('menuitem', { name: 'Deletar cliente' }));
    const confirm = await screen.findByRole('dialog', { name: 'Deletar cliente' });
    expect(within(confirm).getByText(named)).toBeInTheDocument();
    expect(within(confirm).getByText(/Tem certeza\? Você não poderá desfazer esta ação\./)).toBeInTheDocument();
    await person.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    expect(await screen.findByRole('button', { name: 'Ações: https://sem-nome.example.com' })).toBeInTheDocument();
  });
});
