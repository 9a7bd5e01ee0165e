// `npm start`: builds what changed since the last build, then runs the gateway with the node flags of
// `npm run serve` (its heap bounds), passing on SIGINT and SIGTERM and exiting as the gateway exits.
//
// package.json runs this script with `exec`: npm starts scripts under `sh -c`, and a shell that is still there
// when a process manager signals npm dies of the signal without passing it on, leaving the gateway and its
// database running with no parent. `exec` puts this process in the shell's place, so npm's signal reaches it.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/** What the gateway's compilation reads (tsconfig.build.json), and tsc's record of its last build. */
const GATEWAY_INPUTS = ['gateway', 'migrations', 'tsconfig.json', 'tsconfig.build.json'];
const GATEWAY_BUILT = path.join(root, 'dist', 'tsconfig.build.tsbuildinfo');
/** Everything the admin's build reads besides node_modules, whose versions package-lock.json records. */
const ADMIN_INPUTS = ['admin', 'schema', 'package-lock.json'];
/** Written by every complete admin build (see buildRecord in admin/vite.config.ts). */
const ADMIN_BUILT = path.join(root, 'dist', 'admin.built');

/** The child under way (a build step, then the gateway) and the first stop signal received, if any. */
let current;
let stopping;

const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
for (const signal of Object.keys(SIGNAL_NUMBERS)) {
  process.on(signal, () => {
    // A terminal's Ctrl-C reaches this process twice (from the terminal and from npm): the gateway is told once.
    if (stopping) return;
    stopping = signal;
    // The gateway runs in a session of its own (below), so a closed terminal reaches it only from here; it stops
    // cleanly on SIGTERM.
    current?.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
    if (!current) process.exit(128 + SIGNAL_NUMBERS[signal]);
  });
}

/** Runs a node script to its end; stops this process when it fails or when a stop signal ends it. */
function runNode(args, options = {}) {
  return new Promise((resolve) => {
    current = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', ...options });
    current.once('exit', (code, signal) => {
      current = undefined;
      if (stopping || signal) return exitLike(code, signal ?? stopping);
      if (code !== 0) process.exit(code ?? 1);
      resolve();
    });
  });
}

function exitLike(code, signal) {
  if (code !== null) process.exit(code);
  // Ended by a signal: end the same way, so whoever started `npm start` sees why.
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
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
if (!isCurrent(GATEWAY_BUILT, GATEWAY_INPUTS) || !existsSync(path.join(root, 'dist', 'gateway', 'main.js'))) {
  await runNode([require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.build.json']);
}
if (!isCurrent(ADMIN_BUILT, ADMIN_INPUTS) || !existsSync(path.join(root, 'dist', 'admin', 'index.html'))) {
  const vite = path.join(path.dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  // The gateway always serves a production build of the admin (`npm run dev` is the one with hot reload).
  await runNode([vite, 'build', '--config', 'admin/vite.config.ts'], {
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

// A session of its own (detached): a terminal's Ctrl-C reaches the gateway only through this process, once, and not
// the embedded PostgreSQL under it, which the gateway stops itself after the requests in flight are answered.
current = spawn(process.execPath, gatewayCommand(), {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  detached: process.platform !== 'win32',
});
current.once('exit', (code, signal) => exitLike(code, signal));
