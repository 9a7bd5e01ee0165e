import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { memoryProvider, renderWithAdmin } from '../testing';
import DeclaredList from '../crud/DeclaredList';

const ClientList = () => <DeclaredList resource="clientes" />;

const client = (payments: Record<string, number> | null) => ({
  id: 'c1',
  url: 'https://loja-pagamentos.example.com',
  hiper_token: null,
  nuvemshop_token: null,
  nuvemshop_store_id: 100,
  hiper_sync_update_image: true,
  hiper_sync_update_dimensions: true,
  nuvemshop_location_id: null,
  sync_state: 'not_connected',
  last_synced_at: null,
  orders_enabled: true,
  orders_send_on: 'paid',
  orders_payment_ids: payments,
  orders_release_on: 'invoiced',
  orders_cancel_in_store: true,
  hiper_marketplace_cnpj: null,
  hiper_marketplace_name: null,
});

async function openEdit(person: ReturnType<typeof userEvent.setup>) {
  await person.click(await screen.findByRole('button', { name: 'Ações: https://loja-pagamentos.example.com' }));
  await person.click(await screen.findByRole('menuitem', { name: 'Editar cliente' }));
  const dialog = await screen.findByRole('dialog', { name: 'Editar cliente' });
  return { dialog, map: within(dialog).getByRole('group', { name: 'Meios de pagamento no Hiper' }) };
}

const rowsOf = (map: HTMLElement) => {
  const keys = within(map).queryAllByLabelText('Meio na Nuvemshop') as HTMLInputElement[];
  const values = within(map).queryAllByLabelText('ID no Hiper') as HTMLInputElement[];
  return keys.map((key, i) => [key.value, values[i].value]);
};

const save = (dialog: HTMLElement) =>
  fireEvent.submit(within(dialog).getByRole('button', { name: 'Salvar' }).closest('form')!);

describe('the payment methods of a client’s orders', () => {
  it('are rows staff add, save, and find again when they reopen the dialog', async () => {
    const person = userEvent.setup();
    const provider = memoryProvider([client(null)]);
    renderWithAdmin(<ClientList />, { path: '/clientes', dataProvider: provider });
    const { dialog, map } = await openEdit(person);
    // No JSON to type: no rows yet, and what that means.
    expect(within(dialog).queryByDisplayValue(/[{}]/)).not.toBeInTheDocument();
    expect(rowsOf(map)).toEqual([]);
    expect(within(map).getByText(/Sem linhas, vale o padrão: credit_card → 4/)).toBeInTheDocument();

    await person.click(within(map).getByRole('button', { name: 'Adicionar' }));
    await person.type(within(map).getAllByLabelText('Meio na Nuvemshop')[0], 'pix');
    await person.type(within(map).getAllByLabelText('ID no Hiper')[0], '12');
    await person.click(within(map).getByRole('button', { name: 'Adicionar' }));
    await person.type(within(map).getAllByLabelText('Meio na Nuvemshop')[1], 'boleto');
    await person.type(within(map).getAllByLabelText('ID no Hiper')[1], '7');
    save(dialog);
    await waitFor(() =>
      expect(provider.update).toHaveBeenCalledWith(
        'clientes',
        expect.objectContaining({ id: 'c1', data: { orders_payment_ids: { pix: 12, boleto: 7 } } }),
      ),
    );
    await screen.findByText('Cliente atualizado com sucesso.');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Editar cliente' })).not.toBeInTheDocument());

    const again = await openEdit(person);
    await waitFor(() =>
      expect(rowsOf(again.map)).toEqual([
        ['pix', '12'],
        ['boleto', '7'],
      ]),
    );
    // One removed, one changed: saved as such.
    await person.click(within(again.map).getByRole('button', { name: 'Remover boleto' }));
    const id = within(again.map).getByLabelText('ID no Hiper');
    await person.clear(id);
    await person.type(id, '13');
    save(again.dialog);
    await waitFor(() =>
      expect(provider.update).toHaveBeenLastCalledWith(
        'clientes',
        expect.objectContaining({ data: { orders_payment_ids: { pix: 13 } } }),
      ),
    );
  });

  it('refuses a value that is not a Hiper id, and a method with spaces, in Portuguese, and saves nothing', async () => {
    const person = userEvent.setup();
    const provider = memoryProvider([client({ credit_card: 4 })]);
    renderWithAdmin(<ClientList />, { path: '/clientes', dataProvider: provider });
    const { dialog, map } = await openEdit(person);
    await waitFor(() => expect(rowsOf(map)).toEqual([['credit_card', '4']]));
    await person.click(within(map).getByRole('button', { name: 'Adicionar' }));
    await person.type(within(map).getAllByLabelText('Meio na Nuvemshop')[1], 'cartão de crédito');
    await person.type(within(map).getAllByLabelText('ID no Hiper')[1], 'doze');
    await person.tab();
    expect(await within(map).findByText('Use só letras, números, _ . e -, sem espaços')).toBeInTheDocument();
    expect(within(map).getByText('Informe um número inteiro a partir de 1')).toBeInTheDocument();
    save(dialog);
    expect(await within(map).findByText('Corrija as linhas destacadas')).toBeInTheDocument();
    // The same method twice is refused too.
    const key = within(map).getAllByLabelText('Meio na Nuvemshop')[1];
    await person.clear(key);
    await person.type(key, 'credit_card');
    const value = within(map).getAllByLabelText('ID no Hiper')[1];
    await person.clear(value);
    await person.type(value, '0');
    expect(await within(map).findByText('Já está em outra linha')).toBeInTheDocument();
    expect(within(map).getByText('Informe um número inteiro a partir de 1')).toBeInTheDocument();
    save(dialog);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(provider.update).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Editar cliente' })).toBeInTheDocument();

    // Fixed: the rows' messages and the map's go, and the map is saved as an object.
    await person.clear(key);
    await person.type(key, 'pix');
    await person.clear(value);
    await person.type(value, '12');
    await waitFor(() => expect(within(map).queryByText('Corrija as linhas destacadas')).not.toBeInTheDocument());
    expect(within(map).queryByText('Já está em outra linha')).not.toBeInTheDocument();
    expect(within(map).queryByText('Informe um número inteiro a partir de 1')).not.toBeInTheDocument();
    save(dialog);
    await waitFor(() =>
      expect(provider.update).toHaveBeenCalledWith(
        'clientes',
        expect.objectContaining({ data: { orders_payment_ids: { credit_card: 4, pix: 12 } } }),
      ),
    );
  });
});
