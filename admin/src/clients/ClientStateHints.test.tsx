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
  it('tells, when it reads “Com falhas”, what that means and where to look; “Em dia” needs no word', async () => {
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
    expect(screen.getByText('Em dia')).not.toHaveAttribute('tabindex');
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
