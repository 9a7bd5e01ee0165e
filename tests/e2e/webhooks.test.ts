import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUPERUSER, startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, login } from './support/browser';

/** The Webhooks screen, as staff read it: what came unsigned says so, in the screen's language. */
let t: TestGateway;
const open = browserSuite(async () => {
  t = await startTestGateway();
  return t;
});

const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };

async function openIn(theme: 'light' | 'dark', size: keyof typeof SIZES) {
  const page = await open(SIZES[size]);
  await page.context().addInitScript((chosen) => {
    if (!localStorage.getItem('RaStoreSistemaIntegracao.theme'))
      localStorage.setItem('RaStoreSistemaIntegracao.theme', JSON.stringify(chosen));
  }, theme);
  await login(page, SUPERUSER.email, SUPERUSER.password);
  return page;
}

const scrollsSideways = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth > window.innerWidth);

describe('the Webhooks screen', () => {
  it('reads an unsigned privacy request as "Não assinado", naming its client, on a desktop and a phone', async () => {
    const token = await t.superuserToken();
    const client = await t.request('POST', '/api/v1/clients/', {
      token,
      json: { url: 'https://loja-sem-assinatura.example', nuvemshop_store_id: 6060 },
    });
    expect(client.status, client.text).toBe(200);
    // As anyone may post it: no signature.
    const posted = await t.request('POST', '/api/v1/webhooks/nuvemshop/store-redact', { json: { store_id: 6060 } });
    expect(posted.status).toBe(200);

    for (const [theme, size] of [
      ['light', 'desktop'],
      ['dark', 'desktop'],
      ['light', 'phone'],
      ['dark', 'phone'],
    ] as const) {
      const page = await openIn(theme, size);
      await page.goto('/webhooks');
      await page.getByRole('heading', { name: 'Webhooks recebidos' }).waitFor();
      await page.getByText('Não assinado').first().waitFor();
      await page.getByRole('link', { name: 'https://loja-sem-assinatura.example' }).first().waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `/tmp/webhooks-unsigned-${size}-${theme}.png` });
      await page.context().close();
    }
  });
});
