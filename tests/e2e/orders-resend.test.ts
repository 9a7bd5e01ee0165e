import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, expectToast, openSignedIn } from './support/browser';

/**
 * Staff decide before they resend, in Chromium against a real gateway: an uncertain order's dialog says what to look
 * for in Hiper (the number and observation as sent, each send's moment and Hiper's answer), "Reenviar" asks a
 * confirmation naming the risk of a duplicate, and "Já está no Hiper" asks for Hiper's id of the sales order.
 */
let t: TestGateway;
const open = browserSuite(async () => {
  t = await startTestGateway();
  return t;
});

const HISTORY = [
  { at: '2026-11-27T13:05:09Z', state: 'received', note: 'Recebido por webhook (order/paid)' },
  { at: '2026-11-27T13:05:10Z', state: 'sending', note: 'Enviando ao Hiper' },
  { at: '2026-11-27T13:05:11Z', state: 'held', note: 'O documento do cliente é inválido' },
  { at: '2026-11-27T13:20:00Z', state: 'received', note: 'Reenviado pela equipe (estava “Aguardando pessoa”)' },
  { at: '2026-11-27T13:20:01Z', state: 'sending', note: 'Enviando ao Hiper' },
  {
    at: '2026-11-27T13:20:04Z',
    state: 'uncertain',
    note: 'Hiper respondeu HTTP 502 sem o id do pedido: o pedido pode ter sido criado no Hiper',
  },
];

async function seed(url: string, storeId: number, orders: [number, string, string | null][]) {
  const token = await t.superuserToken();
  const client = await t.request('POST', '/api/v1/clients/', {
    token,
    json: { url, nuvemshop_store_id: storeId, orders_enabled: true },
  });
  expect(client.status, client.text).toBe(200);
  for (const [number, state, hiperOrderId] of orders) {
    await t.sql(
      `insert into orders (id, client_id, nuvemshop_order_id, number, state, payment_status, total, customer_name,
         hiper_order_id, last_error, lines, history, received_at, updated_at, created_at)
       values (gen_random_uuid(), $1, $2, $3, $4, 'paid', '65.00', 'João Souza', $5, $6, '[]', $7, now(), now(), now())`,
      [
        client.body.id,
        3000000000 + number,
        number,
        state,
        hiperOrderId,
        state === 'rejected' ? 'Produto inativo no Hiper' : null,
        JSON.stringify(HISTORY),
      ],
    );
  }
  return client.body.id as string;
}

const rowOf = async (number: number) =>
  (
    await t.sql<{ state: string; hiper_order_id: string | null }>(
      `select state, hiper_order_id from orders where number = $1`,
      [number],
    )
  )[0];

/** The row's menu opened, and one of its items chosen. */
async function choose(page: Page, number: number, item: string) {
  await page
    .getByRole('button', { name: `Ações: ${number}`, exact: true })
    .first()
    .click();
  await page.getByRole('menuitem', { name: item }).click();
}

const at = (page: Page, iso: string) =>
  page.evaluate(
    // As every screen writes a moment: 27/11/2026 10:05, in the browser's time zone.
    (moment) =>
      new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' })
        .format(new Date(moment))
        .replace(', ', ' '),
    iso,
  );

describe('an uncertain order', () => {
  it('says what to look for in Hiper, and Reenviar asks first, naming the risk of a duplicate', async () => {
    const client = await seed('https://loja-reenvio.example', 7401, [
      [401, 'uncertain', null],
      [403, 'rejected', 'a1b2c3-403'],
    ]);
    const page = await openSignedIn(open, 'light', 'desktop');
    await page.goto(`/pedidos?filter=${encodeURIComponent(JSON.stringify({ client_id: client }))}`);
    await page.getByRole('cell', { name: '401', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Ver pedido' });
    const check = dialog.getByRole('region', { name: 'Antes de agir, confira no Hiper' });
    await check.waitFor();
    const said = await check.innerText();
    // The number and the observation as order-mapping.ts sends them.
    expect(said).toContain('o número 401');
    expect(said).toContain('Nuvemshop #401 (id 3000000401)');
    const sends = check.getByRole('list', { name: 'Envios ao Hiper' }).getByRole('listitem');
    expect(await sends.count()).toBe(2);
    const first = await sends.nth(0).innerText();
    expect(first).toContain(`Envio 1: ${await at(page, '2026-11-27T13:05:10Z')}`);
    expect(first).toContain('Não aceito, nada foi criado: O documento do cliente é inválido');
    const second = await sends.nth(1).innerText();
    expect(second).toContain(`Envio 2: ${await at(page, '2026-11-27T13:20:01Z')}`);
    expect(second).toContain('Sem resposta que prove o resultado: Hiper respondeu HTTP 502 sem o id do pedido');
    await page.screenshot({ path: '/tmp/orders-resend-dialog.png' });

    // Reenviar asks first; Cancel sends nothing.
    await dialog.getByRole('button', { name: 'Reenviar' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reenviar o pedido 401?' });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('reenviar cria um pedido de venda duplicado no Hiper');
    await page.screenshot({ path: '/tmp/orders-resend-confirm.png' });
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await rowOf(401)).state).toBe('uncertain');
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    await dialog.waitFor({ state: 'detached' });

    // From the row's menu too; confirmed, it is queued.
    await choose(page, 401, 'Reenviar');
    await page
      .getByRole('dialog', { name: 'Reenviar o pedido 401?' })
      .getByRole('button', { name: 'Reenviar mesmo assim' })
      .click();
    await expectToast(page, 'Pedido na fila');
    expect((await rowOf(401)).state).toBe('received');

    // A rejected order's dialog says Reenviar cancels its sales order in Hiper first.
    await page.getByRole('cell', { name: '403', exact: true }).click();
    const rejected = page.getByRole('dialog', { name: 'Ver pedido' });
    const rejectedCheck = await rejected.getByRole('region', { name: 'Antes de agir, confira no Hiper' }).innerText();
    expect(rejectedCheck).toContain('pedido de venda a1b2c3-403 com erro');
    expect(rejectedCheck).toContain('“Reenviar” primeiro o cancela no Hiper');
    await page.context().close();
  });

  it('Já está no Hiper asks for Hiper’s id, refuses what is not one, and takes the order as sent with it', async () => {
    const client = await seed('https://loja-ja-no-hiper.example', 7402, [[402, 'uncertain', null]]);
    const page = await openSignedIn(open, 'light', 'phone');
    await page.goto(`/pedidos?filter=${encodeURIComponent(JSON.stringify({ client_id: client }))}`);
    await choose(page, 402, 'Já está no Hiper');
    const ask = page.getByRole('dialog', { name: 'O pedido 402 já está no Hiper' });
    const box = ask.getByRole('textbox', { name: 'ID do pedido de venda no Hiper' });
    await box.waitFor();
    const mark = ask.getByRole('button', { name: 'Marcar como enviado' });
    expect(await mark.isDisabled()).toBe(true);
    await box.fill('../cancelar');
    await mark.click();
    // Said in the prompt itself, which stays open to be corrected (its modal hides the toast from screen readers).
    await ask.getByRole('alert').getByText('O ID no Hiper tem de 1 a 64 letras, números, “-” ou “_”.').waitFor();
    expect(await rowOf(402)).toEqual({ state: 'uncertain', hiper_order_id: null });
    await page.screenshot({ path: '/tmp/orders-resend-mark-sent.png' });

    const id = '793bd707-505f-44bb-b02b-56972bf365d5';
    await box.fill(id);
    await mark.click();
    await expectToast(page, 'Pedido marcado como enviado', 'O pedido 402 não será enviado de novo.');
    await ask.waitFor({ state: 'detached' });
    expect(await rowOf(402)).toEqual({ state: 'sent', hiper_order_id: id });
    await page.context().close();
  });
});
