import { readdirSync } from 'node:fs';
import path from 'node:path';
import { compiled } from './paths';

/** Under ts-node (the MikroORM command line), TypeScript files load through `require`, which ts-node compiles. */
const tsNode = Symbol.for('ts-node.register.instance') in process;

/**
 * Every module of a folder whose file name matches, in name order: what a folder of declarations or migrations holds,
 * found by listing it so that a new file needs no other file to name it. The compiled gateway and ts-node load them
 * with `require`; the tests' TypeScript loader with `import()`, which it compiles.
 */
export async function modulesIn(directory: string, name: RegExp): Promise<Record<string, unknown>[]> {
  const files = readdirSync(directory)
    .filter((file) => !file.endsWith('.d.ts') && name.test(file))
    .sort();
  const modules: Record<string, unknown>[] = [];
  for (const file of files) {
    const full = path.join(directory, file);
    // `require` where it compiles TypeScript (ts-node) or loads the compiled files; `import()` where the loader does.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    modules.push(compiled || tsNode ? (require(full) as Record<string, unknown>) : await import(full));
  }
  return modules;
}
