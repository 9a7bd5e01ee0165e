import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const built = path.join(root, 'dist/admin/index.html');

function newestChange(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** The browser tests run against the built admin: build it when missing or older than its sources. */
export default function setup() {
  const sources = Math.max(newestChange(path.join(root, 'admin')), newestChange(path.join(root, 'schema')));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return;
  execFileSync('npx', ['vite', 'build', '--config', 'admin/vite.config.mts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    // Vitest runs with NODE_ENV=test; the browser tests check the production build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
