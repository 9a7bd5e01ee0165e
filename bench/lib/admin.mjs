import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Loads the admin's clients screen in headless Chromium, signed in through localStorage, `runs` times, each in
 * a fresh browser context (empty cache). For each run: the JavaScript fetched before DOMContentLoaded
 * (the initial JavaScript; what is imported lazily later is not in it) and until the first rows, both as
 * gzip sizes (zlib level 6 of each file as served), and the time from navigation start to the first client
 * row in the page (a seeded client's url appearing in the document, seen by a MutationObserver).
 * Answers `{ measured: false, reason }` when the admin is not built or Chromium is absent.
 */
export async function measureAdmin({ baseUrl, adminIndex, token, path, runs, executablePath, rowMarker }) {
  if (!existsSync(adminIndex)) return { measured: false, reason: 'the admin is not built (dist/admin/index.html)' };
  if (!existsSync(executablePath)) return { measured: false, reason: `no Chromium at ${executablePath}` };
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  const samples = [];
  try {
    for (let run = 0; run < runs; run++) samples.push(await oneRun(browser, { baseUrl, token, path, rowMarker }));
  } finally {
    await browser.close();
  }
  const done = samples.filter((s) => s.rowsMs !== null);
  if (!done.length) {
    return { measured: false, reason: `no client rows appeared on ${path} within 15 s`, samples };
  }
  return {
    measured: true,
    runs: samples.length,
    initialJsGzipBytes: median(done.map((s) => s.initialJsGzip)),
    jsUntilRowsGzipBytes: median(done.map((s) => s.jsUntilRowsGzip)),
    timeToRowsMs: median(done.map((s) => s.rowsMs)),
    domContentLoadedMs: median(done.map((s) => s.timeline?.domContentLoadedMs ?? 0)),
    scriptsLoadedMs: median(done.map((s) => s.timeline?.scriptsLoadedMs ?? 0)),
    firstApiCallStartMs: median(done.map((s) => s.timeline?.apiCalls[0]?.startMs ?? 0)),
    lastApiCallEndMs: median(done.map((s) => s.timeline?.apiCalls.at(-1)?.endMs ?? 0)),
    initialScripts: done[0].initialScripts,
    samples,
  };
}

async function oneRun(browser, { baseUrl, token, path, rowMarker }) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.addInitScript(
    ([accessToken, marker]) => {
      if (location.origin !== 'null') localStorage.setItem('access_token', accessToken);
      window.__benchRowsAt = null;
      const check = () => {
        if (window.__benchRowsAt === null && document.body?.textContent?.includes(marker)) {
          window.__benchRowsAt = performance.now();
          observer.disconnect();
        }
      };
      const observer = new MutationObserver(check);
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    },
    [token, rowMarker],
  );
  const page = await context.newPage();
  const scripts = [];
  let domReady = false;
  let rowsSeen = false;
  page.on('domcontentloaded', () => (domReady = true));
  page.on('response', async (response) => {
    const request = response.request();
    if (request.resourceType() !== 'script') return;
    const initial = !domReady;
    const beforeRows = !rowsSeen;
    try {
      const body = await response.body();
      scripts.push({ url: new URL(response.url()).pathname, initial, beforeRows, gzip: gzipSync(body).length });
    } catch {
      // a redirect or an aborted response has no body
    }
  });
  let rowsMs;
  let timeline = null;
  try {
    await page.goto(baseUrl + path, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => window.__benchRowsAt !== null, null, { timeout: 15_000, polling: 50 });
    rowsSeen = true;
    rowsMs = await page.evaluate(() => window.__benchRowsAt);
    // Where the time to rows goes: the document, the scripts, the API calls made before the rows appeared.
    timeline = await page.evaluate((rowsAt) => {
      const nav = performance.getEntriesByType('navigation')[0];
      const before = performance.getEntriesByType('resource').filter((e) => e.responseEnd <= rowsAt);
      const end = (entries) => Math.round(Math.max(0, ...entries.map((e) => e.responseEnd)));
      const api = before.filter((e) => /^\/(graphql$|api\/)/.test(new URL(e.name).pathname));
      return {
        documentMs: Math.round(nav.responseEnd),
        domContentLoadedMs: Math.round(nav.domContentLoadedEventEnd),
        scriptsLoadedMs: end(before.filter((e) => new URL(e.name).pathname.endsWith('.js'))),
        apiCalls: api.map((e) => ({
          url: new URL(e.name).pathname,
          startMs: Math.round(e.startTime),
          endMs: Math.round(e.responseEnd),
        })),
      };
    }, rowsMs);
  } catch {
    rowsMs = null;
  }
  await page.waitForTimeout(200);
  await context.close();
  const initialScripts = scripts.filter((s) => s.initial);
  return {
    rowsMs,
    timeline,
    initialJsGzip: initialScripts.reduce((sum, s) => sum + s.gzip, 0),
    jsUntilRowsGzip: scripts.filter((s) => s.beforeRows).reduce((sum, s) => sum + s.gzip, 0),
    initialScripts: initialScripts.map(({ url, gzip }) => ({ url, gzip })),
  };
}
