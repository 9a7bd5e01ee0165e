// `npm start`: builds what changed since the last build, then runs the gateway with the node flags of
// `npm run serve` (its heap bounds), passing on SIGINT and SIGTERM and exiting as the gateway exits. It says on
// standard error which of its three steps it is at and how long each took (standard output is the gateway's log).
//
// package.json runs this script with `exec`: npm starts scripts under `sh -c`, and a shell that is still there
// when a process manager signals npm dies of the signal without passing it on, leaving the gateway and its
// database running with no parent. `exec` puts this process in the shell's place, so npm's signal reaches it.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { exitLike, passStopSignals, SIGNAL_NUMBERS } from './stop-signals.mjs';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/** What the gateway's compilation reads (tsconfig.build.json), and tsc's record of its last build. */
const GATEWAY_INPUTS = ['gateway', 'migrations', 'tsconfig.json', 'tsconfig.build.json'];
const GATEWAY_BUILT = path.join(root, 'dist', 'tsconfig.build.tsbuildinfo');
/** Everything the admin's build reads besides node_modules, whose versions package-lock.json records. */
const ADMIN_INPUTS = ['admin', 'schema', 'package-lock.json'];
/** Written by every complete admin build (see buildRecord in admin/vite.config.mts). */
const ADMIN_BUILT = path.join(root, 'dist', 'admin.built');

/** The child under way (a build step, then the gateway) and the first stop signal received, if any. */
let current;
const stopping = passStopSignals(
  () => current,
  (signal) => process.exit(128 + SIGNAL_NUMBERS[signal]),
);

const STEPS = 3;
const began = Date.now();
const status = process.stderr;
/** At a terminal the line of the step under way counts its seconds; elsewhere (a pipe, a log) it is written once. */
const live = status.isTTY === true;
let ticker;

const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

/** Says that step `n` begins; answers when it did. */
function begin(n, text) {
  const started = Date.now();
  const line = `Step ${n} of ${STEPS}: ${text}…`;
  if (!live) {
    status.write(`${line}\n`);
    return started;
  }
  const draw = () => status.write(`\r\x1b[2K${line} ${seconds(started)}`);
  draw();
  ticker = setInterval(draw, 1000);
  return started;
}

/** Ends the counting line, so that what comes next starts on a line of its own. */
function endLine() {
  if (!ticker) return;
  clearInterval(ticker);
  ticker = undefined;
  status.write('\n');
}

/** Says how step `n` ended, in place of its counting line. */
function done(n, text) {
  if (ticker) {
    clearInterval(ticker);
    ticker = undefined;
    status.write('\r\x1b[2K');
  }
  status.write(`Step ${n} of ${STEPS}: ${text}\n`);
}
process.on('exit', endLine);

/**
 * Runs a build step's node script to its end; stops this process when it fails or when a stop signal ends it. Its
 * output (errors, mostly) is passed on once the counting line has ended.
 */
function runBuild(args, options = {}) {
  return new Promise((resolve) => {
    current = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...options });
    for (const [from, to] of [
      [current.stdout, process.stdout],
      [current.stderr, process.stderr],
    ]) {
      from.on('data', (chunk) => {
        endLine();
        to.write(chunk);
      });
    }
    current.once('close', (code, signal) => {
      current = undefined;
      if (stopping() || signal) return endAs(code, signal ?? stopping());
      if (code !== 0) {
        endLine();
        process.exit(code ?? 1);
      }
      resolve();
    });
  });
}

function endAs(code, signal) {
  endLine();
  exitLike(code, signal);
}

function newestChange(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a file removed changes its folder
  for (const child of readdirSync(full)) {
    if (child !== 'node_modules') newest = Math.max(newest, newestChange(path.join(entry, child)));
  }
  return newest;
}

/** True when `record` exists and no input changed after it was written. */
function isCurrent(record, inputs) {
  if (!existsSync(record)) return false;
  const built = statSync(record).mtimeMs;
  return inputs.every((entry) => newestChange(entry) <= built);
}

/** `node [flags] dist/gateway/main.js` from `npm run serve`, so the flags are written in one place. */
function gatewayCommand() {
  const serve = packageJson.scripts.serve;
  const match = /\bnode((?: --[\w-]+(?:=\S+)?)*) (dist\/gateway\/main\.js)$/.exec(serve);
  if (!match) throw new Error(`package.json's serve script does not end in "node [flags] dist/gateway/main.js"`);
  return [...match[1].trim().split(/\s+/).filter(Boolean), match[2]];
}

// tsc's build mode compiles only what changed since its last build; loading TypeScript alone takes a third of a
// second, so it is not even started when no source is newer than its record.
const firstBuild = !existsSync(GATEWAY_BUILT);
if (!isCurrent(GATEWAY_BUILT, GATEWAY_INPUTS) || !existsSync(path.join(root, 'dist', 'gateway', 'main.js'))) {
  const started = begin(
    1,
    `compiling the gateway (TypeScript${firstBuild ? ', up to a minute or two the first time' : ''})`,
  );
  await runBuild([require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.build.json', ...(live ? ['--pretty'] : [])]);
  done(1, `gateway compiled in ${seconds(started)}`);
} else {
  done(1, 'the gateway is up to date (no source changed since it was compiled)');
}
if (!isCurrent(ADMIN_BUILT, ADMIN_INPUTS) || !existsSync(path.join(root, 'dist', 'admin', 'index.html'))) {
  const started = begin(2, 'building the admin (Vite)');
  const vite = path.join(path.dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  // The gateway always serves a production build of the admin (`npm run dev` is the one with hot reload). Vite
  // names every file it writes (some 200 lines): only its warnings and errors are shown.
  await runBuild([vite, 'build', '--config', 'admin/vite.config.mts', '--logLevel', 'warn'], {
    env: { ...process.env, NODE_ENV: 'production', ...(live ? { FORCE_COLOR: '1' } : {}) },
  });
  done(2, `admin built in ${seconds(started)}`);
} else {
  done(2, 'the admin is up to date (no source changed since it was built)');
}

// A session of its own (detached): a terminal's Ctrl-C reaches the gateway only through this process, once, and not
// the embedded PostgreSQL under it, which the gateway stops itself after the requests in flight are answered. The
// IPC channel only carries the gateway's word that it listens.
const gatewayStarted = Date.now();
status.write(`Step 3 of ${STEPS}: starting the gateway (database, migrations, job queue)…\n`);
current = spawn(process.execPath, gatewayCommand(), {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  detached: process.platform !== 'win32',
});
current.once('message', (message) => {
  if (!message || typeof message !== 'object' || !('listening' in message)) return;
  done(
    3,
    `gateway started in ${seconds(gatewayStarted)}; ready ${seconds(began)} after \`npm start\` (Ctrl-C stops it)`,
  );
  current?.disconnect();
  // Started by `npm run demo` (scripts/demo.mjs), which signs in once the gateway listens: it is told where.
  process.send?.(message, () => process.disconnect());
});
current.once('exit', (code, signal) => endAs(code, signal));
