import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { HttpError } from 'react-admin';
import { renderWithAdmin } from '../testing';
import { ItemDialog } from './ItemDialog';

/** Presses Save: the dialog's form is submitted (jsdom does not submit it from the button's click). */
function save(dialog: HTMLElement) {
  const button = within(dialog).getByRole('button', { name: 'Save' });
  expect(button).toBeEnabled();
  fireEvent.submit(button.closest('form')!);
}

describe('ItemDialog', () => {
  it('requires a title, then creates the item and closes', async () => {
    const person = userEvent.setup();
    const create = vi.fn(async () => ({ data: { id: 'i1', title: 'Caneta', description: null, owner_id: 'me' } }));
    const onClose = vi.fn();
    renderWithAdmin(<ItemDialog open onClose={onClose} />, { dataProvider: { create } });
    const dialog = screen.getByRole('dialog', { name: 'Adicionar Item' });
    await person.click(within(dialog).getByLabelText('Title'));
    await person.click(within(dialog).getByLabelText('Description'));
    expect(await within(dialog).findByText('Title é obrigatório.')).toBeInTheDocument();
    await person.type(within(dialog).getByLabelText('Title'), 'Caneta');
    save(dialog);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(create).toHaveBeenCalledWith('items', { data: { title: 'Caneta', description: null } });
    expect(await screen.findByText('Item created successfully.')).toBeInTheDocument();
  });

  it("shows the server's message when saving fails, and stays open", async () => {
    const person = userEvent.setup();
    const create = vi.fn(async () => {
      throw new HttpError('Title must be at most 255 characters', 422, {});
    });
    const onClose = vi.fn();
    renderWithAdmin(<ItemDialog open onClose={onClose} />, { dataProvider: { create } });
    const dialog = screen.getByRole('dialog', { name: 'Adicionar Item' });
    await person.type(within(dialog).getByLabelText('Title'), 'Caneta');
    save(dialog);
    expect(await screen.findByText('Title must be at most 255 characters')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
