#!/usr/bin/env node
/**
 * Lighthouse 12's scores for /login and a signed-in /clientes, desktop and mobile (bench/README.md, "Other benchmarks").
 *
 *   npm run bench:lighthouse [-- --runs 3] [-- --url http://127.0.0.1:8000] [-- --baseline ../baseline]
 *
 * Without --url it starts the built gateway (`npm run build` first) on database `bench_lighthouse` beside
 * DATABASE_URL's, seeded with a few clients. With --baseline, the directory of another checkout, built (a git
 * worktree of an earlier commit, say), that build's gateway runs beside it on `bench_lighthouse_baseline`, and every
 * run of this build is followed by one of the baseline's, in the same browser: both are measured under the same
 * conditions, as alike as this shared machine allows. Chromium (/usr/bin/chromium, or BENCH_CHROMIUM) runs headless with a
 * debugging port that Lighthouse drives. A signed-in run keeps the token the benchmark put in localStorage
 * (`disableStorageReset`); /login runs last, on cleared storage. Each figure is the median of --runs runs. Results go
 * to bench/results/lighthouse.json and lighthouse.md. No assertion: compare runs on the same machine.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM_ARGS, median, optionsOf } from './lib/admin.mjs';
import { seedClients, signIn, startOwnGateway } from './lib/signed-in.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = optionsOf(process.argv.slice(2));
const RUNS = Number(args.runs ?? 3);
const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
const CATEGORIES = ['performance', 'accessibility', 'best-practices'];

/** A free port on loopback for Chromium's debugging endpoint. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Lighthouse's own failures to record a page load, after which it asks to be run again. */
const RECORDING_FAILURES = new Set(['NO_NAVSTART', 'NO_FCP', 'NO_TRACING_STARTED']);

/** One Lighthouse run: its scores (0–100) and the figures the issue names. */
async function audit(port, url, formFactor, signedIn, attempt = 1) {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, disableStorageReset: signedIn },
    formFactor === 'desktop' ? desktopConfig : undefined,
  );
  const { categories, audits, runtimeError, runWarnings } = result.lhr;
  if (runtimeError && RECORDING_FAILURES.has(runtimeError.code) && attempt < 3) {
    console.error(`${url} (${formFactor}): ${runtimeError.code}, run again`);
    return audit(port, url, formFactor, signedIn, attempt + 1);
  }
  if (runtimeError) throw new Error(`${url} (${formFactor}): ${runtimeError.code} ${runtimeError.message}`);
  if (runWarnings?.length) console.error(`${url} (${formFactor}): ${runWarnings.join('; ')}`);
  const score = (id) => Math.round((categories[id]?.score ?? 0) * 100);
  const value = (id) => Math.round(audits[id]?.numericValue ?? 0);
  return {
    // Where the page ended: a signed-in list that fell back to /login would be measuring the wrong page.
    finalPath: new URL(result.lhr.finalDisplayedUrl).pathname,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    firstContentfulPaintMs: value('first-contentful-paint'),
    largestContentfulPaintMs: value('largest-contentful-paint'),
    totalBlockingTimeMs: value('total-blocking-time'),
    bootupMs: value('bootup-time'),
    unusedJavaScriptBytes: Math.round(audits['unused-javascript']?.details?.overallSavingsBytes ?? 0),
    accessibilityFailures: Object.values(audits)
      .filter((a) => a.score === 0 && categories.accessibility?.auditRefs.some((r) => r.id === a.id))
      .map((a) => a.id),
  };
}

async function main() {
  const server = args.url ? null : await startOwnGateway(root, 'bench_lighthouse');
  const url = args.url ?? server.url;
  const baseline = args.baseline
    ? await startOwnGateway(path.resolve(args.baseline), 'bench_lighthouse_baseline')
    : null;
  /** The builds measured: this one, and the baseline's if asked for. */
  const builds = [{ label: '', url }, ...(baseline ? [{ label: 'baseline', url: baseline.url }] : [])];
  const port = await freePort();
  const { chromium } = await import('playwright-core');
  // A persistent context is the browser's own profile, the one Lighthouse's tabs open in.
  const profile = mkdtempSync(path.join(tmpdir(), 'bench-lighthouse-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
    headless: true,
  });
  try {
    const tokens = new Map();
    for (const build of builds) {
      const token = await signIn(build.url);
      await seedClients(build.url, token);
      tokens.set(build, token);
    }
    // The token where the admin keeps it (signed-in runs keep their storage), or none: set from a page of the same
    // origin that runs none of the admin's code.
    const storeToken = async (origin, value) => {
      const page = await browser.newPage();
      await page.goto(`${origin}/api/v1/utils/health-check/`);
      await page.evaluate((t) => (t ? localStorage.setItem('access_token', t) : localStorage.clear()), value);
      await page.close();
    };

    const pages = [
      ['/clientes', true],
      ['/login', false],
    ];
    const results = [];
    for (const [pathname, signedIn] of pages) {
      for (const build of builds) await storeToken(build.url, signedIn ? tokens.get(build) : null);
      for (const formFactor of ['desktop', 'mobile']) {
        const runs = new Map(builds.map((build) => [build, []]));
        for (let i = 0; i < RUNS; i++) {
          for (const build of builds)
            runs.get(build).push(await audit(port, build.url + pathname, formFactor, signedIn));
        }
        for (const build of builds) {
          const measured = runs.get(build);
          const figure = { path: pathname, build: build.label, signedIn, formFactor, runs: measured.length };
          for (const key of Object.keys(measured[0])) {
            figure[key] = typeof measured[0][key] === 'number' ? median(measured.map((r) => r[key])) : measured[0][key];
          }
          const elsewhere = measured.find((r) => r.finalPath !== pathname);
          if (elsewhere) throw new Error(`${pathname} ended on ${elsewhere.finalPath}`);
          results.push(figure);
          console.error(`${pathname} ${build.label} ${formFactor}: ${JSON.stringify(figure)}`);
        }
      }
    }
    const at = new Date().toISOString();
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    writeFileSync(path.join(root, 'bench/results/lighthouse.json'), JSON.stringify({ at, results }, null, 2));
    const table = [
      `# Lighthouse 12 (${at}, median of ${RUNS})`,
      '',
      '| page | profile | performance | accessibility | best practices | FCP (ms) | LCP (ms) | TBT (ms) | script boot-up (ms) | unused JS (bytes) |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...results.map(
        (r) =>
          `| ${r.path}${r.signedIn ? ' (signed in)' : ''}${r.build ? ` (${r.build})` : ''} | ${r.formFactor} | ${r.performance} | ${r.accessibility} | ` +
          `${r.bestPractices} | ${r.firstContentfulPaintMs} | ${r.largestContentfulPaintMs} | ${r.totalBlockingTimeMs} | ` +
          `${r.bootupMs} | ${r.unusedJavaScriptBytes} |`,
      ),
      '',
    ].join('\n');
    writeFileSync(path.join(root, 'bench/results/lighthouse.md'), table);
    console.log(table);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
    await server?.stop();
    await baseline?.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
