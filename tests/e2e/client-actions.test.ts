import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUPERUSER, startTestGateway, type TestGateway } from '../support/gateway';
import { startHiper, type HiperStandIn } from '../support/standins/hiper';
import { startNuvemshopApi, type NuvemshopApiStandIn } from '../support/standins/nuvemshop-api';
import { browserSuite, expectToast, login } from './support/browser';

/**
 * What a client's row offers beyond editing it ("Sincronizar agora", its runs, webhooks and products), the links
 * between the lists and from the dashboard, and the list screens on a phone: a real gateway, its workers running
 * against the Hiper and Nuvemshop stand-ins, and the built admin in Chromium.
 */
let hiper: HiperStandIn;
let nuvemshop: NuvemshopApiStandIn;
let t: TestGateway;
let token: string;
let nextStore = 8100;

const open = browserSuite(
  async () => {
    [hiper, nuvemshop] = await Promise.all([startHiper({ pageSize: 4 }), startNuvemshopApi()]);
    t = await startTestGateway({
      HIPER_API_URL: hiper.url,
      NUVEMSHOP_API_URL: nuvemshop.url,
      // Nothing runs on its own: every run is asked for.
      SYNC_CATALOGUE_CRON: '0 0 1 1 *',
      SYNC_FULL_READ_CRON: '0 0 1 1 *',
      SYNC_STOCK_INTERVAL_SECONDS: '86400',
    });
    token = await t.superuserToken();
    return t;
  },
  async () => {
    await Promise.all([hiper?.close(), nuvemshop?.close()]);
  },
);

const PHONE = { width: 390, height: 844 };

async function signedIn(viewport?: { width: number; height: number }) {
  const page = await open(viewport);
  await login(page, SUPERUSER.email, SUPERUSER.password);
  return page;
}

/** A client with a Hiper account and a Nuvemshop store of the stand-ins: connected to both platforms. */
async function connectedClient(url: string) {
  const storeId = nextStore++;
  const store = nuvemshop.addStore(storeId);
  const account = hiper.addAccount();
  account.add({ nome: 'Caneta azul', preco: 4.5, quantidadeEmEstoque: 10 });
  const created = await t.request('POST', '/api/v1/clients/', {
    token,
    json: { url, hiper_token: account.key, nuvemshop_token: store.token, nuvemshop_store_id: storeId },
  });
  expect(created.status, created.text).toBe(200);
  return created.body.id as string;
}

/** A client with only its Hiper token: not connected to Nuvemshop. */
async function halfClient(url: string) {
  const created = await t.request('POST', '/api/v1/clients/', { token, json: { url, hiper_token: 'h'.repeat(40) } });
  expect(created.status, created.text).toBe(200);
  return created.body.id as string;
}

/** Chooses `action` in the row menu of the record named `name`. */
async function fromRowMenu(page: Page, name: string, action: string) {
  await page.getByRole('button', { name: `Ações: ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** The edit dialog's reading of its client. */
const dialogRead = (page: Page) =>
  page.waitForResponse((r) => r.url().endsWith('/graphql') && !!r.request().postData()?.includes('query Client('));

const runsOf = (clientId: string) =>
  t.sql<{ state: string; trigger: string }>('select state, trigger from sync_runs where client_id = $1', [clientId]);

describe('Sincronizar agora', () => {
  it('queues a run of a connected client at once, says so, and the run is in Sincronizações with that client', async () => {
    const url = 'https://agora.example.com';
    const id = await connectedClient(url);
    // Its last run failed: the row says so until the click.
    await t.sql(`update clients set sync_state = 'failed' where id = $1`, [id]);
    const page = await signedIn();
    await page.goto('/clientes');
    const row = page.getByRole('row', { name: new RegExp(url) });
    await row.getByText('Falhou').waitFor();

    await fromRowMenu(page, url, 'Sincronizar agora');
    await expectToast(page, 'Sincronização agendada', `${url} entrou na fila e será sincronizado em instantes.`);
    expect(await runsOf(id)).toEqual([{ state: expect.any(String), trigger: 'manual' }]);
    // The row reads again at once: its state is the run's (queued, running, or up to date once it has ended).
    await row.getByText(/^(Na fila|Sincronizando|Em dia)$/).waitFor({ timeout: 5000 });
    expect(await row.getByText('Falhou').count()).toBe(0);
    await expect.poll(async () => (await runsOf(id))[0].state, { timeout: 30_000 }).toMatch(/^(succeeded|partial)$/);

    // The run in Sincronizações, from the client's row menu: that client's runs only, the client named by a link.
    await page.reload();
    await row.getByText('Em dia').waitFor();
    await fromRowMenu(page, url, 'Sincronizações');
    await page.getByRole('heading', { name: 'Sincronizações' }).waitFor();
    expect(decodeURIComponent(new URL(page.url()).search)).toContain(`"client_id":"${id}"`);
    const runs = page.getByRole('table', { name: 'Sincronizações' }).getByRole('row');
    const run = runs.filter({ hasText: 'Catálogo' });
    await run.getByRole('link', { name: url }).waitFor();
    await run.getByText(/^Concluída/).waitFor();
    expect(await run.count()).toBe(1);
  });

  it('tells of a run already queued or running rather than queueing another, in the edit dialog too', async () => {
    const queuedUrl = 'https://ja-na-fila.example.com';
    const runningUrl = 'https://ja-rodando.example.com';
    const queued = await connectedClient(queuedUrl);
    const running = await connectedClient(runningUrl);
    // Runs stored as the workers leave them, with no job behind them: they stay as they are.
    for (const [client, state] of [
      [queued, 'queued'],
      [running, 'running'],
    ]) {
      await t.sql(
        `insert into sync_runs (id, client_id, kind, trigger, state, queued_at, errors)
         values (gen_random_uuid(), $1, 'catalogue', 'schedule', $2, now(), '[]')`,
        [client, state],
      );
      await t.sql('update clients set sync_state = $2 where id = $1', [client, state]);
    }
    const page = await signedIn();
    await page.goto('/clientes');
    await page
      .getByRole('row', { name: new RegExp(queuedUrl) })
      .getByText('Na fila')
      .waitFor();

    await fromRowMenu(page, queuedUrl, 'Sincronizar agora');
    await expectToast(
      page,
      'Sincronização já agendada',
      `${queuedUrl} já estava na fila de sincronização; nenhuma outra foi criada.`,
    );
    // The edit dialog offers it too, beside its own buttons; the dialog stays open.
    await fromRowMenu(page, runningUrl, 'Editar cliente');
    const dialog = page.getByRole('dialog', { name: 'Editar cliente' });
    await dialog.getByRole('button', { name: 'Sincronizar agora' }).click();
    // Told behind the dialog, which hides the rest of the page from assistive technology while it is open.
    await page
      .getByRole('status', { includeHidden: true })
      .filter({ hasText: 'Sincronização em andamento' })
      .getByText(`${runningUrl} já está sendo sincronizado; nenhuma outra foi criada.`)
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await runsOf(queued)).toHaveLength(1);
    expect(await runsOf(running)).toHaveLength(1);
  });

  it('tells, in Portuguese, what a client that can no longer be synced is missing', async () => {
    const url = 'https://sem-nuvemshop.example.com';
    const id = await connectedClient(url);
    const page = await signedIn();
    await page.goto('/clientes');
    await page.getByRole('button', { name: `Ações: ${url}` }).click();
    // Its store token is removed while the page shows it connected.
    await t.request('PUT', `/api/v1/clients/${id}`, { token, json: { nuvemshop_token: null } });
    await page.getByRole('menuitem', { name: 'Sincronizar agora' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Não foi possível sincronizar' });
    await alert.getByText('Falta o token Nuvemshop').waitFor();
    await expectToast(page, 'Não foi possível sincronizar');
    expect(await runsOf(id)).toEqual([]);
  });

  it('a second click replaces the toast on screen rather than queueing one after it', async () => {
    const url = 'https://dois-cliques.example.com';
    const id = await connectedClient(url);
    const page = await signedIn();
    await page.goto('/clientes');
    // Deleted meanwhile, once the dialog has read it: each click is refused.
    const read = dialogRead(page);
    await fromRowMenu(page, url, 'Editar cliente');
    await read;
    await t.request('DELETE', `/api/v1/clients/${id}`, { token });
    const button = page
      .getByRole('dialog', { name: 'Editar cliente' })
      .getByRole('button', { name: 'Sincronizar agora' });
    await button.click();
    await page
      .getByRole('alert', { includeHidden: true })
      .filter({ hasText: 'Não foi possível sincronizar' })
      .waitFor();
    await button.click();
    await page.waitForTimeout(500);
    expect(await page.getByRole('alert', { includeHidden: true }).count()).toBe(1);
  });
});

describe('links between the lists', () => {
  it("a client's row menu opens its webhooks, runs and linked products; a run's or a webhook's client links to it", async () => {
    const url = 'https://ligada.example.com';
    const other = 'https://outra.example.com';
    const id = await halfClient(url);
    const otherId = await halfClient(other);
    for (const client of [id, otherId]) {
      await t.sql(
        `insert into sync_runs (id, client_id, kind, trigger, state, queued_at, errors)
         values (gen_random_uuid(), $1, 'stock', 'schedule', 'succeeded', now(), '[]')`,
        [client],
      );
      await t.sql(
        `insert into product_links (id, client_id, hiper_id, sku, name, nuvemshop_product_id, nuvemshop_variant_id)
         values (gen_random_uuid(), $1, $2, $3, $4, 1, 2)`,
        [client, client === id ? '101' : '202', client === id ? '101' : '202', `Produto de ${client}`],
      );
      await t.sql(
        `insert into webhook_events (id, event, store_id, client_id, received_at, delivery_key)
         values (gen_random_uuid(), 'app/resumed', 1, $1, now(), $2)`,
        [client, `entrega-${client}`],
      );
    }
    const page = await signedIn();
    for (const [menu, heading, table] of [
      ['Sincronizações', 'Sincronizações', 'Sincronizações'],
      ['Produtos vinculados', 'Produtos vinculados', 'Produtos vinculados'],
      ['Webhooks', 'Webhooks recebidos', 'Webhooks'],
    ]) {
      await page.goto('/clientes');
      await fromRowMenu(page, url, menu);
      await page.getByRole('heading', { name: heading }).waitFor();
      const rows = page.getByRole('table', { name: table }).getByRole('row');
      // Only the client's own rows: its link, none of the other client's.
      await rows.getByRole('link', { name: url }).first().waitFor();
      expect(await rows.getByRole('link', { name: other }).count(), menu).toBe(0);
      expect(await rows.count(), menu).toBe(2); // the headings and its one row

      if (menu !== 'Produtos vinculados') {
        // The client's name links to the client, in its list.
        await rows.getByRole('link', { name: url }).click();
        await page.getByRole('heading', { name: 'Gerenciar clientes' }).waitFor();
        const clients = page.getByRole('table', { name: 'Clientes' }).getByRole('row');
        await clients.filter({ hasText: url }).waitFor();
        expect(await clients.filter({ hasText: other }).count(), menu).toBe(0);
      }
    }
  });

  it("the dashboard's cards open their lists", async () => {
    await t.sql(`update clients set sync_state = 'suspended' where url = $1`, ['https://outra.example.com']);
    const page = await signedIn();
    for (const [card, heading, filtered] of [
      ['Clientes', 'Gerenciar clientes', undefined],
      ['Desconectados', 'Gerenciar clientes', 'Desconectada'],
      ['Suspensos', 'Gerenciar clientes', 'Loja suspensa'],
      ['Itens', 'Items Management', undefined],
      ['Usuários', 'Users Management', undefined],
      ['E-mails', 'E-mails', 'Falhou'],
    ] as const) {
      await page.goto('/');
      await page
        .getByRole('link', { name: new RegExp(`^${card}`) })
        .first()
        .click();
      await page.getByRole('heading', { name: heading }).waitFor();
      if (filtered) await page.getByRole('combobox').filter({ hasText: filtered }).waitFor();
    }
    // The suspended card's list holds the suspended client only.
    await page.goto('/');
    await page.getByRole('link', { name: /^Suspensos/ }).click();
    const rows = page.getByRole('table', { name: 'Clientes' }).getByRole('row');
    await rows.filter({ hasText: 'https://outra.example.com' }).waitFor();
    expect(await rows.count()).toBe(2);
  });
});

describe.each(['light', 'dark'] as const)('on a phone, in the %s appearance', (theme) => {
  it('no screen scrolls sideways', async () => {
    const url = `https://um-endereco-muito-comprido-de-loja-${theme}.exemplo-de-loja-virtual.com.br`;
    const client = await halfClient(url);
    // A row on every list: a run, a linked product and a webhook of the client, stored as their workers would.
    await t.sql(
      `insert into sync_runs (id, client_id, kind, trigger, state, queued_at, errors)
       values (gen_random_uuid(), $1, 'full', 'schedule', 'partial', now(), '[]')`,
      [client],
    );
    await t.sql(
      `insert into product_links (id, client_id, hiper_id, sku, name, nuvemshop_product_id, nuvemshop_variant_id)
       values (gen_random_uuid(), $1, $2, $3, 'Um produto com um nome bastante comprido para caber numa tela', 3, 4)`,
      [client, `9${theme.length}`, `9${theme.length}`],
    );
    await t.sql(
      `insert into webhook_events (id, event, store_id, client_id, received_at, delivery_key)
       values (gen_random_uuid(), 'store/redact', 1, $1, now(), $2)`,
      [client, `entrega-${client}`],
    );
    await t.request('POST', '/api/v1/items/', {
      token,
      json: { title: `Um item com um título bem comprido, ${theme}` },
    });
    // A mail in the outbox.
    await t.request('POST', `/api/v1/password-recovery/${encodeURIComponent(SUPERUSER.email)}`);
    const page = await open(PHONE);
    await page.context().addInitScript((chosen) => {
      localStorage.setItem('RaStoreSistemaIntegracao.theme', JSON.stringify(chosen));
    }, theme);
    await login(page, SUPERUSER.email, SUPERUSER.password);
    // The appearance is the one chosen: the dark page's background is #1a202c.
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background === 'rgb(26, 32, 44)', background).toBe(theme === 'dark');
    const screens = [
      ['/', 'Olá'],
      ['/clientes', 'Gerenciar clientes'],
      ['/sincronizacoes', 'Sincronizações'],
      ['/produtos-vinculados', 'Produtos vinculados'],
      ['/webhooks', 'Webhooks recebidos'],
      ['/emails', 'E-mails'],
      ['/items', 'Items Management'],
      ['/admin', 'Users Management'],
    ];
    for (const [path, heading] of screens) {
      await page.goto(path);
      await page.getByRole('heading', { name: new RegExp(`^${heading}`) }).waitFor();
      if (path !== '/')
        await page
          .getByRole('button', { name: /^(Ações|Actions): / })
          .first()
          .waitFor();
      await page.waitForTimeout(300);
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth, `${path} (${theme})`).toBeLessThanOrEqual(innerWidth);
      // A run's, a linked product's or a webhook's client is a link to it on a phone too, as on a desk.
      if (['/sincronizacoes', '/produtos-vinculados', '/webhooks'].includes(path))
        await page.getByRole('link', { name: url }).first().waitFor();
      if (path === '/sincronizacoes') {
        // A run is titled by its kind in words, its menu named as the title reads, and its moments are written as in
        // Brazil, whatever the browser's.
        await page.getByText('Leitura completa', { exact: true }).first().waitFor();
        await page.getByRole('button', { name: 'Ações: Leitura completa' }).first().waitFor();
        await page
          .getByText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)
          .first()
          .waitFor();
      }
    }
    // The client's row menu, open, fits too.
    await page.goto('/clientes');
    await page
      .getByRole('button', { name: /^Ações: / })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Editar cliente' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.keyboard.press('Escape');

    // A toast told while the edit dialog is open leaves its buttons in sight and within reach.
    const connected = `https://conectada-${theme}.example.com`;
    const connectedId = await connectedClient(connected);
    await page.reload();
    // Deleted meanwhile, once the dialog has read it: the click is refused.
    const read = dialogRead(page);
    await fromRowMenu(page, connected, 'Editar cliente');
    await read;
    await t.request('DELETE', `/api/v1/clients/${connectedId}`, { token });
    const dialog = page.getByRole('dialog', { name: 'Editar cliente' });
    await dialog.getByRole('button', { name: 'Sincronizar agora' }).click();
    const toast = page.getByRole('alert', { includeHidden: true }).filter({ hasText: 'Não foi possível sincronizar' });
    await toast.waitFor();
    await page.waitForTimeout(400); // its entrance
    const shown = (await toast.boundingBox())!;
    for (const name of ['Cancelar', 'Salvar']) {
      const button = (await dialog.getByRole('button', { name }).boundingBox())!;
      expect(shown.y + shown.height, `${name} (${theme})`).toBeLessThanOrEqual(button.y);
    }
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
  });
});
