import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

/** The admin file a relative specifier names, if it names one (`./values` → values.tsx, `./labels` → its index). */
function resolved(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')].find(
    (candidate) => candidate.startsWith(root) && existsSync(candidate) && statSync(candidate).isFile(),
  );
}

/**
 * Each admin file and the admin files it names: static imports, re-exports, type-only imports and dynamic `import()`
 * alike, as TypeScript's own pre-processor reads them. A module loaded later is still one the reader must follow.
 */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    graph.set(
      file,
      importedFiles
        .filter(({ fileName }) => fileName.startsWith('.'))
        .flatMap(({ fileName }) => resolved(file, fileName) ?? []),
    );
  }
  return graph;
}

/** Every circle of the graph, each as the trail of files around it. */
function circlesOf(graph: Map<string, string[]>): string[] {
  const rel = (file: string) => path.relative(root, file);
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, trail: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      circles.push([...trail.slice(trail.indexOf(file)), file].map(rel).join(' → '));
      return;
    }
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  return circles;
}

describe('the admin’s modules', () => {
  it('import one another without a circle', () => {
    const graph = importGraph();
    // The walk itself: it reads the list screen's parts, dynamic imports included.
    expect(graph.get(path.join(root, 'crud', 'ResourceList.tsx'))).toContain(path.join(root, 'crud', 'columns.tsx'));
    expect(graph.get(path.join(root, 'crud', 'deferred.ts'))).toContain(path.join(root, 'crud', 'RecordDialog.tsx'));
    expect(circlesOf(graph)).toEqual([]);
  });

  it('are found circling when they do', () => {
    const a = path.join(root, 'a.ts');
    const b = path.join(root, 'b.ts');
    expect(
      circlesOf(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual(['a.ts → b.ts → a.ts']);
  });
});
