// Part of `npm run lint`: refuses a merge's conflict markers in every file git tracks, whatever its kind (a marker
// never lands, not even in a comment or a document). `node scripts/conflict-markers.mjs [folder]`, the current one
// unless told; prints each marker's place and exits 1 when there is any.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A line git writes around a conflict: seven `<`, `|` or `>` at its start, then a space or nothing. */
const MARKER = new RegExp(`^(?:${['<', '|', '>'].map((c) => `\\${c}{7}`).join('|')})(?: |\\r?$)`);

function conflictMarkers(root) {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter(Boolean);
  const found = [];
  for (const file of tracked) {
    const full = path.join(root, file);
    // Deleted but not yet committed, or a submodule's folder.
    if (!existsSync(full) || !statSync(full).isFile()) continue;
    const bytes = readFileSync(full);
    // A binary file (a NUL in its first 8 KB, as git itself judges) holds no lines to look at.
    if (bytes.subarray(0, 8000).includes(0)) continue;
    bytes
      .toString('utf8')
      .split('\n')
      .forEach((line, i) => {
        if (MARKER.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

const found = conflictMarkers(path.resolve(process.argv[2] ?? '.'));
if (found.length) {
  console.error(`Merge conflict markers in tracked files; resolve them:\n${found.join('\n')}`);
  process.exit(1);
}
