// `npm run dev`: the gateway recompiled and restarted on change, and the admin under Vite with hot
// reload on http://localhost:5173 (which proxies /api, /graphql and /docs to the gateway).
import { spawn, spawnSync } from 'node:child_process';

const run = (command, args) => spawn(command, args, { stdio: 'inherit', env: process.env });

const first = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (first.status !== 0) process.exit(first.status ?? 1);

const children = [
  run('npx', ['tsc', '-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput']),
  run(process.execPath, ['--watch-path=dist/gateway', '--watch-path=dist/migrations', 'dist/gateway/main.js']),
  run('npx', ['vite', '--config', 'admin/vite.config.mts']),
];
const stop = () => {
  for (const child of children) child.kill('SIGINT');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', () => stop());
