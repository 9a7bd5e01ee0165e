import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithAdmin } from '../testing';
import { TOKEN_KEY } from '../token';
import { AlertsTab } from './AlertsTab';

const answer = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.removeItem(TOKEN_KEY);
});

describe('AlertsTab', () => {
  it('shows whether the account receives alerts, and saves the switch at once', async () => {
    const person = userEvent.setup();
    localStorage.setItem(TOKEN_KEY, 'a-token');
    let receives = false;
    const me = () => ({
      id: '1',
      email: 'ana@example.com',
      full_name: 'Ana',
      is_active: true,
      is_superuser: false,
      receives_alerts: receives,
    });
    const fetch = vi.fn(async (_url: string, init: { body: string }) => {
      const { query, variables } = JSON.parse(init.body);
      if (String(query).includes('UpdateAlerts')) {
        receives = variables.receives_alerts;
        return answer({ data: { updateMe: { id: '1', receives_alerts: receives } } });
      }
      return answer({ data: { me: me() } });
    });
    vi.stubGlobal('fetch', fetch);
    renderWithAdmin(<AlertsTab />, { authProvider: { getIdentity: async () => ({ ...me(), fullName: 'Ana' }) } });
    const toggle = await screen.findByRole('switch', { name: 'Receber alertas por e-mail' });
    expect(toggle).not.toBeChecked();
    expect(screen.getByText(/para ana@example\.com/)).toBeInTheDocument();
    await person.click(toggle);
    expect(await screen.findByText('Você vai receber os alertas.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Receber alertas por e-mail' })).toBeChecked());
    const update = fetch.mock.calls
      .map(([, init]) => JSON.parse(init.body))
      .find((b) => b.query.includes('UpdateAlerts'));
    expect(update.variables).toEqual({ receives_alerts: true });
  });
});
