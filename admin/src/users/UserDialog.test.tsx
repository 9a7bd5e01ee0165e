import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithAdmin } from '../testing';
import { UserDialog } from './UserDialog';

const user = { id: 'u1', email: 'ana@example.com', full_name: 'Ana', is_active: true, is_superuser: false };

/** Presses Save: the dialog's form is submitted (jsdom does not submit it from the button's click). */
function save(dialog: HTMLElement) {
  const button = within(dialog).getByRole('button', { name: 'Save' });
  expect(button).toBeEnabled();
  fireEvent.submit(button.closest('form')!);
}

describe('UserDialog', () => {
  it('adds a user: its own confirmation message, defaults off, confirm_password sent along', async () => {
    const person = userEvent.setup();
    const create = vi.fn(async (_resource: string, params: { data: object }) => ({
      data: { id: 'new', ...params.data },
    }));
    const onClose = vi.fn();
    renderWithAdmin(<UserDialog open onClose={onClose} />, { dataProvider: { create } });
    const dialog = screen.getByRole('dialog', { name: 'Add User' });
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await person.type(within(dialog).getByLabelText('Email'), 'novo@example.com');
    await person.click(within(dialog).getByLabelText('Confirm Password'));
    await person.click(within(dialog).getByLabelText('Full name'));
    expect(await within(dialog).findByText('Please confirm your password')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Is superuser?')).not.toBeChecked();
    expect(within(dialog).getByLabelText('Is active?')).not.toBeChecked();
    await person.type(within(dialog).getByLabelText('Password'), 'novo-password');
    await person.type(within(dialog).getByLabelText('Confirm Password'), 'novo-password');
    save(dialog);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(create).toHaveBeenCalledWith('admin', {
      data: {
        email: 'novo@example.com',
        full_name: null,
        password: 'novo-password',
        confirm_password: 'novo-password',
        is_superuser: false,
        is_active: false,
      },
    });
    expect(await screen.findByText('User created successfully.')).toBeInTheDocument();
  });

  it('edits a user: Save waits for a change, only the changed fields are sent, an empty password is left out', async () => {
    const person = userEvent.setup();
    const update = vi.fn(async () => ({ data: user }));
    const onClose = vi.fn();
    renderWithAdmin(<UserDialog open user={user} onClose={onClose} />, { dataProvider: { update } });
    const dialog = screen.getByRole('dialog', { name: 'Edit User' });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    // The dialog focuses Email as it opens: typing before that lands would be split between two fields.
    await waitFor(() => expect(within(dialog).getByLabelText('Email')).toHaveFocus());
    await person.type(within(dialog).getByLabelText('Set Password'), 'short');
    await person.click(within(dialog).getByLabelText('Email'));
    expect(await within(dialog).findByText('Password must be at least 8 characters')).toBeInTheDocument();
    await person.clear(within(dialog).getByLabelText('Set Password'));
    await person.click(within(dialog).getByLabelText('Is superuser?'));
    await waitFor(() => expect(save).toBeEnabled());
    fireEvent.submit(save.closest('form')!);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(update).toHaveBeenCalledWith('admin', { id: 'u1', data: { is_superuser: true }, previousData: user });
  });
});
