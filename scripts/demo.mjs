// `npm run demo`: the product as `npm start` runs it (scripts/start.mjs), on an embedded database of its own, beside
// the project's Hiper and Nuvemshop stand-ins (tests/support/standins) started as servers on 127.0.0.1, with a demo
// client connected to them and a small catalogue in the demo ERP. Each start begins afresh: the stand-ins keep
// nothing, so neither does the demo's database. Never in production: it would sync a client against stand-ins.
//
// The stand-ins are test code: this script compiles them with the demo's pages (demo/, tsconfig.demo.json) into
// dist/demo, which `npm run build` and the production image never build.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { exitLike, passStopSignals, SIGNAL_NUMBERS } from './stop-signals.mjs';
import { parseEnv } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const status = process.stderr;

// The gateway reads a developer's .env for what the environment does not set; so does the demo, for the same names.
const envFile = path.join(root, '.env');
const fromFile = existsSync(envFile) ? parseEnv(readFileSync(envFile, 'utf8')) : {};
const setting = (name, fallback) => process.env[name] || fromFile[name] || fallback;

if (setting('NODE_ENV') === 'production') {
  status.write(
    'npm run demo does not run with NODE_ENV=production: it connects a demo client to stand-ins of Hiper and ' +
      'Nuvemshop. Use `npm start` (or the image) in production.\n',
  );
  process.exit(1);
}

const port = (name, fallback) => {
  const value = Number(setting(name, fallback));
  if (!Number.isInteger(value) || value < 0 || value > 65_535) {
    status.write(`${name} must be a port number (0 to 65535), not ${setting(name, fallback)}\n`);
    process.exit(1);
  }
  return value;
};
const hiperPort = port('DEMO_HIPER_PORT', '8001');
const nuvemshopPort = port('DEMO_NUVEMSHOP_PORT', '8002');
const databasePort = port('DEMO_PG_PORT', '54339');
const dataDir = path.resolve(root, setting('DEMO_DATA_DIR', '.data/demo'));
// Short, so a change in the demo ERP reaches the store while one watches (10 s is the least the gateway takes).
const stockInterval = process.env.SYNC_STOCK_INTERVAL_SECONDS || '15';
// The least the gateway takes: an NF-e issued in the demo ERP reaches the store within a minute.
const ordersInterval = process.env.ORDERS_STATUS_INTERVAL_SECONDS || '60';
const superuser = {
  email: setting('FIRST_SUPERUSER', 'admin@example.com'),
  password: setting('FIRST_SUPERUSER_PASSWORD', 'changethis'),
};

/** The child under way (the demo's compilation, then `npm start`'s script) and the first stop signal, if any. */
let current;
let standIns;

const stopping = passStopSignals(
  () => current,
  // scripts/start.mjs stops the gateway cleanly (answering what is in flight, stopping the database); the stand-ins
  // stay up until it has, so a step under way still reaches them.
  (signal) => void standIns?.close().finally(() => process.exit(128 + SIGNAL_NUMBERS[signal])),
);

const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

// 1. The stand-ins and the demo's pages, compiled by tsc's build mode (nothing when nothing changed).
const compiling = Date.now();
status.write('Demo: compiling the stand-ins and the demo pages (TypeScript)…\n');
await new Promise((resolve) => {
  current = spawn(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.demo.json'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  current.once('exit', (code, signal) => {
    current = undefined;
    if (stopping() || signal) return exitLike(code, signal ?? stopping());
    if (code !== 0) process.exit(code ?? 1);
    resolve();
  });
});
status.write(`Demo: compiled in ${seconds(compiling)}\n`);

// 2. The stand-ins, serving their pages.
const { startDemoStandIns, DEMO_CLIENT, DEMO_SECOND_CLIENT, DEMO_DEPOT } = require(
  path.join(root, 'dist/demo/demo/standins.js'),
);
try {
  standIns = await startDemoStandIns({
    hiperPort,
    nuvemshopPort,
    stockIntervalSeconds: Number(stockInterval),
    ordersIntervalSeconds: Number(ordersInterval),
  });
} catch (error) {
  status.write(
    `Demo: the stand-ins could not start (${error.message}); DEMO_HIPER_PORT and DEMO_NUVEMSHOP_PORT choose ` +
      'other ports (0: any free one).\n',
  );
  process.exit(1);
}
if (stopping()) {
  await standIns.close();
  process.exit(128 + SIGNAL_NUMBERS[stopping()]);
}

// 3. The product, as `npm start` runs it, on a fresh embedded database of the demo's own: never DATABASE_URL's.
const databaseDir = path.join(dataDir, 'postgres');
rmSync(databaseDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
current = spawn(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  env: {
    ...process.env,
    DATABASE_URL: '',
    EMBEDDED_PG_DIR: databaseDir,
    EMBEDDED_PG_PORT: String(databasePort),
    HIPER_API_URL: standIns.hiper.url,
    NUVEMSHOP_API_URL: standIns.nuvemshop.url,
    SYNC_STOCK_INTERVAL_SECONDS: stockInterval,
    // The demo store signs its order webhooks with the demo app's secret; its orders are read back every minute.
    NUVEMSHOP_CLIENT_SECRET: DEMO_CLIENT.appSecret,
    ORDERS_STATUS_INTERVAL_SECONDS: ordersInterval,
    ORDERS_SWEEP_INTERVAL_SECONDS: process.env.ORDERS_SWEEP_INTERVAL_SECONDS || '60',
    // A run waits for a worker half a second at most, not two: a click on "Sincronizar agora" that meets a stock run
    // still queued is answered with that run (a client has one run at a time), so the demo keeps that moment short.
    JOBS_POLL_INTERVAL_SECONDS: '0.5',
    // The Saúde screen: one failed run makes a client critical, and the minute's check comes within seconds of it.
    HEALTH_FAILED_RUNS: process.env.HEALTH_FAILED_RUNS || '1',
    JOBS_CRON_CHECK_SECONDS: process.env.JOBS_CRON_CHECK_SECONDS || '5',
    // ...and its alert goes at that check, to the superuser (the E-mails screen; without SMTP_HOST, the log).
    ALERT_AFTER_MINUTES: process.env.ALERT_AFTER_MINUTES || '0',
    // The nightly reconciliation every two minutes: a stock typed in the demo store is found and put right soon.
    RECONCILE_CRON: process.env.RECONCILE_CRON || '*/2 * * * *',
    RUN_WORKERS: 'true',
    FIRST_SUPERUSER: superuser.email,
    FIRST_SUPERUSER_PASSWORD: superuser.password,
  },
});
current.once('exit', (code, signal) => {
  current = undefined;
  void standIns.close().finally(() => exitLike(code, signal));
});
current.once('message', (message) => {
  if (message && typeof message === 'object' && typeof message.listening === 'string') {
    connect(message.listening).catch((error) => {
      status.write(`Demo: the demo client could not be set up: ${error.message}\n`);
      current?.kill('SIGTERM');
    });
  }
});

/** Signs in as the first superuser and adds the demo client, connected to both stand-ins; then says where to look. */
async function connect(url) {
  const api = url.replace('://localhost', '://127.0.0.1');
  const call = async (method, route, init) => {
    const answer = await fetch(api + route, { method, signal: AbortSignal.timeout(30_000), ...init });
    const body = await answer.json().catch(() => undefined);
    if (!answer.ok) throw new Error(`${method} ${route} answered ${answer.status} ${JSON.stringify(body)}`);
    return body;
  };
  const { access_token: token } = await call('POST', '/api/v1/login/access-token', {
    body: new URLSearchParams({ username: superuser.email, password: superuser.password }),
  });
  const client = await call('POST', '/api/v1/clients/', {
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: DEMO_CLIENT.name,
      url: DEMO_CLIENT.url,
      hiper_token: DEMO_CLIENT.hiperKey,
      nuvemshop_token: DEMO_CLIENT.storeToken,
      nuvemshop_store_id: DEMO_CLIENT.storeId,
      orders_enabled: true,
    }),
  });
  // Its store's two locations, read as "Ler estoques da loja" reads them; the warehouse fed by its own ERP account.
  const asStaff = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  await call('POST', `/api/v1/clients/${client.id}/locations/read`, { headers: asStaff, body: '{}' });
  let depot;
  for (const end = Date.now() + 30_000; !depot && Date.now() < end; await new Promise((r) => setTimeout(r, 200))) {
    const { data } = await call('GET', `/api/v1/locations/?client_id=${client.id}`, { headers: asStaff });
    depot = data.find((location) => location.name === DEMO_DEPOT.name);
  }
  if (!depot) throw new Error(`the store's location "${DEMO_DEPOT.name}" was not read`);
  await call('PUT', `/api/v1/locations/${depot.id}`, {
    headers: asStaff,
    body: JSON.stringify({ hiper_token: DEMO_DEPOT.hiperKey }),
  });
  // The second client, typed with an old Token Hiper: its first run fails, and staff put the right one back.
  const second = await call('POST', '/api/v1/clients/', {
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: DEMO_SECOND_CLIENT.name,
      url: DEMO_SECOND_CLIENT.url,
      hiper_token: DEMO_SECOND_CLIENT.wrongHiperKey,
      nuvemshop_token: DEMO_SECOND_CLIENT.storeToken,
      nuvemshop_store_id: DEMO_SECOND_CLIENT.storeId,
    }),
  });
  await call('POST', `/api/v1/clients/${second.id}/sync`, {
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
  standIns.connect(api);
  process.stdout.write(
    [
      '',
      'The demo is running (Ctrl-C stops it; every start begins afresh).',
      `  Admin:        ${url}/clientes  sign in as ${superuser.email} / ${superuser.password}`,
      `                the client "${DEMO_CLIENT.name}" is connected: its row menu, "Sincronizar agora"`,
      `                the client "${DEMO_SECOND_CLIENT.name}" has an old Token Hiper: it shows "Falhou" (Token Hiper`,
      `                recusado pelo Hiper). In "Editar cliente" put ${DEMO_SECOND_CLIENT.hiperKey}`,
      '                as Token Hiper and save: it leaves "Falhou" at once, and "Sincronizar agora" fills its store.',
      `  Saúde:        ${url}/saude  (and the dashboard's first card) every client worst first: within a minute`,
      `                "${DEMO_SECOND_CLIENT.name}" turns "Crítico" (its last run failed: Token Hiper recusado pelo Hiper),`,
      '                and "Em dia" again at the check after its right key synchronised it. E-mails shows the',
      `                "Alerta de saúde" sent to ${superuser.email} about it, and "Cliente de volta" once it is back.`,
      `                its row menu, "Estoques": "${DEMO_DEPOT.shop}" (this ERP) and "${DEMO_DEPOT.name}" (a second ERP account,`,
      "                with the black running shoe in size 42 the shop has sold out): each one's stock in the store.",
      `  Divergências: ${url}/divergencias  the reconciliation (nightly; every 2 minutes here) compares the store with`,
      '                Hiper: "Ajustar" a stock in the demo store, as if typed in its own admin, and the next one writes',
      '                Hiper\'s back and lists it as "Corrigida", with what each side said.',
      `  Demo ERP:     ${standIns.erpUrl}  (Hiper stand-in) change a price or a stock, add a product`,
      `  Demo store:   ${standIns.storeUrl}  (Nuvemshop stand-in) its products; JSON at ${standIns.storeUrl}products.json`,
      `  Stock runs every ${stockInterval} s carry price and stock changes; a new product comes with the next`,
      '  catalogue run (hourly, or "Sincronizar agora").',
      '  "Comprar" in the demo store places a paid order: it reaches the demo ERP (Pedidos de venda) and the admin',
      `  (Pedidos); "Emitir NF-e" and "Entregar à transportadora" there reach the store within ${ordersInterval} s.`,
      '  "Comprar a camiseta e o tênis preto 42" places one order that ships from both locations: Pedidos shows its two',
      `  shipments, each sent to its own location's ERP account (${DEMO_DEPOT.name}'s holds the shoe's).`,
      '  From a terminal:',
      `    curl -d preco=39,90 -d estoque=8 ${standIns.erpUrl}products/1001`,
      '',
    ].join('\n'),
  );
}
