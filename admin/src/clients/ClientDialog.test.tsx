import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithAdmin } from '../testing';
import { ClientDialog } from './ClientDialog';

function save(dialog: HTMLElement) {
  const button = within(dialog).getByRole('button', { name: 'Salvar' });
  expect(button).toBeEnabled();
  fireEvent.submit(button.closest('form')!);
}

describe('ClientDialog', () => {
  it('requires the URL, sends the store id as a number and both sync flags on by default', async () => {
    const person = userEvent.setup();
    const create = vi.fn(async (_resource: string, params: { data: object }) => ({
      data: { id: 'c1', ...params.data },
    }));
    const onClose = vi.fn();
    renderWithAdmin(<ClientDialog open onClose={onClose} />, { dataProvider: { create } });
    const dialog = screen.getByRole('dialog', { name: 'Adicionar Cliente' });
    expect(within(dialog).getByRole('button', { name: 'Salvar' })).toBeDisabled();
    await person.click(within(dialog).getByLabelText('URL'));
    await person.click(within(dialog).getByLabelText('Token Hiper'));
    expect(await within(dialog).findByText('URL é obrigatória.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Sincronizar imagens')).toBeChecked();
    expect(within(dialog).getByLabelText('Sincronizar dimensões')).toBeChecked();
    await person.type(within(dialog).getByLabelText('URL'), 'https://loja.example.com');
    await person.type(within(dialog).getByLabelText('ID da loja Nuvemshop'), '123');
    save(dialog);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(create).toHaveBeenCalledWith('clientes', {
      data: {
        url: 'https://loja.example.com',
        hiper_token: null,
        nuvemshop_token: null,
        nuvemshop_store_id: 123,
        hiper_sync_update_image: true,
        hiper_sync_update_dimensions: true,
      },
    });
    expect(await screen.findByText('Cliente criado com sucesso.')).toBeInTheDocument();
  });
});
