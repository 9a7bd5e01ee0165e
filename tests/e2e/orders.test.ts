import { describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, openSignedIn, scrollsSideways, type SIZES } from './support/browser';

/** The Pedidos screen and the dashboard's Pedidos parados card, as staff read them, in Portuguese. */
let t: TestGateway;
const open = browserSuite(async () => {
  t = await startTestGateway();
  return t;
});

const openIn = (theme: 'light' | 'dark', size: keyof typeof SIZES) => openSignedIn(open, theme, size);

describe('the Pedidos screen', () => {
  it('shows a held order’s state and reason, and the dashboard counts it, on a desktop and a phone', async () => {
    const token = await t.superuserToken();
    const client = await t.request('POST', '/api/v1/clients/', {
      token,
      json: { url: 'https://loja-pedidos.example', nuvemshop_store_id: 7070, orders_enabled: true },
    });
    expect(client.status, client.text).toBe(200);
    // Orders as the order work leaves them: one held with its reason, one uncertain.
    for (const [id, number, state, reason] of [
      [3000000101, 101, 'held', 'CPF/CNPJ ausente ou inválido'],
      [3000000102, 102, 'uncertain', null],
    ] as const) {
      await t.sql(
        `insert into orders (id, client_id, nuvemshop_order_id, number, state, hold_reason, payment_status, total,
           customer_name, lines, history, received_at, updated_at, created_at)
         values (gen_random_uuid(), $1, $2, $3, $4, $5, 'paid', '65.00', 'Maria da Silva',
           '[{"sku":"3001","name":"Camiseta","quantity":1,"price":"50.00","hiper_id":"h-1"}]', '[]', now(), now(), now())`,
        [client.body.id, id, number, state, reason],
      );
    }

    for (const [theme, size] of [
      ['light', 'desktop'],
      ['dark', 'desktop'],
      ['light', 'phone'],
      ['dark', 'phone'],
    ] as const) {
      const page = await openIn(theme, size);
      await page.goto('/pedidos');
      await page.getByRole('heading', { name: 'Pedidos' }).first().waitFor();
      await page.getByText('Aguardando pessoa').first().waitFor();
      await page.getByText('Incerto').first().waitFor();
      await page.getByRole('link', { name: 'https://loja-pedidos.example' }).first().waitFor();
      if (size === 'desktop') await page.getByText('CPF/CNPJ ausente ou inválido').first().waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/orders-list-${size}-${theme}.png` });

      await page.goto('/');
      await page.getByRole('heading', { name: 'Pedidos parados: 2' }).waitFor();
      await page.getByRole('link', { name: 'Aguardando pessoa: 1' }).waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/orders-dashboard-${size}-${theme}.png` });
      await page.context().close();
    }
  });
});
