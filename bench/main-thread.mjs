#!/usr/bin/env node
/**
 * The main thread after a list's rows appear, and the JavaScript the login page never runs, measured in headless
 * Chromium (bench/README.md, "Other benchmarks").
 *
 *   node bench/main-thread.mjs [--runs 5] [--path /clientes] [--cpu-slowdown 1] [--url http://127.0.0.1:8000]
 *
 * Without --url it starts the built gateway (`npm run build` first) on database `bench_main_thread` of the server of
 * DATABASE_URL, seeded with a few clients. For each run, in a fresh browser context (empty cache), signed in through
 * localStorage: the Long Tasks API's tasks from the moment a client's url appears in the page to 5 s later (the
 * longest, how many, and their blocking time: the sum of what each lasts past 50 ms). Then /login, signed out: the
 * bytes of each script it fetched that never ran (Chromium's precise coverage), as built and scaled to gzip, as the
 * page opens and once a key has been pressed in it (which loads the app).
 * No assertion: figures to compare before and after a change, on the same machine.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CHROMIUM_ARGS, median, optionsOf } from './lib/admin.mjs';
import { MARKER, seedClients, signIn, startOwnGateway } from './lib/signed-in.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = optionsOf(process.argv.slice(2));
const RUNS = Number(args.runs ?? 5);
const PATH = args.path ?? '/clientes';
const CPU_SLOWDOWN = Number(args['cpu-slowdown'] ?? 1);
const AFTER_ROWS_MS = 5000;
const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';

async function throttle(context, page) {
  if (CPU_SLOWDOWN <= 1) return;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
}

async function afterRows(browser, url, token) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.addInitScript(
    ([accessToken, marker]) => {
      localStorage.setItem('access_token', accessToken);
      window.__rowsAt = null;
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__longTasks.push([entry.startTime, entry.duration]);
      }).observe({ type: 'longtask', buffered: true });
      const observer = new MutationObserver(() => {
        if (window.__rowsAt === null && document.body?.textContent?.includes(marker)) {
          window.__rowsAt = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    },
    [token, MARKER],
  );
  const page = await context.newPage();
  await throttle(context, page);
  await page.goto(url + PATH, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => window.__rowsAt !== null, null, { timeout: 30_000, polling: 50 });
  await page.waitForTimeout(AFTER_ROWS_MS + 200);
  const { rowsAt, tasks } = await page.evaluate(() => ({ rowsAt: window.__rowsAt, tasks: window.__longTasks }));
  await context.close();
  const after = tasks.filter(([start, duration]) => start + duration > rowsAt && start < rowsAt + AFTER_ROWS_MS);
  const before = tasks.filter(([start]) => start < rowsAt);
  return {
    rowsMs: Math.round(rowsAt),
    longestAfterRowsMs: Math.round(Math.max(0, ...after.map(([, d]) => d))),
    tasksAfterRows: after.length,
    blockingAfterRowsMs: Math.round(after.reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0)),
    longestBeforeRowsMs: Math.round(Math.max(0, ...before.map(([, d]) => d))),
  };
}

/**
 * /login's scripts, signed out: as it opens, or (`typing`) once a key has been pressed in its first field, which loads
 * the app where the page came rendered by the build (admin/vite.config.mts, `prerenderPublicPages`).
 */
async function unusedOnLogin(browser, url, typing = false) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await throttle(context, page);
  await page.coverage.startJSCoverage({ resetOnNavigation: false });
  await page.goto(`${url}/login`, { waitUntil: 'load' });
  await page.getByRole('button', { name: 'Logar' }).waitFor();
  if (typing) {
    await page.getByLabel('Email').press('a');
    await page.locator('#prerendered').waitFor({ state: 'detached' });
  }
  await page.waitForTimeout(2000);
  const coverage = await page.coverage.stopJSCoverage();
  await context.close();
  const scripts = coverage
    .filter((entry) => entry.url.startsWith(url) && entry.source)
    .map((entry) => {
      // Precise coverage: a byte ran when the innermost range holding it has a count above 0.
      const used = new Uint8Array(entry.source.length);
      for (const fn of entry.functions) {
        for (const range of fn.ranges) used.fill(range.count > 0 ? 1 : 0, range.startOffset, range.endOffset);
      }
      const unused = used.length - used.reduce((sum, b) => sum + b, 0);
      // As Lighthouse counts it: the unused share of what came over the wire (here gzip level 6 stands for it).
      const gzip = gzipSync(entry.source).length;
      return {
        file: new URL(entry.url).pathname,
        bytes: used.length,
        unused,
        unusedGzip: Math.round((unused / used.length) * gzip),
      };
    });
  return {
    scripts,
    totalBytes: scripts.reduce((s, x) => s + x.bytes, 0),
    unusedBytes: scripts.reduce((s, x) => s + x.unused, 0),
    unusedGzipBytes: scripts.reduce((s, x) => s + x.unusedGzip, 0),
  };
}

async function main() {
  const server = args.url ? null : await startOwnGateway(root, 'bench_main_thread');
  const url = args.url ?? server.url;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  try {
    const token = await signIn(url, args.email, args.password);
    await seedClients(url, token);
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await afterRows(browser, url, token));
    const login = await unusedOnLogin(browser, url);
    const typing = await unusedOnLogin(browser, url, true);
    const summary = {
      path: PATH,
      cpuSlowdown: CPU_SLOWDOWN,
      runs: runs.length,
      medianRowsMs: median(runs.map((r) => r.rowsMs)),
      medianLongestTaskAfterRowsMs: median(runs.map((r) => r.longestAfterRowsMs)),
      worstLongestTaskAfterRowsMs: Math.max(...runs.map((r) => r.longestAfterRowsMs)),
      medianBlockingAfterRowsMs: median(runs.map((r) => r.blockingAfterRowsMs)),
      medianLongestTaskBeforeRowsMs: median(runs.map((r) => r.longestBeforeRowsMs)),
      loginScriptBytes: login.totalBytes,
      loginUnusedScriptBytes: login.unusedBytes,
      loginUnusedScriptGzipBytes: login.unusedGzipBytes,
      loginTypingScriptBytes: typing.totalBytes,
      loginTypingUnusedScriptBytes: typing.unusedBytes,
      loginTypingUnusedScriptGzipBytes: typing.unusedGzipBytes,
    };
    console.log(
      JSON.stringify({ summary, runs, loginScripts: login.scripts, loginTypingScripts: typing.scripts }, null, 2),
    );
  } finally {
    await browser.close();
    await server?.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
