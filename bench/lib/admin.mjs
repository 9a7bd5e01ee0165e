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

/** The middle of `values` (the mean of the two middle ones when they are even in number). */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** A browser benchmark's options, `--name value` each, by name. */
export const optionsOf = (argv) =>
  Object.fromEntries(argv.flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])));

/** The network profiles the first rows are timed on: loopback as it is, and a shop's ordinary connection. */
export const NETWORK_PROFILES = {
  loopback: null,
  // Chromium's network emulation: 10 Mbit/s each way and 40 ms added to every round trip.
  slow: { offline: false, latency: 40, downloadThroughput: (10e6 / 8) | 0, uploadThroughput: (10e6 / 8) | 0 },
};

/**
 * Loads the admin's clients screen in headless Chromium, signed in through localStorage, `runs` times on each
 * network profile (alternated), each in a fresh browser context (empty cache). For each run: the bytes received
 * until the first rows (bodies as sent, compressed, plus headers), the JavaScript among them, the JavaScript fetched
 * before DOMContentLoaded as gzip sizes (zlib level 6, the earlier yardstick), and the time from navigation start to
 * the first client row in the page (a seeded client's url appearing in the document, seen by a MutationObserver).
 * Answers `{ measured: false, reason }` when the admin is not built or Chromium is absent.
 */
export async function measureAdmin({ baseUrl, adminIndex, token, path, runs, executablePath, rowMarker }) {
  if (!existsSync(adminIndex)) return { measured: false, reason: 'the admin is not built (dist/admin/index.html)' };
  if (!existsSync(executablePath)) return { measured: false, reason: `no Chromium at ${executablePath}` };
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  const samples = { loopback: [], slow: [] };
  try {
    for (let run = 0; run < runs; run++) {
      for (const profile of Object.keys(NETWORK_PROFILES)) {
        samples[profile].push(await oneRun(browser, { baseUrl, token, path, rowMarker, profile }));
      }
    }
  } finally {
    await browser.close();
  }
  const done = samples.loopback.filter((s) => s.rowsMs !== null);
  if (!done.length) {
    return { measured: false, reason: `no client rows appeared on ${path} within 15 s`, samples };
  }
  const slow = samples.slow.filter((s) => s.rowsMs !== null);
  return {
    measured: true,
    runs: samples.loopback.length,
    initialJsGzipBytes: median(done.map((s) => s.initialJsGzip)),
    // What the first screen needs: the start script loads the app's code after DOMContentLoaded, so "initial" is
    // counted until the first rows.
    jsUntilRowsGzipBytes: median(done.map((s) => s.jsUntilRowsGzip)),
    bytesUntilRows: median(done.map((s) => s.bytesUntilRows)),
    jsBytesUntilRows: median(done.map((s) => s.jsBytesUntilRows)),
    jsBytesUntilRowsUncompressed: median(done.map((s) => s.jsBytesUntilRowsUncompressed)),
    timeToRowsMs: median(done.map((s) => s.rowsMs)),
    slowTimeToRowsMs: slow.length ? median(slow.map((s) => s.rowsMs)) : null,
    domContentLoadedMs: median(done.map((s) => s.timeline?.domContentLoadedMs ?? 0)),
    scriptsLoadedMs: median(done.map((s) => s.timeline?.scriptsLoadedMs ?? 0)),
    firstApiCallStartMs: median(done.map((s) => s.timeline?.apiCalls[0]?.startMs ?? 0)),
    lastApiCallEndMs: median(done.map((s) => s.timeline?.apiCalls.at(-1)?.endMs ?? 0)),
    apiRoundTripsBeforeRows: Math.max(...done.map((s) => s.tripsBeforeRows ?? 0)),
    initialScripts: done[0].initialScripts,
    samples,
  };
}

async function oneRun(browser, { baseUrl, token, path, rowMarker, profile }) {
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
  if (NETWORK_PROFILES[profile]) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', NETWORK_PROFILES[profile]);
  }
  const responses = [];
  // The API calls by what they ask for (`me`, or the list), with when each started and ended (ms, one clock).
  const calls = [];
  const callKind = (request) => {
    const body = request.postData() ?? '';
    if (/\bme\s*\{/.test(body)) return 'me';
    if (/\ball[A-Z]\w*\s*\(/.test(body) || /"operationName":"all[A-Z]/.test(body)) return 'list';
    return 'other';
  };
  page.on('request', (request) => {
    if (new URL(request.url()).pathname !== '/graphql') return;
    calls.push({ request, kind: callKind(request), start: Date.now(), end: null });
  });
  page.on('requestfinished', (request) => {
    const call = calls.find((c) => c.request === request);
    if (call) call.end = Date.now();
  });
  let domReady = false;
  let rowsSeen = false;
  page.on('domcontentloaded', () => (domReady = true));
  // Which requests ended when, noted as they end; their sizes and bodies are read once the rows are in (below): read
  // during the load, through the DevTools protocol, and gzipped in this process, they took CPU from the page measured.
  const finished = [];
  page.on('requestfinished', (request) => finished.push({ request, initial: !domReady, beforeRows: !rowsSeen }));
  let rowsMs;
  let timeline = null;
  let endedBeforeRows = null;
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
      const api = before
        .filter((e) => /^\/(graphql$|api\/)/.test(new URL(e.name).pathname))
        .sort((a, b) => a.startTime - b.startTime);
      // Round trips one after the other: a call that starts after an earlier one ended waited for it.
      let trips = 0;
      let lastEnd = -1;
      for (const call of api) {
        if (call.startTime >= lastEnd) trips += 1;
        lastEnd = Math.max(lastEnd, call.responseEnd);
      }
      return {
        documentMs: Math.round(nav.responseEnd),
        domContentLoadedMs: Math.round(nav.domContentLoadedEventEnd),
        scriptsLoadedMs: end(before.filter((e) => new URL(e.name).pathname.endsWith('.js'))),
        apiRoundTrips: trips,
        apiCalls: api.map((e) => ({
          url: new URL(e.name).pathname,
          startMs: Math.round(e.startTime),
          endMs: Math.round(e.responseEnd),
        })),
      };
    }, rowsMs);
    // What had arrived when the rows appeared, on the page's own clock: the flag set when waitForFunction returns
    // comes up to a polling interval later, and would count what the page fetched just after its first paint.
    endedBeforeRows = new Set(
      await page.evaluate(
        (rowsAt) =>
          performance
            .getEntriesByType('resource')
            .filter((e) => e.responseEnd <= rowsAt)
            .map((e) => new URL(e.name).pathname),
        rowsMs,
      ),
    );
  } catch {
    rowsMs = null;
  }
  await page.waitForTimeout(200);
  for (const { request, initial, beforeRows } of finished) {
    try {
      const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
      const script = request.resourceType() === 'script';
      const body = script && response ? await response.body() : null;
      responses.push({
        url: new URL(request.url()).pathname,
        script,
        document: request.resourceType() === 'document',
        initial,
        beforeRows,
        // What came over the wire: the body as sent (compressed when it was) and the headers.
        received: sizes.responseBodySize + sizes.responseHeadersSize,
        bodyBytes: sizes.responseBodySize,
        uncompressed: body?.length ?? 0,
        gzip: body ? gzipSync(body).length : 0,
      });
    } catch {
      // a redirect or an aborted response has no body
    }
  }
  await context.close();
  // Round trips the first rows waited for: one when the list was asked for without waiting for `me` (before its
  // answer came back, or with no `me` before it), two when it was asked for only after `me` had answered.
  const list = calls.find((c) => c.kind === 'list');
  const me = calls.find((c) => c.kind === 'me');
  const tripsBeforeRows = !list ? null : me && me.end !== null && me.end <= list.start ? 2 : 1;
  const scripts = responses.filter((r) => r.script);
  const initialScripts = scripts.filter((s) => s.initial);
  const untilRows = responses.filter((r) =>
    endedBeforeRows ? r.document || endedBeforeRows.has(r.url) : r.beforeRows,
  );
  const sum = (list, key) => list.reduce((total, r) => total + r[key], 0);
  return {
    profile,
    rowsMs,
    timeline,
    tripsBeforeRows,
    listBeforeMe: list && me ? list.start <= me.start : null,
    bytesUntilRows: sum(untilRows, 'received'),
    jsBytesUntilRows: sum(
      untilRows.filter((r) => r.script),
      'bodyBytes',
    ),
    jsBytesUntilRowsUncompressed: sum(
      untilRows.filter((r) => r.script),
      'uncompressed',
    ),
    initialJsGzip: sum(initialScripts, 'gzip'),
    jsUntilRowsGzip: sum(
      untilRows.filter((r) => r.script),
      'gzip',
    ),
    initialScripts: initialScripts.map(({ url, gzip, bodyBytes }) => ({ url, gzip, received: bodyBytes })),
  };
}
