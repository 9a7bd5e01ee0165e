import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithAdmin } from '../testing';
import ResetPasswordPage from './ResetPasswordPage';

const TOKEN_LIKE = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';

describe('ResetPasswordPage', () => {
  it.each([
    ['without a token', '/reset-password'],
    ['with an empty token', '/reset-password?token='],
    ['with a token that is not three base64url segments', '/reset-password?token=not-a-token'],
    ['with a token cut short', `/reset-password?token=${TOKEN_LIKE.split('.').slice(0, 2).join('.')}`],
    ['with a token carrying other characters', `/reset-password?token=${TOKEN_LIKE}%20x`],
  ])('says at once that the link is invalid %s, with a way to ask for a new one', async (_, path) => {
    renderWithAdmin(<ResetPasswordPage />, { path });
    expect(await screen.findByText('This password reset link is invalid or has expired.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/recover-password');
    expect(screen.queryByLabelText('New Password')).toBeNull();
  });

  it('shows the form for a token of the right shape', async () => {
    renderWithAdmin(<ResetPasswordPage />, { path: `/reset-password?token=${TOKEN_LIKE}` });
    expect(await screen.findByLabelText('New Password')).toBeInTheDocument();
    expect(screen.queryByText('This password reset link is invalid or has expired.')).toBeNull();
  });
});
