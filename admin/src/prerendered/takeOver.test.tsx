import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import LoginPage from '../auth/LoginPage';
import { renderWithAdmin } from '../testing';
import { CLICKED, FOCUSED, PRERENDERED_ID, SUBMITTED } from './names';

/** The login page as the build rendered it (its fields only), as the visitor left it before the app was up. */
function renderedPage({
  typed = {},
  focused,
  submitted = false,
  clicked = [],
}: Partial<{
  typed: Record<string, string>;
  focused: string;
  submitted: boolean;
  /** The buttons clicked, by their place among the page's. */
  clicked: number[];
}>) {
  const page = document.createElement('div');
  page.id = PRERENDERED_ID;
  const form = page.appendChild(document.createElement('form'));
  for (const [name, type] of [
    ['username', 'email'],
    ['password', 'password'],
  ] as const) {
    const field = form.appendChild(document.createElement('input'));
    Object.assign(field, { name, type, value: typed[name] ?? '' });
  }
  if (focused) page.setAttribute(FOCUSED, focused);
  if (submitted) page.setAttribute(SUBMITTED, '');
  if (clicked.length) page.setAttribute(CLICKED, JSON.stringify(clicked));
  document.body.appendChild(page);
}

afterEach(() => document.getElementById(PRERENDERED_ID)?.remove());

describe("the app takes over the build's page", () => {
  it('with what was typed and the focus, and sends the form sent before the app was up', async () => {
    renderedPage({
      typed: { username: 'maria@example.com', password: 'maria-password' },
      focused: 'password',
      submitted: true,
    });
    const login = vi.fn().mockResolvedValue(undefined);
    renderWithAdmin(<LoginPage />, { path: '/login', authProvider: { login } });

    expect(document.getElementById(PRERENDERED_ID)).toBeNull();
    expect(screen.getByLabelText('Email')).toHaveValue('maria@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('maria-password');
    expect(screen.getByLabelText('Password')).toHaveFocus();
    await waitFor(() =>
      expect(login).toHaveBeenCalledWith({ username: 'maria@example.com', password: 'maria-password' }),
    );
  });

  it('sends nothing that was not sent, and leaves the focus on the first field when no field had it', async () => {
    renderedPage({ typed: { username: 'maria@example.com' } });
    const login = vi.fn().mockResolvedValue(undefined);
    renderWithAdmin(<LoginPage />, { path: '/login', authProvider: { login } });

    expect(document.getElementById(PRERENDERED_ID)).toBeNull();
    expect(screen.getByLabelText('Email')).toHaveValue('maria@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Email')).toHaveFocus();
    // The form state has the typed value too: sent now, the email is there and the password missing.
    fireEvent.click(screen.getByRole('button', { name: 'Logar' }));
    expect(await screen.findByText('Password is required')).toBeInTheDocument();
    expect(screen.queryByText('Email é obrigatório')).toBeNull();
    expect(login).not.toHaveBeenCalled();
  });

  it('checks a form sent empty before the app was up, as the app checks its own, and asks the server nothing', async () => {
    renderedPage({ focused: 'username', submitted: true });
    const login = vi.fn().mockResolvedValue(undefined);
    renderWithAdmin(<LoginPage />, { path: '/login', authProvider: { login } });

    expect(await screen.findByText('Email é obrigatório')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(login).not.toHaveBeenCalled();
  });

  it('clicks again the buttons clicked before the app was up: the password shown', async () => {
    // The login page's first button shows the password (the second sends the form).
    renderedPage({ typed: { password: 'maria-password' }, clicked: [0] });
    renderWithAdmin(<LoginPage />, { path: '/login' });

    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'text'));
    expect(screen.getByLabelText('Password')).toHaveValue('maria-password');
  });

  it('clicks each button clicked in turn: clicked twice, the password is hidden again', async () => {
    renderedPage({ typed: { password: 'maria-password' }, clicked: [0, 0] });
    renderWithAdmin(<LoginPage />, { path: '/login' });

    await waitFor(() => expect(screen.getByRole('button', { name: 'Show password' })).toBeInTheDocument());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Show password' })).toBeInTheDocument();
  });
});
