import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../gateway/paths';

const read = (file: string) => readFileSync(path.join(projectRoot, file), 'utf8');

/** The node flags before the entry point `file` in a command given as words. */
function nodeFlags(words: string[], file = 'dist/gateway/main.js'): string[] {
  const node = words.indexOf('node');
  const entry = words.indexOf(file);
  expect(node, `no "node" in ${words.join(' ')}`).toBeGreaterThanOrEqual(0);
  expect(entry, `no "${file}" in ${words.join(' ')}`).toBeGreaterThan(node);
  return words.slice(node + 1, entry);
}

describe('how the gateway is run', () => {
  it('with the same heap bounds by `npm start` (which runs the command of `npm run serve`) and by the image', () => {
    const serve = JSON.parse(read('package.json')).scripts.serve as string;
    const fromStart = nodeFlags(serve.split(/\s+/));
    const cmd = /^CMD (\[.*\])$/m.exec(read('Dockerfile'));
    expect(cmd, 'the Dockerfile has no CMD in exec form').not.toBeNull();
    const fromImage = nodeFlags(JSON.parse(cmd![1]) as string[]);
    expect(fromStart).toEqual(fromImage);
    expect(fromStart.some((flag) => flag.startsWith('--max-old-space-size='))).toBe(true);
    expect(fromStart.some((flag) => flag.startsWith('--max-semi-space-size='))).toBe(true);
  });

  it('and a worker (`npm run worker`) with the same heap bounds as the gateway', () => {
    const worker = JSON.parse(read('package.json')).scripts.worker as string;
    const serve = JSON.parse(read('package.json')).scripts.serve as string;
    expect(nodeFlags(worker.split(/\s+/), 'dist/gateway/worker.js')).toEqual(nodeFlags(serve.split(/\s+/)));
  });

  it('on dependencies with the patches of patches/ applied, by `npm ci` and by the image', () => {
    const patches = readdirSync(path.join(projectRoot, 'patches')).filter((file) => file.endsWith('.patch'));
    expect(patches.length).toBeGreaterThan(0);
    const manifest = JSON.parse(read('package.json'));
    expect(manifest.scripts.postinstall).toBe('patch-package');
    // A dependency, not a development one: an install without them (`npm ci --omit=dev`) applies the patches too.
    expect(manifest.dependencies['patch-package']).toBeDefined();
    // The image's `npm ci` runs before the rest of the project is copied: the patches must be there already.
    const lines = read('Dockerfile').split('\n');
    const install = lines.findIndex((line) => /^RUN npm ci\b/.test(line));
    expect(install).toBeGreaterThan(0);
    expect(lines.slice(0, install).some((line) => /^COPY (.* )?patches\b/.test(line))).toBe(true);
    // Each patch is written for the version installed (its file name says which): a new version needs the patch anew.
    for (const file of patches) {
      const [, name, version] = /^(.+)\+([^+]+)\.patch$/.exec(file)!;
      const installed = JSON.parse(read(`node_modules/${name.replace('+', '/')}/package.json`)).version;
      expect(installed, file).toBe(version);
    }
  });
});
