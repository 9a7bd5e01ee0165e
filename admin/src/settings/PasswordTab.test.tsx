import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithAdmin } from '../testing';
import { PasswordTab } from './PasswordTab';

const answer = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('PasswordTab', () => {
  it('shows all errors on submit and checks the confirmation', async () => {
    const person = userEvent.setup();
    renderWithAdmin(<PasswordTab />);
    fireEvent.submit(screen.getByRole('button', { name: 'Salvar' }).closest('form')!);
    expect(await screen.findAllByText('Password is required')).toHaveLength(2);
    expect(screen.getByText('Password confirmation is required')).toBeInTheDocument();
    await person.type(screen.getByLabelText('New Password'), 'new-password');
    await person.type(screen.getByLabelText('Confirm Password'), 'other-password');
    await person.click(screen.getByLabelText('Current Password'));
    expect(await screen.findByText('The passwords do not match')).toBeInTheDocument();
  });

  it("sends current and new password, and shows the server's refusal", async () => {
    const person = userEvent.setup();
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(
        answer({ errors: [{ message: 'Incorrect password', extensions: { status: 400 } }], data: null }),
      )
      .mockResolvedValueOnce(answer({ data: { updatePassword: { message: 'Password updated successfully' } } }));
    vi.stubGlobal('fetch', fetch);
    renderWithAdmin(<PasswordTab />);
    await person.type(screen.getByLabelText('Current Password'), 'wrong-password');
    await person.type(screen.getByLabelText('New Password'), 'new-password');
    await person.type(screen.getByLabelText('Confirm Password'), 'new-password');
    fireEvent.submit(screen.getByRole('button', { name: 'Salvar' }).closest('form')!);
    expect(await screen.findByText('Incorrect password')).toBeInTheDocument();
    const body = JSON.parse(fetch.mock.calls[0][1].body);
    expect(body.variables).toEqual({ current_password: 'wrong-password', new_password: 'new-password' });
    // Toasts come one at a time: close the first.
    await person.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText('Incorrect password')).not.toBeInTheDocument());
    fireEvent.submit(screen.getByRole('button', { name: 'Salvar' }).closest('form')!);
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    expect(await screen.findByText('Password updated successfully.')).toBeInTheDocument();
  });
});
