import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SUPERUSER, startTestGateway, type TestGateway } from '../support/gateway';
import { browserSuite, expectToast, login } from './support/browser';

let t: TestGateway;
let token: string;
const open = browserSuite(async () => {
  t = await startTestGateway();
  token = await t.superuserToken();
  return t;
});

async function signedIn(viewport?: { width: number; height: number }) {
  const page = await open(viewport);
  await login(page, SUPERUSER.email, SUPERUSER.password);
  return page;
}

const bodyRows = (page: Page, table: string) => page.getByRole('table', { name: table }).locator('tbody tr');
const pageParam = (page: Page) => new URL(page.url()).searchParams.get('page');
const cellTexts = (page: Page, table: string, column: number) =>
  bodyRows(page, table).evaluateAll(
    (rows, index) => rows.map((row) => (row.children[index] as HTMLElement).innerText.trim()),
    column,
  );

async function checkPagination(page: Page, path: string, table: string, labels: [string, string, string]) {
  const [previous, pageLabel, next] = labels;
  await expect.poll(() => bodyRows(page, table).count()).toBe(5);
  await page.getByText(`${pageLabel} 1`, { exact: true }).waitFor();
  expect(await page.getByRole('button', { name: previous }).isDisabled()).toBe(true);
  await page.getByRole('button', { name: next }).click();
  await expect.poll(() => pageParam(page)).toBe('2');
  await page.getByText(`${pageLabel} 2`, { exact: true }).waitFor();
  await expect.poll(() => bodyRows(page, table).count()).toBe(1);
  expect(await page.getByRole('button', { name: next }).isDisabled()).toBe(true);
  // The page survives a reload, and anything invalid in the address means page 1; past the end, the last page.
  await page.reload();
  await page.getByText(`${pageLabel} 2`, { exact: true }).waitFor();
  await page.getByRole('button', { name: previous }).click();
  await expect.poll(() => pageParam(page)).toBe('1');
  for (const invalid of ['abc', '0', '-3', '1.5']) {
    await page.goto(`${path}?page=${invalid}`);
    await page.getByText(`${pageLabel} 1`, { exact: true }).waitFor();
    await expect.poll(() => bodyRows(page, table).count()).toBe(5);
  }
  await page.goto(`${path}?page=40`);
  await page.getByText(`${pageLabel} 2`, { exact: true }).waitFor();
  await page.goto(path);
  await page.getByText(`${pageLabel} 1`, { exact: true }).waitFor();
}

/** Types in the search box and waits for the filtered total. */
async function search(page: Page, placeholder: string, text: string, total: string) {
  await page.getByPlaceholder(placeholder).fill(text);
  await page.getByText(total, { exact: true }).waitFor();
}

/** Clicks the export button and answers the downloaded CSV's text, after UTF-8's byte-order mark it starts with. */
async function exported(page: Page, label: string): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: label }).click(),
  ]);
  const bytes = await readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)], 'byte-order mark').toEqual([0xef, 0xbb, 0xbf]);
  return bytes.subarray(3).toString('utf8');
}

/** Selects rows by their text and deletes them with the bulk action, checking the confirmation names them. */
async function bulkDelete(page: Page, names: string[], deleteLabel: string, title: string) {
  for (const name of names)
    await page
      .getByRole('row', { name: new RegExp(name) })
      .getByRole('checkbox')
      .check();
  await page.getByRole('button', { name: deleteLabel, exact: true }).click();
  const confirm = page.getByRole('dialog', { name: title });
  await confirm.getByText('Tem certeza? Você não poderá desfazer esta ação.').waitFor();
  for (const name of names) await confirm.getByText(name, { exact: true }).waitFor();
  await confirm.getByRole('button', { name: deleteLabel }).click();
  await confirm.waitFor({ state: 'detached' });
}

/** Clicks a column heading to sort by it ('Sort by title', 'Ordenar por url'). */
async function sortBy(page: Page, heading: string) {
  await page.getByRole('button', { name: new RegExp(`^${heading} `, 'i') }).click();
}

describe('items', () => {
  it('adds, searches, sorts, exports, pages through, edits and deletes items', async () => {
    for (let i = 1; i <= 5; i++) {
      await t.request('POST', '/api/v1/items/', {
        token,
        json: { title: `Seed item ${i}`, description: i === 1 ? null : `Description ${i}` },
      });
    }
    const page = await signedIn();
    await page.goto('/items');
    await page.getByRole('heading', { name: 'Items Management' }).waitFor();
    for (const column of ['ID', 'Title', 'Description', 'Actions']) {
      await page.getByRole('columnheader', { name: column }).waitFor();
    }
    await page
      .getByRole('row', { name: /Seed item 1/ })
      .getByText('N/A')
      .waitFor();
    await page.getByText('1–5 of 5', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Adicionar Item' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar Item' });
    await dialog.waitFor();
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await dialog.getByLabel(/^Title/).focus();
    await dialog.getByLabel('Description').focus();
    await dialog.getByText('Title é obrigatório.', { exact: true }).waitFor();
    await dialog.getByLabel(/^Title/).fill('Caderno azul');
    await dialog.getByLabel('Description').fill('Pautado, 96 folhas');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Success!', 'Item created successfully.');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Caderno azul/ }).waitFor();
    await page.getByText('1–5 of 6', { exact: true }).waitFor();

    await search(page, 'Search', 'seed item 3', '1–1 of 1');
    expect(await bodyRows(page, 'Items').count()).toBe(1);
    await search(page, 'Search', '', '1–5 of 6');

    await sortBy(page, 'Sort by title');
    await expect
      .poll(() => cellTexts(page, 'Items', 2))
      .toEqual(['Caderno azul', ...[1, 2, 3, 4].map((i) => `Seed item ${i}`)]);
    await sortBy(page, 'Sort by title');
    await expect.poll(() => cellTexts(page, 'Items', 2)).toEqual([5, 4, 3, 2, 1].map((i) => `Seed item ${i}`));

    await search(page, 'Search', 'caderno', '1–1 of 1');
    const csv = (await exported(page, 'Export')).split('\r\n');
    expect(csv[0]).toBe('ID,Title,Description');
    expect(csv.slice(1)).toEqual([expect.stringMatching(/^[^,]+,Caderno azul,"Pautado, 96 folhas"$/)]);
    await page.goto('/items');

    await checkPagination(page, '/items', 'Items', ['Previous', 'Page', 'Next']);

    // A click on the row opens its edit dialog.
    await page
      .getByRole('row', { name: /Caderno azul/ })
      .getByText('Pautado, 96 folhas')
      .click();
    const edit = page.getByRole('dialog', { name: 'Editar Item' });
    expect(await edit.getByLabel(/^Title/).inputValue()).toBe('Caderno azul');
    expect(await edit.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await edit.getByLabel(/^Title/).fill('Caderno verde');
    expect(await edit.getByRole('button', { name: 'Save' }).isDisabled()).toBe(false);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Success!', 'Item updated successfully.');
    await edit.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Caderno verde/ }).waitFor();

    // The row menu edits and deletes too; the confirmation names the item.
    await page.getByRole('button', { name: 'Actions: Caderno verde' }).click();
    await page.getByRole('menuitem', { name: 'Editar Item' }).click();
    await page.getByRole('dialog', { name: 'Editar Item' }).getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Actions: Caderno verde' }).click();
    await page.getByRole('menuitem', { name: 'Deletar Item' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deletar Item' });
    await confirm.getByText('Tem certeza? Você não poderá desfazer esta ação.').waitFor();
    await confirm.getByText('Caderno verde', { exact: true }).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Sucesso', 'O item foi apagado com sucesso.');
    await confirm.waitFor({ state: 'detached' });
    // The items list itself reloads: the deleted row is gone and the next item moves up.
    await page.getByRole('row', { name: /Caderno verde/ }).waitFor({ state: 'detached' });
    await expect.poll(() => bodyRows(page, 'Items').count()).toBe(5);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    await bulkDelete(page, ['Seed item 2', 'Seed item 3'], 'Delete', 'Deletar Item');
    await expectToast(page, 'Sucesso', 'Os 2 itens foram apagados com sucesso.');
    await page.getByText('1–3 of 3', { exact: true }).waitFor();
    const [{ count }] = await t.sql<{ count: string }>("select count(*) from items where title like 'Seed item%'");
    expect(Number(count)).toBe(3);
  });
});

describe('a signed-in start', () => {
  it("a second visit takes the first one's styles in, generates none of them again and looks the same", async () => {
    const created = await t.request('POST', '/api/v1/clients/', {
      token,
      json: { url: 'https://estilos-guardados.example' },
    });
    expect(created.status, created.text).toBe(200);
    try {
      const page = await signedIn();
      /** What the page's Emotion sheets hold: names taken in from the kept styles, and rules generated by this visit. */
      const styles = () =>
        page.evaluate(() => {
          const kept = document.querySelector('style[data-emotion^="css "]');
          const generated = Array.from(document.querySelectorAll('style[data-emotion="css"]'));
          return {
            keptNames: (kept?.getAttribute('data-emotion')?.split(' ').length ?? 1) - 1,
            generatedRules: generated.reduce(
              (sum, tag) => sum + ((tag as HTMLStyleElement).sheet?.cssRules.length ?? 0),
              0,
            ),
          };
        });
      const visit = async () => {
        await page.goto('/clientes');
        await page.getByRole('cell', { name: 'https://estilos-guardados.example', exact: true }).waitFor();
        await page.getByRole('button', { name: 'Ações: https://estilos-guardados.example' }).waitFor();
        await page.waitForLoadState('networkidle');
        return { ...(await styles()), picture: await page.screenshot({ animations: 'disabled', caret: 'hide' }) };
      };
      // The sign-in and the dashboard kept theirs; the list needs more of its own.
      const first = await visit();
      expect(first.generatedRules).toBeGreaterThan(20);
      const second = await visit();
      expect(second.keptNames).toBeGreaterThan(50);
      expect(second.generatedRules).toBe(0);
      expect(second.picture.equals(first.picture), 'the second visit looks as the first').toBe(true);
    } finally {
      await t.request('DELETE', `/api/v1/clients/${created.body.id}`, { token });
    }
  });

  it('asks for the opened list page once, beside the app code, and shows it before the data layer loads', async () => {
    const url = 'https://primeira-carga.example';
    const created = await fetch(`${t.url}/api/v1/clients/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url }),
    });
    expect(created.status).toBe(200);
    const page = await signedIn();
    // When the client's row first appears in the page, on the page's own clock.
    await page.addInitScript((marker) => {
      const w = window as unknown as { __rowsAt?: number };
      const observer = new MutationObserver(() => {
        if (w.__rowsAt === undefined && document.body?.textContent?.includes(marker)) {
          w.__rowsAt = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    }, url);
    const firstPages: string[] = [];
    page.on('request', (request) => {
      const body = request.postData() ?? '';
      if (new URL(request.url()).pathname !== '/graphql' || !/allClients/.test(body)) return;
      if ((JSON.parse(body) as { variables?: { page?: number } }).variables?.page === 0) firstPages.push(body);
    });
    await page.goto(`${t.url}/clientes`);
    await page.waitForFunction(() => (window as unknown as { __rowsAt?: number }).__rowsAt !== undefined);
    const timing = await page.evaluate(() => ({
      rowsAt: (window as unknown as { __rowsAt: number }).__rowsAt,
      dataLayerAt: performance
        .getEntriesByType('resource')
        .filter((entry) => /\/graphqlProvider-[\w-]+\.js$/.test(entry.name))
        .map((entry) => entry.startTime),
    }));
    // graphql and ra-data-graphql are asked for only once the rows are on screen.
    expect(timing.dataLayerAt.filter((start) => start < timing.rowsAt)).toEqual([]);
    // One request for the page: the start's, which the list screen takes instead of asking again.
    await page.waitForTimeout(500);
    expect(firstPages).toHaveLength(1);

    const { id } = (await created.json()) as { id: string };
    const removed = await fetch(`${t.url}/api/v1/clients/${id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(removed.status).toBe(200);
  });

  it('draws the rows with the app itself, renders nothing more before they show, and adds the tooltips after', async () => {
    const url = 'https://um-desenho.example';
    const created = await t.request('POST', '/api/v1/clients/', { token, json: { url } });
    try {
      const page = await signedIn();
      // The app's code (every script but the start script's own) waits until the page's rows have come back, as when
      // the code takes longer to arrive than the answer: the app's first render has them.
      const startScript = await startScriptFiles();
      let answered!: () => void;
      const listAnswered = new Promise<void>((resolve) => (answered = resolve));
      page.on('requestfinished', (request) => {
        if (new URL(request.url()).pathname === '/graphql' && /allClients/.test(request.postData() ?? '')) answered();
      });
      await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
        if (!startScript.has(new URL(route.request().url()).pathname)) await listAnswered;
        await route.continue();
      });
      await watchFirstDraw(page, url);
      await page.goto(`${t.url}/clientes`);
      // A tooltip, or a form, setting state as it mounts makes React render the whole app again before the browser
      // can show anything.
      expect(await firstDraw(page)).toEqual({
        rowsCommit: 1,
        commitsSinceRows: 0,
        placeholders: false,
        menuNamed: true,
      });
      // The tooltips are there once the page has been drawn.
      await page.getByRole('button', { name: 'Fechar menu' }).hover();
      await expect.poll(() => page.getByRole('tooltip').textContent(), { timeout: 5000 }).toBe('Fechar menu');
      // MUI's Tooltip (with popper.js) is no part of the first screen's code: its chunk is asked for once the rows
      // have been drawn.
      const tooltipCodeAsked = await page.evaluate(() => {
        const rowsAt = (window as unknown as { __rowsAt: number }).__rowsAt;
        return performance
          .getEntriesByType('resource')
          .filter((entry) => /^\/assets\/Tooltip-[\w-]+\.js$/.test(new URL(entry.name).pathname))
          .map((entry) => entry.startTime > rowsAt);
      });
      expect(tooltipCodeAsked).toEqual([true]);
      // So are the controls drawn after the rows (the menu's entries, the row menus, the pagination), in places kept
      // for them: the rows have not moved.
      await page.getByRole('menuitem', { name: 'Clientes', exact: true }).waitFor();
      await page.getByRole('button', { name: `Ações: ${url}` }).waitFor();
      await page.getByRole('navigation', { name: 'pagination' }).getByRole('button', { name: 'Próximo' }).waitFor();
      const row = page.getByRole('row').filter({ hasText: url });
      const box = (await row.boundingBox())!;
      const drawn = await page.evaluate(() => (window as unknown as { __rowBox: number[] }).__rowBox);
      expect([box.x, box.y, box.width, box.height]).toEqual(drawn);
    } finally {
      await t.request('DELETE', `/api/v1/clients/${(created.body as { id: string }).id}`, { token });
    }
  });

  it('waits a moment for a first page on its way, and shows placeholder rows while a slow one comes', async () => {
    const url = 'https://a-caminho.example';
    const created = await t.request('POST', '/api/v1/clients/', { token, json: { url } });
    try {
      for (const [delayMs, expected] of [
        // Due just after the app is ready: the first render waits for it.
        [100, { rowsCommit: 1, commitsSinceRows: 0, placeholders: false, menuNamed: true }],
        // Well after: placeholder rows first, then the rows (whose table's tooltips, mounted once the page has been
        // drawn, render once more as they do).
        [
          2500,
          { rowsCommit: expect.any(Number), commitsSinceRows: expect.any(Number), placeholders: true, menuNamed: true },
        ],
      ] as const) {
        const page = await signedIn();
        await page.route('**/graphql', async (route) => {
          if (/allClients/.test(route.request().postData() ?? '')) await new Promise((r) => setTimeout(r, delayMs));
          await route.continue();
        });
        await watchFirstDraw(page, url);
        await page.goto(`${t.url}/clientes`);
        expect(await firstDraw(page), `answer after ${delayMs} ms`).toEqual(expected);
        await page.close();
      }
    } finally {
      await t.request('DELETE', `/api/v1/clients/${(created.body as { id: string }).id}`, { token });
    }
  });
});

/**
 * Watches a page's first draw: React's commits (through the hook its developer tools use) and, when the text `marker`
 * first appears, which commit put it there, how many came after it before it could be seen, whether placeholder rows
 * were shown before it, and whether the menu button was named already.
 */
async function watchFirstDraw(page: Page, marker: string) {
  await page.addInitScript((text) => {
    const w = window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: object; __seen?: object };
    const shown = () => !!document.body?.textContent?.includes(text);
    let placeholders = false;
    let rowsCommit = -1;
    let commits = 0;
    w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      supportsFiber: true,
      renderers: new Map(),
      inject: () => 1,
      onScheduleFiberRoot: () => undefined,
      onCommitFiberUnmount: () => undefined,
      onPostCommitFiberRoot: () => undefined,
      checkDCE: () => undefined,
      onCommitFiberRoot: () => {
        commits += 1;
        placeholders ||= rowsCommit < 0 && !!document.querySelector('[data-testid="placeholder-row"]');
        if (rowsCommit < 0 && shown()) rowsCommit = commits;
      },
    };
    const observer = new MutationObserver(() => {
      if (w.__seen || rowsCommit < 0) return;
      w.__seen = {
        rowsCommit,
        commitsSinceRows: commits - rowsCommit,
        placeholders,
        // Open on a desktop, so the button closes it.
        menuNamed: !!document.querySelector('button[aria-label="Fechar menu"]'),
      };
      // Where the marker's row was drawn, to compare with where it is once everything else has come.
      const row = Array.from(document.querySelectorAll('tbody tr')).find((r) => r.textContent?.includes(text));
      const box = row?.getBoundingClientRect();
      (w as { __rowBox?: number[] }).__rowBox = box ? [box.x, box.y, box.width, box.height] : [];
      (w as { __rowsAt?: number }).__rowsAt = performance.now();
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  }, marker);
}

/** What `watchFirstDraw` saw, once the marker has appeared. */
async function firstDraw(page: Page) {
  await page.waitForFunction(() => (window as unknown as { __seen?: object }).__seen !== undefined);
  return page.evaluate(() => (window as unknown as { __seen: object }).__seen);
}

/** The built start script (index.html's module script) and every file it imports statically, as paths. */
async function startScriptFiles(): Promise<Set<string>> {
  const html = await (await fetch(`${t.url}/clientes`)).text();
  const files = new Set<string>();
  const visit = async (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const code = await (await fetch(t.url + file)).text();
    for (const [, name] of code.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) await visit(`/assets/${name}`);
  };
  await visit(/<script type="module"[^>]* src="([^"]+)"/.exec(html)![1]);
  return files;
}

describe('clients', () => {
  it('adds, searches, sorts, exports, pages through, edits and deletes clients, in Portuguese', async () => {
    for (let i = 1; i <= 5; i++) {
      await t.request('POST', '/api/v1/clients/', {
        token,
        json: { url: `https://loja${i}.example.com`, hiper_token: i === 1 ? 'hiper-secret-0001' : null },
      });
    }
    const page = await signedIn();
    await page.getByRole('menuitem', { name: 'Clientes', exact: true }).click();
    await page.waitForURL('**/clientes');
    await page.getByRole('heading', { name: 'Gerenciar clientes' }).waitFor();
    for (const column of ['URL', 'ID da loja Nuvemshop', 'Token Hiper', 'Token Nuvemshop', 'Ações']) {
      await page.getByRole('columnheader', { name: column }).waitFor();
    }
    const first = page.getByRole('row', { name: /loja1\.example/ });
    await first.getByText('Definido', { exact: true }).waitFor();
    await page.getByText('1–5 de 5', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Adicionar Cliente' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar Cliente' });
    await dialog.getByLabel(/^URL/).focus();
    await dialog.getByLabel('Token Hiper').focus();
    await dialog.getByText('URL é obrigatória.', { exact: true }).waitFor();
    await dialog.getByLabel(/^URL/).fill('https://minhaloja.example.com');
    await dialog.getByLabel('Token Hiper').fill('hiper-123');
    await dialog.getByLabel('ID da loja Nuvemshop').fill('4321');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Sucesso', 'Cliente criado com sucesso.');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /minhaloja/ }).waitFor();
    const [stored] = await t.sql<{ nuvemshop_store_id: string; hiper_sync_update_image: boolean }>(
      "select * from clients where url = 'https://minhaloja.example.com'",
    );
    expect(Number(stored.nuvemshop_store_id)).toBe(4321);
    expect(stored.hiper_sync_update_image).toBe(true);

    await search(page, 'Pesquisar', 'LOJA3', '1–1 de 1');
    await search(page, 'Pesquisar', '', '1–5 de 6');
    await sortBy(page, 'Ordenar por url');
    await expect
      .poll(() => cellTexts(page, 'Clientes', 1))
      .toEqual([...[1, 2, 3, 4, 5].map((i) => `https://loja${i}.example.com`)]);
    await sortBy(page, 'Ordenar por url');
    await expect.poll(async () => (await cellTexts(page, 'Clientes', 1))[0]).toBe('https://minhaloja.example.com');

    await search(page, 'Pesquisar', 'loja1', '1–1 de 1');
    expect((await exported(page, 'Exportar')).split('\r\n')).toEqual([
      'URL,ID da loja Nuvemshop,Token Hiper,Token Nuvemshop,Sincronização,Última sincronização,Nome da loja',
      'https://loja1.example.com,0,Definido,Não definido,Não conectado,—,—',
    ]);
    await page.goto('/clientes');

    await checkPagination(page, '/clientes', 'Clientes', ['Anterior', 'Página', 'Próximo']);

    await page.getByRole('button', { name: 'Ações: https://minhaloja.example.com' }).click();
    await page.getByRole('menuitem', { name: 'Editar cliente' }).click();
    const edit = page.getByRole('dialog', { name: 'Editar cliente' });
    expect(await edit.getByLabel(/^ID da loja Nuvemshop/).inputValue()).toBe('4321');
    expect(await edit.getByRole('button', { name: 'Salvar' }).isDisabled()).toBe(true);
    await edit.getByLabel(/^URL/).fill('https://outraloja.example.com');
    await edit.getByRole('button', { name: 'Salvar' }).click();
    await expectToast(page, 'Sucesso', 'Cliente atualizado com sucesso.');
    await page.getByRole('row', { name: /outraloja/ }).waitFor();

    // A click on the row opens the same dialog.
    await page
      .getByRole('row', { name: /loja2\.example/ })
      .getByText('https://loja2.example.com')
      .click();
    await page.getByRole('dialog', { name: 'Editar cliente' }).getByRole('button', { name: 'Cancelar' }).click();

    await page.getByRole('button', { name: 'Ações: https://outraloja.example.com' }).click();
    await page.getByRole('menuitem', { name: 'Deletar cliente' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deletar cliente' });
    await confirm.getByText('Tem certeza? Você não poderá desfazer esta ação.').waitFor();
    await confirm.getByText('https://outraloja.example.com', { exact: true }).waitFor();
    await confirm.getByRole('button', { name: 'Deletar' }).click();
    await expectToast(page, 'Sucesso', 'O cliente foi apagado com sucesso.');
    await page.getByRole('row', { name: /outraloja/ }).waitFor({ state: 'detached' });

    await bulkDelete(page, ['https://loja4.example.com', 'https://loja5.example.com'], 'Deletar', 'Deletar cliente');
    await expectToast(page, 'Sucesso', 'Os 2 clientes foram apagados com sucesso.');
    await page.getByText('1–3 de 3', { exact: true }).waitFor();
  });
});

describe('users', () => {
  it('adds, searches, exports, pages through, edits and deletes users; the own row is marked and locked', async () => {
    for (let i = 1; i <= 4; i++) await t.createUser(`seed${i}@example.com`, 'seed-password');
    const page = await signedIn();
    await page.getByRole('menuitem', { name: 'Admin' }).click();
    await page.waitForURL('**/admin');
    await page.getByRole('heading', { name: 'Users Management' }).waitFor();
    for (const column of ['Full name', 'Email', 'Role', 'Status', 'Actions']) {
      await page.getByRole('columnheader', { name: column }).waitFor();
    }
    const own = page.getByRole('row', { name: /admin@example\.com/ });
    await own.getByText('You', { exact: true }).waitFor();
    await own.getByText('Superuser').waitFor();
    await own.getByText('Active').waitFor();
    await own.getByText('N/A').waitFor();
    expect(await own.getByRole('button', { name: /Actions/ }).isDisabled()).toBe(true);
    expect(await own.getByRole('checkbox').isDisabled()).toBe(true);
    await own.getByText('admin@example.com').click();
    expect(await page.getByRole('dialog').count()).toBe(0);

    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel(/^Email/).fill('not-an-email');
    await dialog.getByLabel(/^Password/).fill('short');
    await dialog.getByLabel(/^Confirm Password/).focus();
    await dialog.getByLabel('Full name').focus();
    await dialog.getByText('Invalid email address', { exact: true }).waitFor();
    await dialog.getByText('Password must be at least 8 characters', { exact: true }).waitFor();
    await dialog.getByText('Please confirm your password', { exact: true }).waitFor();
    await dialog.getByLabel(/^Email/).fill('novo@example.com');
    await dialog.getByLabel('Full name').fill('Novo Usuário');
    await dialog.getByLabel(/^Password/).fill('novo-password');
    await dialog.getByLabel(/^Confirm Password/).fill('novo-password');
    await dialog.getByLabel('Is active?').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Success!', 'User created successfully.');
    await dialog.waitFor({ state: 'detached' });
    const created = page.getByRole('row', { name: /novo@example\.com/ });
    await created.getByText('User', { exact: true }).waitFor();
    await created.getByText('Active').waitFor();

    await search(page, 'Search', 'novo usu', '1–1 of 1');
    expect((await exported(page, 'Export')).split('\r\n')).toEqual([
      'Full name,Email,Role,Status',
      'Novo Usuário,novo@example.com,User,Active',
    ]);
    await page.goto('/admin');

    await checkPagination(page, '/admin', 'Users', ['Anterior', 'Página', 'Próximo']);

    await page
      .getByRole('row', { name: /novo@example\.com/ })
      .getByText('novo@example.com')
      .click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    expect(await edit.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await edit.getByLabel('Is superuser?').check();
    await edit.getByLabel('Is active?').uncheck();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Success!', 'User updated successfully.');
    const edited = page.getByRole('row', { name: /novo@example\.com/ });
    await edited.getByText('Superuser').waitFor();
    await edited.getByText('Inactive').waitFor();

    await page.getByRole('button', { name: 'Actions: novo@example.com' }).click();
    await page.getByRole('menuitem', { name: 'Delete User' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete User' });
    await confirm.getByText('Tem certeza? Você não poderá desfazer esta ação.').waitFor();
    await confirm.getByText('novo@example.com', { exact: true }).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Sucesso', 'O usuário foi apagado com sucesso.');
    await page.getByRole('row', { name: /novo@example\.com/ }).waitFor({ state: 'detached' });

    await bulkDelete(page, ['seed1@example.com', 'seed2@example.com'], 'Delete', 'Delete User');
    await expectToast(page, 'Sucesso', 'Os 2 usuários foram apagados com sucesso.');
    await page.getByRole('row', { name: /seed1@example\.com/ }).waitFor({ state: 'detached' });
  });
});

/** The element lies wholly inside the viewport. */
async function inView(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  return (
    !!box && box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height
  );
}

describe('on a phone', () => {
  it('no list screen or add dialog is wider than 390px; Save and Cancel stay in view', async () => {
    for (let i = 1; i <= 3; i++) {
      await t.request('POST', '/api/v1/clients/', {
        token,
        json: {
          url: `https://uma-loja-com-um-endereco-bem-comprido-${i}.lojavirtual.example.com.br`,
          hiper_token: 'x'.repeat(40),
        },
      });
      await t.request('POST', '/api/v1/items/', { token, json: { title: `Um item com um título bem comprido ${i}` } });
    }
    const page = await signedIn({ width: 390, height: 844 });
    const screens = [
      ['/items', 'Adicionar Item', 'Items', ['Save', 'Cancel']],
      ['/clientes', 'Adicionar Cliente', 'Clientes', ['Salvar', 'Cancelar']],
      ['/admin', 'Add User', 'Users', ['Save', 'Cancel']],
    ] as const;
    for (const [path, add, table, [saveLabel, cancelLabel]] of screens) {
      await page.goto(path);
      // A phone shows a list of the rows, not a table (tests/e2e/screens.test.ts).
      await page.getByRole('list', { name: table }).getByRole('listitem').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
      await page.getByRole('button', { name: add }).click();
      const dialog = page.getByRole('dialog', { name: add });
      await dialog.waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} ${add}`).toBeLessThanOrEqual(
        390,
      );
      expect(await inView(page, dialog.getByRole('button', { name: saveLabel })), `${path} ${saveLabel}`).toBe(true);
      expect(await inView(page, dialog.getByRole('button', { name: cancelLabel })), `${path} ${cancelLabel}`).toBe(
        true,
      );
      await dialog.getByRole('button', { name: cancelLabel }).click();
      await dialog.waitFor({ state: 'detached' });
    }
  });
});
