import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithAdmin } from '../testing';
import Dashboard from './Dashboard';

const answer = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

const identity = (is_superuser: boolean) => async () => ({
  id: '1',
  email: 'maria@example.com',
  full_name: 'Maria Souza',
  fullName: 'Maria Souza',
  is_superuser,
});

describe('Dashboard', () => {
  it('greets the user and counts clients, items and users in one request, each leading to its list', async () => {
    const fetch = vi.fn().mockResolvedValueOnce(
      answer({
        data: {
          healthCritical: { count: 1 },
          healthAttention: { count: 0 },
          _allClientHealthsMeta: { count: 3 },
          allClientHealths: [
            {
              id: 'h1',
              client_id: 'c1',
              client_name: 'Loja da Maria',
              health: 'critical',
              reasons: [
                {
                  code: 'orders_held',
                  health: 'critical',
                  text: '2 pedidos aguardando pessoa; o mais antigo há 5 h',
                  since: '2026-12-01T10:00:00Z',
                },
              ],
            },
            { id: 'h2', client_id: 'c2', client_name: 'https://joao.example', health: 'ok', reasons: [] },
          ],
          clients: { count: 3 },
          notConnected: { count: 1 },
          partial: { count: 0 },
          failed: { count: 2 },
          tokenRevoked: { count: 1 },
          disconnected: { count: 1 },
          suspended: { count: 2 },
          items: { count: 12 },
          heldOrders: { count: 4 },
          uncertainOrders: { count: 1 },
          cancelRefusedOrders: { count: 2 },
          users: { count: 5 },
          failedMail: { count: 2 },
        },
      }),
    );
    vi.stubGlobal('fetch', fetch);
    renderWithAdmin(<Dashboard />, { authProvider: { getIdentity: identity(true) } });
    expect(await screen.findByRole('heading', { name: 'Olá, Maria Souza' })).toBeInTheDocument();
    expect(screen.getByText('Bem-vindo de volta, bom ver você de novo!')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Clientes 3' })).toHaveAttribute('href', '/clientes');
    expect(screen.getByRole('link', { name: 'Itens 12' })).toHaveAttribute('href', '/items');
    // The clients in every state that needs a person, each leading to the clients in that state.
    expect(screen.getByRole('heading', { name: 'Clientes parados: 7' })).toBeInTheDocument();
    for (const [name, state] of [
      ['Não conectados: 1', 'not_connected'],
      ['Com falhas: 0', 'partial'],
      ['Falharam: 2', 'failed'],
      ['Token revogado: 1', 'token_revoked'],
      ['Suspensos: 2', 'suspended'],
      ['Desconectados: 1', 'disconnected'],
    ])
      expect(screen.getByRole('link', { name })).toHaveAttribute(
        'href',
        `/clientes?filter=${encodeURIComponent(JSON.stringify({ sync_state: state }))}`,
      );
    expect(screen.getByRole('link', { name: 'Usuários 5' })).toHaveAttribute('href', '/admin');
    expect(screen.getByText('E-mails que falharam: 2')).toBeInTheDocument();
    // Orders waiting for a person, each kind leading to those orders.
    expect(screen.getByRole('heading', { name: 'Pedidos parados: 7' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Aguardando pessoa: 4' })).toHaveAttribute(
      'href',
      `/pedidos?filter=${encodeURIComponent('{"state":"held"}')}`,
    );
    expect(screen.getByRole('link', { name: 'Incertos: 1' })).toHaveAttribute(
      'href',
      `/pedidos?filter=${encodeURIComponent('{"state":"uncertain"}')}`,
    );
    expect(screen.getByRole('link', { name: 'Cancelamento recusado: 2' })).toHaveAttribute(
      'href',
      `/pedidos?filter=${encodeURIComponent('{"cancel_refused":true}')}`,
    );
    // Every client's health first: how many in each, each leading to them, and the worst by name with why.
    const health = screen.getByRole('region', { name: 'Saúde dos clientes' });
    expect(health).toBe(screen.getAllByRole('region')[0]);
    for (const [name, level] of [
      ['Crítico: 1', 'critical'],
      ['Atenção: 0', 'attention'],
      ['Em dia: 2', 'ok'],
    ])
      expect(screen.getByRole('link', { name })).toHaveAttribute(
        'href',
        `/saude?filter=${encodeURIComponent(JSON.stringify({ health: level }))}`,
      );
    expect(await screen.findByText('Loja da Maria')).toBeInTheDocument();
    expect(screen.getByText(/2 pedidos aguardando pessoa; o mais antigo há 5 h/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ver pedidos' })).toHaveAttribute(
      'href',
      `/pedidos?filter=${encodeURIComponent(JSON.stringify({ client_id: 'c1', state: 'held' }))}`,
    );
    expect(screen.queryByText('https://joao.example')).toBeNull();
    // The counts in one request; the charts of the last 30 days ask for their own (ActivityCharts.test.tsx).
    const counts = fetch.mock.calls.filter(([, init]) => JSON.parse(init.body).query.includes('DashboardCounts'));
    expect(counts).toHaveLength(1);
    expect(JSON.parse(fetch.mock.calls[0][1].body).variables).toEqual({ superuser: true });
  });

  it('asks an ordinary user for clients and items only', async () => {
    const fetch = vi.fn().mockResolvedValueOnce(
      answer({
        data: {
          healthCritical: { count: 0 },
          healthAttention: { count: 0 },
          _allClientHealthsMeta: { count: 0 },
          allClientHealths: [],
          clients: { count: 0 },
          notConnected: { count: 0 },
          partial: { count: 0 },
          failed: { count: 0 },
          tokenRevoked: { count: 0 },
          disconnected: { count: 0 },
          suspended: { count: 0 },
          items: { count: 1 },
          heldOrders: { count: 0 },
          uncertainOrders: { count: 0 },
          cancelRefusedOrders: { count: 0 },
        },
      }),
    );
    vi.stubGlobal('fetch', fetch);
    renderWithAdmin(<Dashboard />, { authProvider: { getIdentity: identity(false) } });
    expect(await screen.findByRole('link', { name: 'Itens 1' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Clientes 0' })).toBeInTheDocument();
    expect(screen.queryByText('Usuários')).toBeNull();
    expect(screen.queryByText(/E-mails que falharam/)).toBeNull();
    expect(JSON.parse(fetch.mock.calls[0][1].body).variables).toEqual({ superuser: false });
  });
});
