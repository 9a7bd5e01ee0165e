import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, openSignedIn, scrollsSideways } from './support/browser';

/**
 * The last 30 days in pictures: the dashboard's four charts (everyone's runs by result, products written, orders by
 * state, 429s) and a client's own in its dialog; each a figure named by its title, its numbers in a table a screen
 * reader reads and "Ver números" shows; at a desk and on a phone, light and dark, nothing scrolling sideways.
 */
let t: TestGateway;
let token: string;

const open = browserSuite(async () => {
  t = await startTestGateway();
  token = await t.superuserToken();
  return t;
});

const DAY = 86_400_000;

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** What axe-core finds against WCAG 2.1 A and AA on the page as it is now: each rule broken, with its elements. */
async function axe(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

async function client(name: string) {
  const created = await t.request('POST', '/api/v1/clients/', {
    token,
    json: { url: `https://${randomUUID().slice(0, 8)}.example.com`, name },
  });
  expect(created.status, created.text).toBe(200);
  return created.body.id as string;
}

async function run(clientId: string, ago: number, state: string, created: number, errors: object[] = []) {
  const at = new Date(Date.now() - ago);
  await t.sql(
    `insert into sync_runs (id, client_id, kind, trigger, state, queued_at, created, updated, errors, created_at, updated_at)
     values ($1, $2, 'catalogue', 'schedule', $3, $4, $5, 0, $6, $4, $4)`,
    [randomUUID(), clientId, state, at, created, JSON.stringify(errors)],
  );
}

async function order(clientId: string, ago: number, state: string) {
  const at = new Date(Date.now() - ago);
  await t.sql(
    `insert into orders (id, client_id, nuvemshop_order_id, state, lines, history, received_at, updated_at, created_at)
     values ($1, $2, $3, $4, '[]', '[]', $5, $5, $5)`,
    [randomUUID(), clientId, Math.floor(Math.random() * 1e9), state, at],
  );
}

/**
 * A row of the orders' table as a screen reader names it: the day (dd/mm) and the count of each state the 30 days saw,
 * in the states' order, from the gateway's own answer.
 */
async function ordersRow(clientId?: string) {
  const answer = await t.request('GET', `/api/v1/activity/${clientId ? `?client_id=${clientId}` : ''}`, { token });
  const days = answer.body.days as { day: string; orders: Record<string, number> }[];
  const states = Object.keys(days[0].orders).filter((state) => days.some((d) => d.orders[state] > 0));
  const busiest = [...days].sort(
    (a, b) => Object.values(b.orders).reduce((x, y) => x + y) - Object.values(a.orders).reduce((x, y) => x + y),
  )[0];
  return [`${busiest.day.slice(8, 10)}/${busiest.day.slice(5, 7)}`, ...states.map((s) => busiest.orders[s])].join(' ');
}

/** The four figures, each with its table of numbers; "Ver números" shows the orders'. */
async function expectCharts(within: Locator, row: string) {
  const section = within.getByRole('region', { name: 'Últimos 30 dias' });
  await section.waitFor();
  for (const title of [
    'Sincronizações por resultado',
    'Produtos gravados na loja',
    'Pedidos por estado',
    'Limites da Nuvemshop (429)',
  ]) {
    const figure = section.getByRole('figure', { name: title });
    await figure.waitFor();
    // The drawing, hidden from screen readers, which read the table instead.
    await figure.locator('svg').first().waitFor();
    expect(await figure.getByRole('table', { name: title }).getByRole('row').count()).toBe(31);
  }
  const orders = section.getByRole('figure', { name: 'Pedidos por estado' });
  await orders.getByRole('columnheader', { name: 'Aguardando pessoa' }).waitFor();
  await orders.getByRole('row', { name: row, exact: true }).waitFor();
  expect(await section.getByRole('figure', { name: 'Limites da Nuvemshop (429)' }).getByRole('button').count()).toBe(1);
  await section
    .getByRole('figure', { name: 'Pedidos por estado' })
    .getByRole('button', { name: 'Ver números' })
    .click();
  await orders.getByRole('button', { name: 'Ocultar números' }).waitFor();
  expect(await orders.getByRole('table').isVisible()).toBe(true);
}

describe('the last 30 days in charts', () => {
  it('are on the dashboard (everyone’s) and in a client’s dialog (its own), with their numbers', async () => {
    const shop = await client('Loja dos Gráficos');
    const other = await client('Outra Loja');
    const limited = { hiper_id: '', sku: null, message: '429', code: 'nuvemshop_rate_limited' };
    for (let n = 0; n < 20; n++) await run(shop, n * DAY + 3_600_000, n % 4 ? 'succeeded' : 'failed', n * 3);
    await run(shop, 2 * DAY, 'partial', 4, [limited, limited]);
    await run(other, DAY, 'succeeded', 50);
    for (let n = 0; n < 12; n++) await order(shop, n * 2 * DAY + 3_600_000, ['sent', 'held', 'invoiced'][n % 3]);
    await order(other, 3 * DAY, 'uncertain');

    for (const [theme, size] of [
      ['light', 'desktop'],
      ['dark', 'desktop'],
      ['light', 'phone'],
      ['dark', 'phone'],
    ] as const) {
      const page = await openSignedIn(open, theme, size);
      await page.goto('/');
      const main = page.getByRole('main');
      await expectCharts(main, await ordersRow());
      // Everyone's orders: the other client's uncertain one too.
      await main.getByRole('columnheader', { name: 'Incerto' }).waitFor();
      expect(await axe(page)).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/activity-dashboard-${size}-${theme}.png`, fullPage: true });

      await page.goto('/clientes');
      await page.getByText('Loja dos Gráficos').first().click();
      const dialog = page.getByRole('dialog', { name: 'Editar cliente' });
      await dialog.waitFor();
      await expectCharts(dialog, await ordersRow(shop));
      // Only its own: no uncertain order, which is the other client's.
      expect(await dialog.getByRole('columnheader', { name: 'Incerto' }).count()).toBe(0);
      expect(await axe(page)).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
      await dialog.getByRole('region', { name: 'Últimos 30 dias' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/activity-client-${size}-${theme}.png` });
      await page.context().close();
    }
  });
});
