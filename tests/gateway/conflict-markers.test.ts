import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../gateway/paths';

/** A merge's conflict marker never lands, in any tracked file: `npm run lint` refuses it. */
const CHECK = path.join(projectRoot, 'scripts/conflict-markers.mjs');
// Spelled by repetition, so this file holds no marker itself.
const [OURS, BASE, SPLIT, THEIRS] = ['<', '|', '=', '>'].map((c) => c.repeat(7));

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A git repository holding `files`, each added to the index, and `untracked` beside them. */
function repository(files: Record<string, string>, untracked: Record<string, string> = {}): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'markers-'));
  folders.push(folder);
  execFileSync('git', ['init', '-q'], { cwd: folder });
  for (const [name, text] of Object.entries({ ...files, ...untracked })) writeFileSync(path.join(folder, name), text);
  execFileSync('git', ['add', ...Object.keys(files)], { cwd: folder });
  return folder;
}

const check = (folder: string) => spawnSync(process.execPath, [CHECK, folder], { encoding: 'utf8' });

describe('conflict markers', () => {
  it('are refused in any tracked text file, named by file and line', () => {
    const folder = repository({
      'notes.md': `# Notas\n${OURS} HEAD\numa versão\n${SPLIT}\noutra\n${THEIRS} feature\n`,
      'settings.json': `{\n${BASE} merged common ancestors\n}\n`,
      'job.ts': `/**\n${OURS} HEAD\n * one\n${SPLIT}\n * two\n${THEIRS} orders-screens\n */\r\n`,
    });
    const result = check(folder);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`notes.md:2: ${OURS} HEAD`);
    expect(result.stderr).toContain(`notes.md:6: ${THEIRS} feature`);
    expect(result.stderr).toContain(`settings.json:2: ${BASE} merged common ancestors`);
    expect(result.stderr).toContain(`job.ts:2: ${OURS} HEAD`);
    expect(result.stderr).toContain(`job.ts:6: ${THEIRS} orders-screens`);
  });

  it('pass what only looks like them, binary files and files git does not track', () => {
    const folder = repository(
      {
        'README.md': `Title\n${SPLIT}\n\nA line quoting \`${OURS} HEAD\` inside it, and ${THEIRS}${THEIRS} a rule.\n`,
        'image.bin': `\0binary\n${OURS} HEAD\n`,
      },
      { 'scratch.txt': `${OURS} HEAD\n` },
    );
    const result = check(folder);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('are looked for by `npm run lint`, and the repository holds none', () => {
    const lint = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')).scripts.lint as string;
    expect(lint.split('&&').map((step) => step.trim())).toContain('node scripts/conflict-markers.mjs');
    const result = check(projectRoot);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
