import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestGateway, SUPERUSER, type TestGateway } from '../support/gateway';
import { browserSuite, openSignedIn, SIZES } from './support/browser';

/**
 * Staff screens that tell the truth, in Chromium against a real gateway: a list and a record's dialog show what
 * changed without a reload, Pedidos fits a desktop and offers 10/25/50 rows while the specification's lists keep
 * their five, signing in from a link opens that link, and the app bar speaks Portuguese.
 */
let t: TestGateway;
const open = browserSuite(async () => {
  t = await startTestGateway();
  return t;
});

const SHOTS = process.env.SCREENSHOTS_DIR;

let clientId: string | undefined;
/** A client whose store takes orders, and `count` orders of it (numbers from `first`), straight in the database. */
async function orders(first: number, count: number) {
  if (!clientId) {
    const client = await t.request('POST', '/api/v1/clients/', {
      token: await t.superuserToken(),
      json: { url: 'https://loja-ao-vivo.example', nuvemshop_store_id: 8181, orders_enabled: true },
    });
    expect(client.status, client.text).toBe(200);
    clientId = client.body.id as string;
  }
  for (let number = first; number < first + count; number++) {
    await t.sql(
      `insert into orders (id, client_id, nuvemshop_order_id, number, state, hold_reason, payment_status, total,
         customer_name, lines, history, received_at, updated_at, created_at)
       values (gen_random_uuid(), $1, $2, $3, 'sending', null, 'paid', '1349.90', 'Maria Aparecida da Silva Gonçalves',
         '[]', '[]', now(), now(), now())`,
      [clientId, 4000000000 + number, number],
    );
  }
}

/** The width the table's rows take past the width of their box (0: no sideways scroll inside the table). */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const table = document.querySelector('main table')!;
    let box: HTMLElement | null = table.parentElement;
    let worst = 0;
    for (; box && box.tagName !== 'MAIN'; box = box.parentElement)
      worst = Math.max(worst, box.scrollWidth - box.clientWidth);
    return worst;
  });

describe('a list and a record’s dialog', () => {
  it('show a code Hiper gave while the screen is open, within a few seconds, without a reload', async () => {
    await orders(501, 1);
    const page = await openSignedIn(open, 'light', 'desktop');
    await page.goto('/pedidos');
    const row = page.getByRole('row').filter({ hasText: '501' });
    await row.getByText('Enviando').waitFor();
    await t.sql(`update orders set state = 'sent', hiper_code = 'LV00000000001', sent_at = now() where number = 501`);
    // Within a few seconds: the list reads its page again every 5 s (and this machine is shared).
    await row.getByText('LV00000000001').waitFor({ timeout: 8000 });
    await row.getByText('Enviado').waitFor({ timeout: 1000 });

    // The dialog shows the row at once, then reads the record itself (its first read loads the data layer).
    const read = page.waitForResponse((answer) => !!answer.request().postData()?.includes('"operationName":"Order"'));
    await row.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('LV00000000001').waitFor();
    await read;
    await t.sql(`update orders set tracking_code = 'BR123456789XX' where number = 501`);
    // The dialog reads it again 5 s after its last answer.
    await dialog.getByText('BR123456789XX').waitFor({ timeout: 8000 });
  });
});

describe('the lists’ sizes', () => {
  it('Pedidos fits 1440 px without sideways scrolling and offers 10, 25 or 50 rows a page', async () => {
    await orders(601, 30);
    for (const theme of ['light', 'dark'] as const) {
      for (const size of ['desktop', 'phone'] as const) {
        const page = await openSignedIn(open, theme, size);
        await page.goto('/pedidos');
        await page
          .getByText('601', { exact: true })
          .or(page.getByText('630', { exact: true }))
          .first()
          .waitFor();
        if (SHOTS) {
          await page.waitForLoadState('networkidle');
          await page.screenshot({ path: `${SHOTS}/pedidos-${size}-${theme}.png`, animations: 'disabled' });
        }
        if (size === 'phone') continue;
        expect(await overflow(page), 'the table scrolls sideways').toBeLessThanOrEqual(0);
        const sizes = page.getByRole('combobox', { name: 'Linhas por página' });
        // The choice is drawn with the pagination, once the page's rows and total have come.
        await sizes.waitFor();
        expect(await sizes.locator('option').allTextContents()).toEqual(['10', '25', '50']);
        await expect.poll(() => page.getByRole('row').count()).toBe(11);
        await sizes.selectOption('25');
        await expect.poll(() => page.getByRole('row').count()).toBe(26);
        expect(new URL(page.url()).searchParams.get('perPage')).toBe('25');
        expect(await overflow(page)).toBeLessThanOrEqual(0);
      }
    }
  });

  it('the specification’s lists keep five rows a page and their exact texts', async () => {
    const token = await t.superuserToken();
    for (let n = 0; n < 6; n++) {
      const made = await t.request('POST', '/api/v1/clients/', {
        token,
        json: { url: `https://loja-${n}.example`, nuvemshop_store_id: 9100 + n },
      });
      expect(made.status, made.text).toBe(200);
      const item = await t.request('POST', '/api/v1/items/', { token, json: { title: `Item ${n}` } });
      expect(item.status, item.text).toBe(200);
    }
    const page = await openSignedIn(open, 'light', 'desktop');
    for (const [path, previous, pageText, next] of [
      ['/clientes', 'Anterior', 'Página 1', 'Próximo'],
      ['/items', 'Previous', 'Page 1', 'Next'],
    ] as const) {
      await page.goto(path);
      const nav = page.getByRole('navigation', { name: 'pagination' });
      await nav.getByRole('button', { name: next, exact: true }).waitFor();
      await nav.getByText(pageText, { exact: true }).waitFor();
      await nav.getByRole('button', { name: previous, exact: true }).waitFor();
      await expect.poll(() => page.locator('main tbody tr').count()).toBe(5);
      expect(await page.getByRole('combobox', { name: 'Linhas por página' }).count()).toBe(0);
    }
  });
});

describe('signing in and the app bar', () => {
  it('signing in from a link to /clientes opens /clientes', async () => {
    const page = await open(SIZES.desktop);
    await page.goto('/clientes');
    await page.waitForURL('**/login');
    await page.getByLabel('Email').fill(SUPERUSER.email);
    await page.getByLabel('Password', { exact: true }).fill(SUPERUSER.password);
    await page.getByRole('button', { name: 'Logar' }).click();
    await page.getByRole('heading', { name: 'Gerenciar clientes' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/clientes');
  });

  it('names its tools in Portuguese', async () => {
    const page = await openSignedIn(open, 'light', 'desktop');
    const toggle = page.getByRole('button', { name: 'Alternar tema claro/escuro' });
    await toggle.hover();
    await page.getByRole('tooltip', { name: 'Alternar tema claro/escuro' }).waitFor();
    const refresh = page.getByRole('button', { name: 'Atualizar' });
    await refresh.hover();
    await page.getByRole('tooltip', { name: 'Atualizar' }).waitFor();
    expect(await page.getByText(/Toggle light\/dark mode|^Refresh$/).count()).toBe(0);
  });
});
