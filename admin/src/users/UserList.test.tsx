import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { memoryProvider, renderWithAdmin } from '../testing';
import UserList from './UserList';

const seed = () => [
  { id: 'me', email: 'me@example.com', full_name: null, is_active: true, is_superuser: true },
  { id: 'u1', email: 'ana@example.com', full_name: 'Ana', is_active: true, is_superuser: false },
  { id: 'u2', email: 'bia@example.com', full_name: 'Bia', is_active: false, is_superuser: false },
];

const row = (text: string) => screen.getByText(text).closest('tr')!;

function save(dialog: HTMLElement) {
  const button = within(dialog).getByRole('button', { name: 'Save' });
  expect(button).toBeEnabled();
  fireEvent.submit(button.closest('form')!);
}

describe('UserList', () => {
  it("shows role and status in words, marks the own row 'You' and locks it", async () => {
    const person = userEvent.setup();
    renderWithAdmin(<UserList />, { path: '/admin', dataProvider: memoryProvider(seed()) });
    await screen.findByText('ana@example.com');
    expect(screen.getByRole('heading', { name: 'Users Management' })).toBeInTheDocument();
    for (const heading of ['Full name', 'Email', 'Role', 'Status', 'Actions']) {
      expect(screen.getByRole('columnheader', { name: heading })).toBeInTheDocument();
    }
    const own = row('me@example.com');
    expect(within(own).getByText('You')).toBeInTheDocument();
    expect(within(own).getByText('N/A')).toBeInTheDocument();
    expect(within(own).getByText('Superuser')).toBeInTheDocument();
    expect(within(own).getByText('Active')).toBeInTheDocument();
    expect(within(own).getByRole('button', { name: 'Actions: me@example.com' })).toBeDisabled();
    expect(within(own).getByRole('checkbox')).toBeDisabled();
    expect(within(row('bia@example.com')).getByText('Inactive')).toBeInTheDocument();
    expect(within(row('bia@example.com')).getByText('User')).toBeInTheDocument();
    expect(screen.getByText('1–3 of 3')).toBeInTheDocument();
    expect(screen.getByText('Página 1')).toBeInTheDocument();
    // A click on the own row opens nothing.
    await person.click(within(own).getByText('me@example.com'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('tells an ordinary user the screen is not for them', async () => {
    renderWithAdmin(<UserList />, {
      path: '/admin',
      dataProvider: memoryProvider(seed()),
      authProvider: { getIdentity: async () => ({ id: 'u1', email: 'ana@example.com', is_superuser: false }) },
    });
    expect(await screen.findByText("The user doesn't have enough privileges")).toBeInTheDocument();
  });

  it('adds a user: its own confirmation message, off by default, confirm_password sent along', async () => {
    const person = userEvent.setup();
    const provider = memoryProvider(seed());
    renderWithAdmin(<UserList />, { path: '/admin', dataProvider: provider });
    await screen.findByText('ana@example.com');
    await person.click(screen.getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    const field = (label: RegExp) => within(dialog).getByLabelText(label);
    await person.type(field(/^Email/), 'not-an-email');
    await person.type(field(/^Password/), 'short');
    await person.click(field(/^Confirm Password/));
    await person.click(field(/^Full name/));
    expect(await within(dialog).findByText('Invalid email address')).toBeInTheDocument();
    expect(within(dialog).getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(within(dialog).getByText('Please confirm your password')).toBeInTheDocument();
    expect(field(/^Is superuser\?/)).not.toBeChecked();
    expect(field(/^Is active\?/)).not.toBeChecked();
    await person.clear(field(/^Email/));
    await person.type(field(/^Email/), 'novo@example.com');
    await person.clear(field(/^Password/));
    await person.type(field(/^Password/), 'novo-password');
    await person.type(field(/^Confirm Password/), 'novo-passwort');
    await person.click(field(/^Full name/));
    expect(await within(dialog).findByText('The passwords do not match')).toBeInTheDocument();
    await person.clear(field(/^Confirm Password/));
    await person.type(field(/^Confirm Password/), 'novo-password');
    save(dialog);
    await waitFor(() =>
      expect(provider.create).toHaveBeenCalledWith(
        'admin',
        expect.objectContaining({
          data: {
            email: 'novo@example.com',
            password: 'novo-password',
            confirm_password: 'novo-password',
            is_superuser: false,
            is_active: false,
          },
        }),
      ),
    );
    expect(await screen.findByText('User created successfully.')).toBeInTheDocument();
  });

  it('edits a user: Save waits for a change, only the changed fields are sent, an empty password is left out', async () => {
    const person = userEvent.setup();
    const provider = memoryProvider(seed());
    renderWithAdmin(<UserList />, { path: '/admin', dataProvider: provider });
    await screen.findByText('ana@example.com');
    await person.click(screen.getByText('ana@example.com'));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    const saveButton = within(dialog).getByRole('button', { name: 'Save' });
    expect(saveButton).toBeDisabled();
    // The dialog focuses Email as it opens: typing before that lands would be split between two fields.
    await waitFor(() => expect(within(dialog).getByLabelText(/^Email/)).toHaveFocus());
    await person.type(within(dialog).getByLabelText('Set Password'), 'short');
    await person.click(within(dialog).getByLabelText(/^Email/));
    expect(await within(dialog).findByText('Password must be at least 8 characters')).toBeInTheDocument();
    await person.clear(within(dialog).getByLabelText('Set Password'));
    await person.click(within(dialog).getByLabelText('Is superuser?'));
    await waitFor(() => expect(saveButton).toBeEnabled());
    save(dialog);
    await waitFor(() =>
      expect(provider.update).toHaveBeenCalledWith(
        'admin',
        expect.objectContaining({ id: 'u1', data: { is_superuser: true } }),
      ),
    );
    expect(await screen.findByText('User updated successfully.')).toBeInTheDocument();
    await waitFor(() => expect(within(row('ana@example.com')).getByText('Superuser')).toBeInTheDocument());
  });
});
