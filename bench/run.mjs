/**
 * `npm run bench`: seeds PostgreSQL, runs the built gateway (NODE_ENV=production) and a minimal baseline server
 * under the same load, and writes bench/results/latest.json and latest.md. `npm run bench -- --help` lists
 * the options; bench/README.md explains the method.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { measureAdmin } from './lib/admin.mjs';
import { cleanUp, ensureDatabase, migrate, seed, seededScale } from './lib/database.mjs';
import { runLoad } from './lib/load.mjs';
import { parseOptions } from './lib/options.mjs';
import { writeResults } from './lib/report.mjs';
import { graphqlList, restList, scenarios } from './lib/scenarios.mjs';
import { cpuMillis, cpuSplit, memoryProbe, startServer } from './lib/servers.mjs';
import { startSqlCounter } from './lib/sql-counter.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = path.join(root, 'bench');
const log = (message) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

const options = parseOptions(process.argv.slice(2), process.env);
const bcryptCost = Number(process.env.BCRYPT_COST ?? 12);
const password = 'bench-password-0123';
const superuser = 'admin@bench.example';
// Secrets of the benchmark's own (production refuses the development defaults). The token key is fixed so that
// a reused database's encrypted tokens stay readable; it protects nothing but generated data.
const secrets = {
  SECRET_KEY: randomBytes(32).toString('hex'),
  TOKEN_ENCRYPTION_KEY: createHash('sha256').update('sistema-de-integracao benchmark data').digest('base64'),
};

const CHROMIUM = process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium';
const COUNT_REQUESTS = 5;

function serverEnv(databaseUrl) {
  const env = {
    ...process.env,
    ...secrets,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: databaseUrl,
    FIRST_SUPERUSER: superuser,
    FIRST_SUPERUSER_PASSWORD: password,
    // Production wants its public addresses set; the benchmark sends no mail and opens no checkout.
    FRONTEND_HOST: 'http://localhost',
    CHECKOUT_URL: 'http://localhost/',
    // Where Nuvemshop would call webhooks: production wants https, and the benchmark receives none.
    PUBLIC_URL: 'https://bench.invalid',
    BCRYPT_COST: String(bcryptCost),
    LOG_LEVEL: 'info',
    // All load comes from one address: the login budgets are raised as if it came from many.
    RATE_LIMIT_LOGIN: '1000000000',
    RATE_LIMIT_LOGIN_EMAIL: '1000000000',
    // The request path alone is measured: no job is worked, so the schedules never sync the seeded clients (whose
    // stores are made up) in the middle of a round.
    RUN_WORKERS: 'false',
  };
  delete env.BENCH_DATABASE_URL;
  if (options.heapProf) env.BENCH_HEAP_PROF_DIR = path.resolve(options.heapProf);
  return env;
}

/** The same database reached through the counting relay on `port`. */
const viaRelay = (url, port) => {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
};

/**
 * The node flags `npm start` runs the gateway with (its heap bounds), so the benchmark measures the same process.
 * scripts/start.mjs takes them from the `serve` script.
 */
const GATEWAY_FLAGS = [
  ...startFlags(),
  ...(options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProf)}`] : []),
  ...(options.heapProf ? ['--import', pathToFileURL(path.join(root, 'bench/lib/heap-sample.mjs')).href] : []),
];

function startFlags() {
  const serve = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.serve;
  const match = /\bnode((?: --[\w-]+(?:=\S+)?)*) dist\/gateway\/main\.js\b/.exec(serve);
  if (!match) throw new Error(`package.json's serve script does not run "node [flags] dist/gateway/main.js": ${serve}`);
  return match[1].trim().split(/\s+/).filter(Boolean);
}

const startGateway = (databaseUrl, flags = GATEWAY_FLAGS) =>
  startServer({
    name: 'gateway',
    command: process.execPath,
    args: [...flags, 'bench/gateway-entry.mjs'],
    cwd: root,
    env: serverEnv(databaseUrl),
    readyMessage: 'gateway listening',
  });

const startBaseline = (databaseUrl) =>
  startServer({
    name: 'baseline',
    command: process.execPath,
    args: [
      ...(options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProf, 'baseline')}`] : []),
      'bench/baseline.mjs',
    ],
    cwd: root,
    env: serverEnv(databaseUrl),
    readyMessage: 'baseline listening',
  });

/** The baseline's handler inside a bare Express app served as the gateway's is: what the framework alone costs (see bench/README.md). */
const startExpressFloor = (databaseUrl) =>
  startServer({
    name: 'express-floor',
    command: process.execPath,
    args: [
      ...(options.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProf, 'floor')}`] : []),
      'bench/baseline.mjs',
    ],
    cwd: root,
    env: { ...serverEnv(databaseUrl), BASELINE_FRAMEWORK: 'express' },
    readyMessage: 'baseline listening',
  });

/** Scenarios also run on the framework floor: the reads whose target is a ratio to the baseline. */
const FLOOR_SCENARIOS = ['restList5', 'restList', 'restGet', 'graphqlList5', 'graphqlList', 'graphqlGet'];
/** Whether `--only` leaves this scenario in. */
const chosen = (key) => !options.only || options.only.has(key);
/** Scenarios run again on a gateway without `npm start`'s heap bounds, to show what the bounds cost. */
const UNBOUNDED_SCENARIOS = ['restList', 'graphqlList'];

async function send(baseUrl, request) {
  const response = await fetch(baseUrl + request.path, {
    method: request.method ?? 'GET',
    headers: request.headers,
    body: request.body,
  });
  const text = await response.text();
  return { status: response.status, text };
}

/** Statements per request: a few sequential requests through the counting relay, averaged. */
async function countStatements(server, counter, request, times = COUNT_REQUESTS) {
  const sql = [];
  let total = 0;
  for (let i = 0; i < times; i++) {
    const req = request.next ? { ...request, ...request.next(i) } : request;
    counter.reset(i === 0);
    const { status, text } = await send(server.url, req);
    if (status !== 200)
      throw new Error(`${server.name} answered ${status} to ${req.method ?? 'GET'} ${req.path}: ${text}`);
    total += counter.statements;
    if (i === 0) sql.push(...counter.log);
  }
  return { perRequest: total / times, sql };
}

async function loadScenario(server, probe, scenario, connections, duration = options.duration) {
  const request = scenario.request;
  server.assertRunning();
  await settle(server);
  if (options.warmup > 0) {
    await runLoad({ url: server.url, connections, duration: options.warmup, request });
  }
  await settle(server);
  probe?.reset();
  const cpuBefore = cpuMillis(server.child.pid);
  const splitBefore = cpuSplit(server.child.pid);
  const result = await runLoad({ url: server.url, connections, duration, request });
  const cpuAfter = cpuMillis(server.child.pid);
  const splitAfter = cpuSplit(server.child.pid);
  if (splitBefore && splitAfter && result.requests) {
    // The kernel's share (socket reads and writes, mostly) against user space (JavaScript, the collector).
    result.cpuUserMsPerRequest = (splitAfter.user - splitBefore.user) / result.requests;
    result.cpuSystemMsPerRequest = (splitAfter.system - splitBefore.system) / result.requests;
  }
  server.assertRunning();
  result.cpuMsPerRequest =
    cpuBefore !== null && cpuAfter !== null && result.requests ? (cpuAfter - cpuBefore) / result.requests : null;
  if (probe) result.peakRss = probe.peak().bytes;
  return result;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (up to 15 s) until the server is idle: requests left running by earlier load must not weigh on the next. */
async function settle(server) {
  const until = Date.now() + 15_000;
  let before = cpuMillis(server.child.pid);
  while (Date.now() < until) {
    await sleep(250);
    const now = cpuMillis(server.child.pid);
    if (now === null || before === null || now - before <= 20) return;
    before = now;
  }
}

/** The machine's CPU time, busy and in all, from /proc/stat (clock ticks, every core); null where there is none. */
function machineTicks() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = fields[3] + (fields[4] ?? 0);
    const total = fields.reduce((sum, value) => sum + value, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/**
 * Waits (up to 30 s) until the whole machine is quiet, not only the gateway: the load before it leaves PostgreSQL
 * work behind (autovacuum and analyze after the inserts), which a person opening the admin would not find running.
 */
async function settleMachine() {
  const until = Date.now() + 30_000;
  let before = machineTicks();
  while (before && Date.now() < until) {
    await sleep(500);
    const now = machineTicks();
    if (!now || (now.busy - before.busy) / Math.max(1, now.total - before.total) < 0.1) return;
    before = now;
  }
}

const ms = (v) => (v === null || v === undefined ? '–' : v.toFixed(1));
const describe = (r) =>
  `${Math.round(r.rps)} req/s, p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms, errors ${r.errors}` +
  (r.cpuMsPerRequest
    ? `, ${r.cpuMsPerRequest.toFixed(2)} ms CPU/request` +
      (r.cpuUserMsPerRequest !== undefined
        ? ` (user ${r.cpuUserMsPerRequest.toFixed(2)}, kernel ${r.cpuSystemMsPerRequest.toFixed(2)})`
        : '')
    : '') +
  (r.peakRss ? `, peak RSS ${(r.peakRss / 1e6).toFixed(0)} MB` : '');

async function main() {
  const started = Date.now();
  if (options.build) {
    log('building (npm run build)');
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  } else if (!existsSync(path.join(root, 'dist/gateway/main.js'))) {
    log('building the gateway (npm run build:gateway)');
    execFileSync('npm', ['run', 'build:gateway'], { cwd: root, stdio: 'inherit' });
  }
  const databaseUrl = options.databaseUrl;
  log(`database ${databaseUrl.replace(/\/\/[^@/]*@/, '//…@')}`);
  await ensureDatabase(databaseUrl);
  await migrate(root, databaseUrl);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const results = { meta: {}, rows: [], targets: [] };
  try {
    // ---- data
    const wanted = { ...options.scale, owners: Math.min(options.scale.owners, options.scale.users), cost: bcryptCost };
    const existing = await seededScale(pool);
    const sameScale = existing && Object.keys(wanted).every((k) => existing[k] === wanted[k]);
    let seedMs = null;
    if (options.reuse && sameScale) {
      log('reusing the seeded database');
    } else {
      if (!existing && !options.force) {
        const { rows } = await pool.query('select (select count(*) from users) + (select count(*) from clients) as n');
        if (Number(rows[0].n) > 0) {
          throw new Error('the database holds data the benchmark did not write; use another database or --force');
        }
      }
      log(`seeding ${JSON.stringify(options.scale)}`);
      seedMs = await seed(pool, wanted, {
        password,
        superuser,
        cost: bcryptCost,
        encryptionKey: Buffer.from(secrets.TOKEN_ENCRYPTION_KEY, 'base64'),
        log: (m) => log(`  ${m}`),
      });
      log(`seeded in ${(seedMs / 1000).toFixed(1)} s`);
    }
    await cleanUp(pool);
    const { rows: idRows } = await pool.query(
      "select id from clients where url like 'https://store-%' order by random() limit 1000",
    );
    const ids = idRows.map((r) => r.id);
    const { rows: userRows } = await pool.query(
      "select email from users where email like '%@bench.example' order by email limit 1000",
    );
    const users = userRows.map((r) => r.email);
    const { rows: countRows } = await pool.query('select count(*)::int as n from clients');
    const totalClients = countRows[0].n;
    const deepSkip = Math.min(500_000, Math.floor(totalClients / 2));
    const { rows: versionRows } = await pool.query('show server_version');

    // ---- statements per request and same answers, through the counting relay
    const db = new URL(databaseUrl);
    // The job queue's own pool (pg-boss, application_name integracao-jobs) polls whatever the requests do.
    const gatewayCounter = await startSqlCounter(db.hostname, Number(db.port || 5432), ['integracao-jobs']);
    const baselineCounter = await startSqlCounter(db.hostname, Number(db.port || 5432));
    log('counting SQL statements per request');
    const [countingGateway, countingBaseline] = await Promise.all([
      startGateway(viaRelay(databaseUrl, gatewayCounter.port)),
      startBaseline(viaRelay(databaseUrl, baselineCounter.port)),
    ]);
    log(`  servers up`);
    const sql = {};
    const parity = {};
    let token;
    let pageSizes;
    try {
      const signIn = await send(
        countingGateway.url,
        scenarios({ users: [superuser], password, ids, deepSkip }).find((s) => s.login).request,
      );
      token = JSON.parse(signIn.text).access_token;
      if (!token) throw new Error(`the bench user could not sign in: ${signIn.text}`);
      const list = scenarios({ token, ids, deepSkip, users, password, tag: 'count' });
      for (const s of list) {
        const times = s.login ? 2 : COUNT_REQUESTS;
        const g = await countStatements(countingGateway, gatewayCounter, s.request, times);
        const b = await countStatements(countingBaseline, baselineCounter, s.request, times);
        sql[s.key] = { gateway: g.perRequest, baseline: b.perRequest, gatewaySql: g.sql, baselineSql: b.sql };
        if (s.comparable) {
          const req = s.request.next ? { ...s.request, ...s.request.next(7) } : s.request;
          const [ga, ba] = [await send(countingGateway.url, req), await send(countingBaseline.url, req)];
          parity[s.key] = ga.text.trim() === ba.text.trim();
          if (!parity[s.key]) log(`${s.key}: the gateway answered ${firstDifference(ga.text, ba.text)}`);
        }
      }
      // A request's statements must not grow with the page size.
      pageSizes = { rest: {}, graphql: {} };
      const auth = { authorization: `Bearer ${token}` };
      for (const size of [1, 10, 100]) {
        const rest = await countStatements(countingGateway, gatewayCounter, { ...restList(0, size), headers: auth });
        const gql = graphqlList(size);
        const graph = await countStatements(countingGateway, gatewayCounter, {
          ...gql,
          headers: { ...gql.headers, ...auth },
        });
        pageSizes.rest[size] = rest.perRequest;
        pageSizes.graphql[size] = graph.perRequest;
      }
    } finally {
      await countingGateway.stop();
      await countingBaseline.stop();
      await gatewayCounter.close();
      await baselineCounter.close();
    }
    await cleanUp(pool);

    // ---- load: each scenario on the gateway, then at once on the baseline (both up, the idle one costs nothing),
    // so that both sides of a ratio see the same machine
    const measured = { gateway: {}, baseline: {} };
    const cpuRounds = {};
    const single = { gateway: {}, baseline: {} };
    const restarts = [];
    let storm;
    let admin = { measured: false, reason: 'skipped (--no-admin)' };
    const servers = {};
    let probe;
    const start = {
      gateway: async () => {
        servers.gateway = await startGateway(databaseUrl);
        probe?.stop();
        probe = memoryProbe(servers.gateway.child.pid);
      },
      baseline: async () => {
        servers.baseline = await startBaseline(databaseUrl);
      },
      floor: async () => {
        servers.floor = await startExpressFloor(databaseUrl);
      },
      unbounded: async () => {
        servers.unbounded = await startGateway(databaseUrl, []);
      },
    };
    const floor = {};
    const unbounded = {};
    // Some scenarios again on another server, each result with its ratio to the baseline's run of the scenario.
    const measureAlso = async (name, label, list, keys, into, { probe: serverProbe } = {}) => {
      for (const key of keys) {
        const scenario = list.find((x) => x.key === key);
        log(`${label}: ${scenario.name}`);
        const result = await measure(name, `${scenario.name} (${label})`, (server) =>
          loadScenario(server, serverProbe, scenario, options.connections),
        );
        const baseline = measured.baseline[key];
        into[key] = { ...result, ratio: baseline?.rps ? result.rps / baseline.rps : null };
        log(`  ${describe(result)}`);
      }
    };
    // A server killed from outside (a busy shared machine) is started again and the scenario repeated, once.
    const measure = async (name, label, run) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await run(servers[name]);
        } catch (error) {
          if (attempt > 1 || servers[name].running()) throw error;
          log(`warning: ${error.message.split('\n')[0]}; starting it again and repeating "${label}"`);
          restarts.push({ server: name, scenario: label, reason: error.message.split('\n')[0] });
          await servers[name].stop();
          await start[name]();
        }
      }
    };
    try {
      await start.gateway();
      await start.baseline();
      const lists = {
        gateway: scenarios({ token, ids, deepSkip, users, password, tag: `gateway-${Date.now()}` }),
        baseline: scenarios({ token, ids, deepSkip, users, password, tag: `baseline-${Date.now()}` }),
      };
      // The framework floor runs its scenarios in the same rounds, after the baseline: its ratio is to the same run.
      lists.floor = lists.baseline;
      const floorKeys = new Set(FLOOR_SCENARIOS.filter(chosen));
      if (floorKeys.size) {
        await start.floor();
        // The floor answers what the gateway answers, or its figures say nothing.
        for (const key of floorKeys) {
          const { request } = lists.floor.find((x) => x.key === key);
          const req = request.next ? { ...request, ...request.next(7) } : request;
          const [fa, ga] = [await send(servers.floor.url, req), await send(servers.gateway.url, req)];
          floor[key] = { sameJson: fa.text.trim() === ga.text.trim() };
          if (!floor[key].sameJson) log(`warning: the framework floor does not answer "${key}" as the gateway does`);
        }
      }
      for (const [index, s] of lists.gateway.entries()) {
        if (options.only && !options.only.has(s.key)) continue;
        const connections = s.login ? options.loginConnections : options.connections;
        // Rounds of the pair, gateway then baseline; the round whose CPU ratio is the median stands for the scenario.
        const rounds = [];
        for (let round = 1; round <= (s.login || s.writes ? 1 : options.rounds); round++) {
          const pair = {};
          for (const name of ['gateway', 'baseline', ...(floorKeys.has(s.key) ? ['floor'] : [])]) {
            const scenario = lists[name][index];
            log(`${name}: ${scenario.name}${options.rounds > 1 ? `, round ${round}` : ''}`);
            const result = await measure(name, scenario.name, (server) =>
              loadScenario(server, name === 'gateway' ? probe : undefined, scenario, connections),
            );
            pair[name] = result;
            log(`  ${describe(result)}`);
            if (s.writes) {
              await cleanUp(pool);
              await pool.query('vacuum clients');
            }
          }
          rounds.push(pair);
        }
        const cpuOf = (pair) =>
          pair.gateway.cpuMsPerRequest && pair.baseline.cpuMsPerRequest
            ? pair.gateway.cpuMsPerRequest / pair.baseline.cpuMsPerRequest
            : Infinity;
        const median = [...rounds].sort((a, b) => cpuOf(a) - cpuOf(b))[Math.floor((rounds.length - 1) / 2)];
        measured.gateway[s.key] = { ...median.gateway, rounds: rounds.length };
        if (floorKeys.has(s.key)) {
          // The floor's own median round, by its CPU ratio to the baseline of that round.
          const floorOf = (pair) => pair.floor.cpuMsPerRequest / pair.baseline.cpuMsPerRequest || Infinity;
          const mid = [...rounds].sort((a, b) => floorOf(a) - floorOf(b))[Math.floor((rounds.length - 1) / 2)];
          floor[s.key] = {
            ...floor[s.key],
            ...mid.floor,
            ratio: mid.baseline.rps ? mid.floor.rps / mid.baseline.rps : null,
            cpuRatio: Number.isFinite(floorOf(mid)) ? floorOf(mid) : null,
            cpuRounds: rounds.map(floorOf).map((r) => (Number.isFinite(r) ? r : null)),
          };
        }
        measured.baseline[s.key] = median.baseline;
        cpuRounds[s.key] = rounds.map(cpuOf).map((r) => (Number.isFinite(r) ? r : null));
        if (rounds.length > 1)
          log(`  CPU gateway ÷ baseline by round: ${cpuRounds[s.key].map((r) => r?.toFixed(2)).join(', ')}`);
        if (rounds.length > 1 && floor[s.key]?.cpuRounds)
          log(
            `  CPU framework floor ÷ baseline by round: ${floor[s.key].cpuRounds.map((r) => r?.toFixed(2)).join(', ')}`,
          );
        if (s.key === 'restList' || s.key === 'graphqlList') {
          // The same request one at a time: the latency without queueing behind 31 others.
          for (const name of ['gateway', 'baseline']) {
            const scenario = lists[name][index];
            const result = await measure(name, `${scenario.name} (1 connection)`, (server) =>
              loadScenario(server, undefined, scenario, 1, Math.min(options.duration, 5)),
            );
            single[name][s.key] = result;
            log(`${name}: ${scenario.name}, 1 connection: ${describe(result)}`);
          }
        }
        if (s.login) {
          log('gateway: REST list page 1 alone, then during a login storm');
          const listScenario = lists.gateway.find((x) => x.key === 'restList');
          storm = await measure('gateway', 'login storm', async (gateway) => {
            const alone = await loadScenario(gateway, probe, listScenario, options.connections);
            await settle(gateway);
            probe.reset();
            const load = (connections, request) =>
              runLoad({ url: gateway.url, connections, duration: options.duration, request });
            const [during, logins] = await Promise.all([
              load(options.connections, listScenario.request),
              load(options.loginConnections, s.request),
            ]);
            during.peakRss = probe.peak().bytes;
            gateway.assertRunning();
            return { alone, during, logins };
          });
          log(`  alone: ${describe(storm.alone)}`);
          log(`  during: ${describe(storm.during)}; logins ${describe(storm.logins)}`);
        }
      }
      await servers.baseline.stop();
      await servers.floor?.stop();
      if (options.admin && (!options.only || options.only.has('admin'))) {
        log('admin: loading /clientes in headless Chromium');
        await settle(servers.gateway);
        await settleMachine();
        admin = await measureAdmin({
          baseUrl: servers.gateway.url,
          adminIndex: path.join(root, 'dist/admin/index.html'),
          token,
          path: process.env.BENCH_ADMIN_PATH ?? '/clientes',
          runs: options.adminRuns,
          executablePath: CHROMIUM,
          rowMarker: '.bench.example',
        });
        log(
          admin.measured
            ? `  initial JS ${(admin.initialJsGzipBytes / 1000).toFixed(1)} kB gzip, rows after ${Math.round(admin.timeToRowsMs)} ms`
            : `  not measured: ${admin.reason}`,
        );
      }
      // What the heap bounds of `npm start` cost: the two page-1 lists again on a gateway started without them.
      await servers.gateway.stop();
      probe.stop();
      await start.unbounded();
      const unboundedProbe = memoryProbe(servers.unbounded.child.pid);
      try {
        await measureAlso(
          'unbounded',
          'gateway without heap bounds',
          lists.gateway,
          UNBOUNDED_SCENARIOS.filter(chosen),
          unbounded,
          {
            probe: unboundedProbe,
          },
        );
      } finally {
        unboundedProbe.stop();
      }
    } finally {
      probe?.stop();
      await servers.baseline?.stop();
      await servers.floor?.stop();
      await servers.unbounded?.stop();
      await servers.gateway?.stop();
    }
    const gatewayPeak = Math.max(
      ...Object.values(measured.gateway).map((r) => r.peakRss ?? 0),
      storm?.alone.peakRss ?? 0,
      storm?.during.peakRss ?? 0,
    );

    // ---- results
    const list = scenarios({ token, ids, deepSkip, users, password, tag: 'report' });
    results.rows = list
      .filter((s) => chosen(s.key))
      .map((s) => {
        const gateway = measured.gateway[s.key];
        const baseline = measured.baseline[s.key];
        return {
          key: s.key,
          name: s.name,
          gateway,
          baseline,
          ratio: gateway && baseline?.rps ? gateway.rps / baseline.rps : null,
          cpuRatio:
            gateway?.cpuMsPerRequest && baseline?.cpuMsPerRequest
              ? gateway.cpuMsPerRequest / baseline.cpuMsPerRequest
              : null,
          cpuRounds: cpuRounds[s.key],
          sql: sql[s.key],
          sameJson: parity[s.key],
        };
      });
    results.expressFloor = floor;
    results.withoutHeapBounds = unbounded;
    results.storm = storm;
    results.oneConnection = single;
    results.restarts = restarts;
    results.admin = admin;
    results.pageSizes = pageSizes;
    results.targets = targets(results.rows, {
      storm,
      admin,
      pageSizes,
      gatewayPeak,
      totalClients,
      single,
      expressFloor: results.expressFloor,
      withoutHeapBounds: results.withoutHeapBounds,
    });
    results.meta = {
      finishedAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      smoke: options.smoke,
      scale: { ...options.scale, owners: wanted.owners },
      clientsInDatabase: totalClients,
      seedSeconds: seedMs === null ? null : seedMs / 1000,
      reused: seedMs === null,
      duration: options.duration,
      warmup: options.warmup,
      connections: options.connections,
      loginConnections: options.loginConnections,
      pageSize: 100,
      bcryptCost,
      gatewayFlags: GATEWAY_FLAGS.join(' '),
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
      node: process.versions.node,
      postgres: versionRows[0].server_version.split(' ')[0],
      gatewayPeakRss: gatewayPeak,
      totalSeconds: (Date.now() - started) / 1000,
      sqlCounting:
        'statements sent to PostgreSQL (simple queries and extended-protocol executes, BEGIN/COMMIT included), ' +
        `counted by a relay on the wire over ${COUNT_REQUESTS} sequential requests`,
    };
    mkdirSync(path.join(benchDir, 'results'), { recursive: true });
    const md = writeResults(path.join(benchDir, 'results'), path.join(benchDir, 'README.md'), results);
    console.log('\n' + md);
    const mismatched = Object.entries(parity).filter(([, same]) => !same);
    if (mismatched.length)
      log(`warning: the baseline's JSON differs from the gateway's for ${mismatched.map(([k]) => k).join(', ')}`);
    // Targets are figures to watch, not a verdict on the build: a missed one is a warning (CI's smoke run included).
    for (const t of results.targets.filter((x) => x.met === false))
      log(`warning: target missed: ${t.target}: ${t.measured}`);
    const failures = results.rows.filter((r) => r.gateway && r.gateway.requests === 0);
    if (failures.length) throw new Error(`no request completed for ${failures.map((r) => r.name).join(', ')}`);
    log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s; bench/results/latest.md`);
  } finally {
    await pool.end();
  }
}

/**
 * With N connections each waiting for its answer, the mean latency is at least N ÷ throughput (Little's law):
 * at the baseline's own throughput, what no server on this machine can beat.
 */
function queueing(baselineRps) {
  if (!baselineRps) return '';
  const floor = (options.connections / baselineRps) * 1000;
  return `; ${options.connections} connections at the baseline's ${Math.round(baselineRps).toLocaleString('en')} req/s queue ≥ ${floor.toFixed(1)} ms on average`;
}

function targets(
  rows,
  { storm, admin, pageSizes, gatewayPeak, totalClients, single, expressFloor, withoutHeapBounds },
) {
  const by = Object.fromEntries(rows.map((r) => [r.key, r]));
  const out = [];
  const verdict = (ok) => (ok === null ? 'not measured' : ok ? 'met' : '**missed**');
  // Beside a ratio: what a bare Express app reaches, and the gateway without `npm start`'s heap bounds.
  const aside = (key) => {
    const notes = [];
    if (expressFloor?.[key]?.ratio) notes.push(`the framework floor: ${expressFloor[key].ratio.toFixed(2)}`);
    if (withoutHeapBounds?.[key]?.ratio) notes.push(`without heap bounds: ${withoutHeapBounds[key].ratio.toFixed(2)}`);
    return notes.length ? ` (${notes.join('; ')})` : '';
  };
  // Server CPU per request against the baseline's for the same requests: steadier than throughput on a shared machine.
  const cpuRatio = (key, max) => {
    if (!by[key]?.gateway) return;
    const r = by[key].cpuRatio ?? null;
    const g = by[key].gateway.cpuMsPerRequest;
    const b = by[key].baseline?.cpuMsPerRequest;
    out.push({
      target: `${by[key].name}: server CPU per request ≤ ${max} × the baseline's`,
      measured:
        r === null
          ? '–'
          : `${r.toFixed(2)}× (${g.toFixed(2)} / ${b.toFixed(2)} ms` +
            (by[key].cpuRounds?.length > 1
              ? `; median of ${by[key].cpuRounds.length} rounds: ${by[key].cpuRounds.map((v) => v?.toFixed(2) ?? '–').join(', ')}`
              : '') +
            (expressFloor?.[key]?.cpuRatio ? `; the framework floor: ${expressFloor[key].cpuRatio.toFixed(2)}×` : '') +
            ')',
      result: verdict(r === null ? null : r <= max),
      met: r === null ? null : r <= max,
    });
  };
  cpuRatio('restList5', 1.5);
  cpuRatio('restList', 1.5);
  cpuRatio('restGet', 1.5);
  cpuRatio('graphqlList5', 2.0);
  cpuRatio('graphqlList', 2.0);
  cpuRatio('graphqlGet', 2.0);
  const ratio = (key, min) => {
    if (!by[key]?.gateway) return;
    const r = by[key]?.ratio ?? null;
    out.push({
      target: `${by[key].name}: gateway ÷ baseline ≥ ${min}`,
      measured: r === null ? '–' : r.toFixed(2) + aside(key),
      result: verdict(r === null ? null : r >= min),
      met: r === null ? null : r >= min,
    });
  };
  ratio('restList', 0.75);
  ratio('restGet', 0.75);
  ratio('graphqlList', 0.6);
  const full = totalClients >= 1_000_000;
  for (const key of ['restList', 'graphqlList']) {
    if (!by[key]?.gateway) continue;
    const p99 = by[key]?.gateway?.p99 ?? null;
    out.push({
      target: `${by[key].name}: p99 ≤ 25 ms at ${options.connections} connections, 1M rows`,
      measured:
        p99 === null
          ? '–'
          : `${p99.toFixed(1)} ms (baseline ${by[key].baseline?.p99?.toFixed(1) ?? '–'} ms; one connection at a time ` +
            `${single.gateway[key]?.p99?.toFixed(1) ?? '–'} ms; ${totalClients.toLocaleString('en')} rows` +
            queueing(by[key].baseline?.rps) +
            ')',
      result: full ? verdict(p99 === null ? null : p99 <= 25) : 'not applicable below 1M rows',
      met: full && p99 !== null ? p99 <= 25 : null,
    });
  }
  const constant = ['rest', 'graphql'].every((api) => new Set(Object.values(pageSizes[api])).size === 1);
  out.push({
    target: 'SQL statements per request do not grow with page size',
    measured:
      `REST ${Object.entries(pageSizes.rest)
        .map(([k, v]) => `${k}→${v}`)
        .join(', ')}; ` +
      `GraphQL ${Object.entries(pageSizes.graphql)
        .map(([k, v]) => `${k}→${v}`)
        .join(', ')}`,
    result: verdict(constant),
    met: constant,
  });
  if (storm) {
    const factor =
      storm.during.p99 && storm.alone.p99 && storm.logins.requests ? storm.during.p99 / storm.alone.p99 : null;
    out.push({
      target: 'List p99 during a login storm ≤ 1.5 × without',
      measured:
        factor === null
          ? 'no login or no list request completed during the run'
          : `${storm.during.p99.toFixed(1)} / ${storm.alone.p99.toFixed(1)} ms = ${factor.toFixed(2)}× ` +
            `(${Math.round(storm.logins.rps * 10) / 10} logins/s)`,
      result: verdict(factor === null ? null : factor <= 1.5),
      met: factor === null ? null : factor <= 1.5,
    });
  }
  const unboundedPeak = Math.max(0, ...Object.values(withoutHeapBounds ?? {}).map((r) => r.peakRss ?? 0));
  out.push({
    target: 'Gateway peak RSS ≤ 150 MB',
    measured:
      `${(gatewayPeak / 1e6).toFixed(0)} MB` +
      (unboundedPeak ? ` (without the heap bounds of \`npm start\`: ${(unboundedPeak / 1e6).toFixed(0)} MB)` : ''),
    result: verdict(gatewayPeak ? gatewayPeak <= 150e6 : null),
    met: gatewayPeak ? gatewayPeak <= 150e6 : null,
  });
  const js = admin?.measured ? admin.jsUntilRowsGzipBytes : null;
  out.push({
    target: 'Admin JavaScript until the first rows ≤ 300 kB gzip',
    measured: js === null ? `not measured: ${admin?.reason}` : `${(js / 1000).toFixed(1)} kB`,
    result: verdict(js === null ? null : js <= 300_000),
    met: js === null ? null : js <= 300_000,
  });
  const rowsMs = admin?.measured ? admin.timeToRowsMs : null;
  out.push({
    target: 'Admin first client rows ≤ 500 ms on loopback',
    measured: rowsMs === null ? `not measured: ${admin?.reason}` : `${Math.round(rowsMs)} ms`,
    result: verdict(rowsMs === null ? null : rowsMs <= 500),
    met: rowsMs === null ? null : rowsMs <= 500,
  });
  const slowMs = admin?.measured ? admin.slowTimeToRowsMs : null;
  out.push({
    target: 'Admin first client rows ≤ 1.5 s at 10 Mbit/s, 40 ms round trips',
    measured: slowMs === null ? `not measured: ${admin?.reason ?? 'no rows'}` : `${Math.round(slowMs)} ms`,
    result: verdict(slowMs === null ? null : slowMs <= 1500),
    met: slowMs === null ? null : slowMs <= 1500,
  });
  const trips = admin?.measured ? admin.apiRoundTripsBeforeRows : null;
  out.push({
    target: 'Admin first rows after one API round trip (the list does not wait for `me`)',
    measured: trips === null ? `not measured: ${admin?.reason}` : `${trips} (the most of ${admin.runs} loads)`,
    result: verdict(trips === null ? null : trips <= 1),
    met: trips === null ? null : trips <= 1,
  });
  return out;
}

main().catch((error) => {
  console.error(`[bench] failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});

/** Where two answers part: a few characters of each from the first that differs. */
function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const at = Math.max(0, i - 40);
  return `…${a.slice(at, i + 60)}… where the baseline answered …${b.slice(at, i + 60)}…`;
}
