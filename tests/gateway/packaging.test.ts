import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../gateway/paths';

const read = (file: string) => readFileSync(path.join(projectRoot, file), 'utf8');

/** The node flags before the gateway's entry in a command given as words. */
function nodeFlags(words: string[]): string[] {
  const node = words.indexOf('node');
  const entry = words.indexOf('dist/gateway/main.js');
  expect(node, `no "node" in ${words.join(' ')}`).toBeGreaterThanOrEqual(0);
  expect(entry, `no "dist/gateway/main.js" in ${words.join(' ')}`).toBeGreaterThan(node);
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
});
