import { describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, openSignedIn, scrollsSideways, type SIZES } from './support/browser';

/** A list filtered by a filterable reference, chosen by the target's title, as a person does it. */
let t: TestGateway;
let token: string;
const open = browserSuite(async () => {
  t = await startTestGateway();
  token = await t.superuserToken();
  return t;
});

const openIn = (theme: 'light' | 'dark', size: keyof typeof SIZES) => openSignedIn(open, theme, size);

describe('a list filtered by a reference', () => {
  it("the runs' Cliente filter finds a client by its address and leaves only its runs, each naming it as a link", async () => {
    const clients: string[] = [];
    for (const url of ['https://loja-azul.example', 'https://loja-verde.example']) {
      const answer = await t.request('POST', '/api/v1/clients/', { token, json: { url } });
      expect(answer.status, answer.text).toBe(200);
      clients.push((answer.body as { id: string }).id);
    }
    for (const [client, kind] of [
      [clients[0], 'catalogue'],
      [clients[1], 'stock'],
    ])
      await t.sql(
        `insert into sync_runs (id, client_id, kind, trigger, state, queued_at, errors)
         values (gen_random_uuid(), $1, $2, 'manual', 'succeeded', now(), '[]')`,
        [client, kind],
      );

    for (const [theme, size] of [
      ['light', 'desktop'],
      ['dark', 'desktop'],
      ['light', 'phone'],
      ['dark', 'phone'],
    ] as const) {
      const page = await openIn(theme, size);
      await page.goto('/sincronizacoes');
      await page.getByRole('heading', { name: 'Sincronizações' }).waitFor();
      // Both runs, each naming its client by its address, as a link.
      await page.getByRole('link', { name: 'https://loja-verde.example' }).first().waitFor();
      await page.getByRole('link', { name: 'https://loja-azul.example' }).first().waitFor();

      const filter = page.getByRole('combobox', { name: 'Cliente' });
      await filter.click();
      await filter.fill('verde');
      await page.getByRole('option', { name: 'https://loja-verde.example' }).click();
      await expect.poll(() => page.getByRole('link', { name: 'https://loja-azul.example' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'https://loja-verde.example' }).count()).toBeGreaterThan(0);
      expect(await filter.inputValue()).toBe('https://loja-verde.example');
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/runs-client-filter-${size}-${theme}.png` });

      // Reopened from its address, the filter still names the client (not its id).
      await page.reload();
      await expect
        .poll(() => page.getByRole('combobox', { name: 'Cliente' }).inputValue())
        .toBe('https://loja-verde.example');
      await page.context().close();
    }
  });
});
