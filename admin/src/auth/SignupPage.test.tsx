import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithAdmin } from '../testing';
import SignupPage from './SignupPage';

describe('SignupPage', () => {
  it('shows all the required messages on submit', async () => {
    renderWithAdmin(<SignupPage />, { path: '/signup' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Full Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Password confirmation is required')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
  });

  it('checks the email shape, the password length and the confirmation on blur', async () => {
    const user = userEvent.setup();
    renderWithAdmin(<SignupPage />, { path: '/signup' });
    await user.type(screen.getByLabelText('Email'), 'maria@');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.type(screen.getByLabelText('Confirm Password'), 'other');
    await user.click(screen.getByLabelText('Full Name'));
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByText('The passwords do not match')).toBeInTheDocument();
  });
});
