import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { memoryProvider, renderWithAdmin } from '../testing';
import DeclaredList from '../crud/DeclaredList';

const client = (id: string, url: string, sync_state: string) => ({
  id,
  url,
  hiper_token: '••••••••1234',
  nuvemshop_token: '••••••••5678',
  nuvemshop_store_id: 100,
  hiper_sync_update_image: true,
  hiper_sync_update_dimensions: true,
  nuvemshop_location_id: null,
  sync_state,
  last_synced_at: '2026-11-27T13:05:09Z',
  name: null,
  orders_enabled: false,
  orders_send_on: 'paid',
  orders_payment_ids: null,
  orders_release_on: 'invoiced',
  orders_cancel_in_store: true,
  hiper_marketplace_cnpj: null,
  hiper_marketplace_name: null,
});

describe('a client’s synchronisation chip', () => {
  it('tells, when it reads “Com falhas”, what that means and where to look', async () => {
    const person = userEvent.setup();
    renderWithAdmin(<DeclaredList resource="clientes" />, {
      path: '/clientes',
      dataProvider: memoryProvider([
        client('c1', 'https://com-falhas.example.com', 'partial'),
        client('c2', 'https://em-dia.example.com', 'idle'),
      ]),
    });
    const partial = await screen.findByText('Com falhas');
    await person.hover(partial);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'A última sincronização terminou sem gravar alguns produtos: veja quais e por quê em Sincronizações.',
    );
    expect(partial).toHaveAccessibleDescription(/sem gravar alguns produtos/);
  });

  it.each([
    ['never_synced', 'Nunca sincronizado', /Nenhuma sincronização do catálogo gravou a loja ainda/],
    ['idle', 'Em dia', /nada a fazer/],
    ['queued', 'Na fila', /na fila/],
    ['running', 'Sincronizando', /em andamento/],
    ['failed', 'Falhou', /corrija o Token Hiper em “Editar cliente”/],
    ['token_revoked', 'Token revogado', /informe um token válido em “Editar cliente”/],
    ['suspended', 'Loja suspensa', /regularizar o pagamento/],
    ['disconnected', 'Desconectada', /desinstalou o aplicativo/],
  ])('says, when %s, what that means and what to do, reachable by keyboard', async (state, label, hint) => {
    const person = userEvent.setup();
    renderWithAdmin(<DeclaredList resource="clientes" />, {
      path: '/clientes',
      dataProvider: memoryProvider([client('c1', `https://${state}.example.com`, state)]),
    });
    const chip = await screen.findByText(label);
    expect(chip).toHaveAttribute('tabindex', '0');
    expect(chip).toHaveAccessibleDescription(hint);
    await person.hover(chip);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(hint);
  });

  it('names, on a client in order, the Nuvemshop permissions its store did not grant', async () => {
    const person = userEvent.setup();
    renderWithAdmin(<DeclaredList resource="clientes" />, {
      path: '/clientes',
      dataProvider: memoryProvider([
        {
          ...client('c1', 'https://sem-cpf.example.com', 'idle'),
          nuvemshop_scopes: 'read_products,write_products,write_orders',
          nuvemshop_missing_scopes: 'read_customers,write_fulfillment_orders',
        },
      ]),
    });
    const idle = await screen.findByText('Em dia');
    await person.hover(idle);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'Permissão ausente na Nuvemshop: read_customers, write_fulfillment_orders',
    );
  });
});
