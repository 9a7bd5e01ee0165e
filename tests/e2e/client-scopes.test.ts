import { describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { syncEnv } from '../support/sync';
import { browserSuite, openSignedIn } from './support/browser';

/** A store that did not grant a permission the product needs: staff read which one on the Clientes screen. */
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;

const open = browserSuite(
  async () => {
    [hiper, nuvemshop] = await Promise.all([startHiper(), startNuvemshopApi()]);
    t = await startTestGateway(syncEnv(hiper, nuvemshop));
    return t;
  },
  async () => {
    await Promise.all([hiper?.close(), nuvemshop?.close()]);
  },
);

const STORE_URL = 'https://sem-clientes.example.com';

describe('a client whose store did not grant read_customers', () => {
  it('says so in its state’s tooltip and atop its dialog', async () => {
    const token = await t.superuserToken();
    const store = nuvemshop.addStore(9401);
    store.scopes.delete('read_customers');
    const created = await t.request('POST', '/api/v1/clients/', {
      token,
      json: { url: STORE_URL, hiper_token: hiper.addAccount().key, nuvemshop_store_id: 9401 },
    });
    expect(created.status, created.text).toBe(200);
    const installed = await t.request('POST', '/api/v1/callback/authorize', {
      json: { code: nuvemshop.installCode(9401) },
    });
    expect(installed.status, installed.text).toBe(200);

    const page = await openSignedIn(open, 'light', 'desktop');
    await page.goto('/clientes');
    const row = page.getByRole('row', { name: new RegExp(STORE_URL) });
    await row.getByText('Nunca sincronizado', { exact: true }).hover();
    await page.getByRole('tooltip', { name: 'Permissão ausente na Nuvemshop: read_customers' }).waitFor();

    await page.keyboard.press('Escape');
    // Named by its store's name once installed, with its URL beside it.
    await page.getByRole('button', { name: new RegExp(`^Ações: .*${STORE_URL.replace(/\./g, '\\.')}`) }).click();
    await page.getByRole('menuitem', { name: 'Editar cliente' }).click();
    await page.getByRole('dialog').getByText('Permissão ausente na Nuvemshop: read_customers').waitFor();
  });
});
