import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { circlesOf as circlesNamed, sourcesIn as sources } from '../../tests/support/imports';

const root = path.resolve(__dirname);
const circlesOf = (graph: Map<string, string[]>) => circlesNamed(graph, (file) => path.relative(root, file));

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
