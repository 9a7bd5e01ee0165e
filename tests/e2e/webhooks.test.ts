import { describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, openSignedIn, scrollsSideways, type SIZES } from './support/browser';

/** The Webhooks screen, as staff read it: what came unsigned says so, in the screen's language. */
let t: TestGateway;
const open = browserSuite(async () => {
  t = await startTestGateway();
  return t;
});

const openIn = (theme: 'light' | 'dark', size: keyof typeof SIZES) => openSignedIn(open, theme, size);

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
