import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api';
import { renderWithAdmin } from '../testing';
import LoginPage from './LoginPage';

describe('LoginPage', () => {
  it('validates on blur with the login messages', async () => {
    const user = userEvent.setup();
    renderWithAdmin(<LoginPage />, { path: '/login' });
    await user.click(screen.getByLabelText('Email'));
    await user.click(screen.getByLabelText('Password'));
    expect(await screen.findByText('Email é obrigatório')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.tab();
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    await user.click(screen.getByLabelText('Email'));
    expect(await screen.findByText('Password is required')).toBeInTheDocument();
  });

  it('shows every error at once on submit', async () => {
    renderWithAdmin(<LoginPage />, { path: '/login' });
    fireEvent.click(screen.getByRole('button', { name: 'Logar' }));
    expect(await screen.findByText('Email é obrigatório')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
  });

  it('toggles the password between hidden and shown', async () => {
    const user = userEvent.setup();
    renderWithAdmin(<LoginPage />, { path: '/login' });
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
  });

  it("shows the server's detail under the password, or a general message for a list", async () => {
    const user = userEvent.setup();
    const login = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(400, 'Incorrect email or password'))
      .mockRejectedValueOnce(new ApiError(422, [{ loc: ['body', 'username'], msg: 'bad', type: 'x' }]));
    renderWithAdmin(<LoginPage />, { path: '/login', authProvider: { login } });
    await user.type(screen.getByLabelText('Email'), 'maria@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Logar' }));
    expect(await screen.findByText('Incorrect email or password')).toBeInTheDocument();
    expect(login).toHaveBeenCalledWith({ username: 'maria@example.com', password: 'wrong-password' });
    await user.click(screen.getByRole('button', { name: 'Logar' }));
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    await waitFor(() => expect(login).toHaveBeenCalledTimes(2));
  });
});
