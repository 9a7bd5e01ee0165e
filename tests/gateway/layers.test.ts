import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { circlesOf, sourcesIn as sources } from '../support/imports';

const root = path.resolve(__dirname, '../..');
const gateway = path.join(root, 'gateway');

/**
 * Each gateway file and the gateway files it imports: all of them (type-only imports are dependencies too), or with
 * `runtime` only those that load code.
 */
function importGraph(runtime = false): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(gateway)) {
    const text = readFileSync(file, 'utf8');
    const pattern = runtime
      ? /(?:import|export)(?!\s+type\s)[^'";]*?from\s+'(\.[^']+)'/g
      : /(?:import|export)[^'";]*?from\s+'(\.[^']+)'/g;
    const targets = [...text.matchAll(pattern)].map((m) => {
      const base = path.resolve(path.dirname(file), m[1]);
      return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => graph.has(candidate) || exists(candidate));
    });
    graph.set(
      file,
      targets.filter((t): t is string => !!t && t.startsWith(gateway)),
    );
  }
  return graph;
}

const exists = (file: string) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

const rel = (file: string) => path.relative(gateway, file);
/**
 * The domains, the resource kit and the platform clients: they know nothing of HTTP (webhooks/ decides how a delivery
 * is admitted: it names http/admission.ts).
 */
const DOMAINS = [
  'users',
  'callback',
  'auth',
  'sync',
  'email',
  'clients',
  'items',
  'locations',
  'orders',
  'kit',
  'platforms',
];
/** The queue (pg-boss, its tables, every job's payload): below the domains, which queue work through it. */
const QUEUE = 'queue';
/** The job definitions: each runs a domain's work, so it sits above the domains. */
const JOBS = 'jobs';
const folderOf = (file: string) => (rel(file).includes(path.sep) ? rel(file).split(path.sep)[0] : null);
const ADAPTERS = ['rest', 'graphql', 'http'];
/** What assembles every domain: it sits at the top, and nothing below imports it. */
const ASSEMBLY = [
  'services.ts',
  'routes.ts',
  'resolvers.ts',
  'entities.ts',
  'resources.ts',
  'gateway.ts',
  'app.ts',
  'main.ts',
];

describe('the gateway reads as layers', () => {
  const graph = importGraph();

  it('has no import circle', () => {
    expect(circlesOf(graph, rel)).toEqual([]);
  });

  it('has no circle between folders: a folder that imports another is never imported back by it, however far', () => {
    const folders = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      if (from === null) continue;
      for (const target of targets) {
        const to = folderOf(target);
        if (to !== null && to !== from) folders.set(from, (folders.get(from) ?? new Set()).add(to));
      }
    }
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      [...(folders.get(from) ?? [])].some(
        (next) => next === to || (!seen.has(next) && (seen.add(next), reaches(next, to, seen))),
      );
    const circles = [...folders].flatMap(([from, tos]) =>
      [...tos].filter((to) => reaches(to, from)).map((to) => `${from}/ → ${to}/ → … → ${from}/`),
    );
    expect(folders.size).toBeGreaterThan(10);
    expect(circles).toEqual([]);
  });

  it('registers every resource in one explicit list, scanning no folder for declarations', () => {
    const declarations = sources(gateway).filter((file) => /\.resource\.ts$/.test(file));
    const registry = readFileSync(path.join(gateway, 'resources.ts'), 'utf8');
    const unlisted = declarations
      .filter((file) => !/users\//.test(rel(file)))
      .filter((file) => !registry.includes(`'./${rel(file).replace(/\.ts$/, '')}'`))
      .map(rel);
    expect(declarations.length).toBeGreaterThan(8);
    expect(unlisted).toEqual([]);
    expect(registry).not.toMatch(/modulesIn|readdir|import\(/);
  });

  it('keeps domains free of REST, GraphQL and HTTP, and of what assembles them', () => {
    const wrong = [...graph].flatMap(([file, targets]) => {
      if (!DOMAINS.includes(rel(file).split(path.sep)[0])) return [];
      return targets
        .filter((t) => ADAPTERS.includes(rel(t).split(path.sep)[0]) || ASSEMBLY.includes(rel(t)))
        .map((t) => `${rel(file)} imports ${rel(t)}`);
    });
    expect(wrong).toEqual([]);
  });

  // The adapters are handed the assembled services and name their type; they load none of the assembly's code.
  it('keeps the assembly at the top: nothing below loads it', () => {
    const wrong = [...importGraph(true)].flatMap(([file, targets]) =>
      rel(file).includes(path.sep)
        ? targets.filter((t) => ASSEMBLY.includes(rel(t))).map((t) => `${rel(file)} imports ${rel(t)}`)
        : [],
    );
    expect(wrong).toEqual([]);
  });

  it('keeps the queue below the domains: it imports none of them, nor a job definition', () => {
    const wrong = [...graph].flatMap(([file, targets]) =>
      folderOf(file) === QUEUE
        ? targets
            .filter((t) => folderOf(t) !== QUEUE && (folderOf(t) !== null || ASSEMBLY.includes(rel(t))))
            .map((t) => `${rel(file)} imports ${rel(t)}`)
        : [],
    );
    expect(wrong).toEqual([]);
  });

  it('has the job definitions imported only by each other and the assembly, never by a domain or an adapter', () => {
    const wrong = [...graph].flatMap(([file, targets]) => {
      const folder = folderOf(file);
      if (folder === null || folder === JOBS) return [];
      return targets.filter((t) => folderOf(t) === JOBS).map((t) => `${rel(file)} imports ${rel(t)}`);
    });
    expect(wrong).toEqual([]);
  });

  it('lets the adapters import domains, never each other', () => {
    const wrong = [...graph].flatMap(([file, targets]) => {
      const layer = rel(file).split(path.sep)[0];
      if (layer !== 'rest' && layer !== 'graphql') return [];
      const other = layer === 'rest' ? 'graphql' : 'rest';
      return targets.filter((t) => rel(t).split(path.sep)[0] === other).map((t) => `${rel(file)} imports ${rel(t)}`);
    });
    expect(wrong).toEqual([]);
  });
});

describe('one declaration per field', () => {
  /** Source files of the gateway and the admin (tests and generated files aside) naming `field` in any spelling. */
  function naming(field: string): string[] {
    const spelling = new RegExp(field.split('_').join('[_-]?'), 'i');
    return [...sources(gateway), ...sources(path.join(root, 'admin', 'src'))]
      .filter((file) => spelling.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
  }

  // The declaration (its one line) and the admin's messages (its label); the store id also where an app install
  // finds its client (clients/store-connection.ts). The entity is derived from the declaration.
  it.each([
    ['hiper_sync_update_dimensions', 2],
    ['nuvemshop_store_id', 3],
  ] as const)('names %s in at most %i source files', (field, most) => {
    expect(naming(field).length, naming(field).join(', ')).toBeLessThanOrEqual(most);
  });
});

describe('the source speaks for itself', () => {
  /** Every source file of the repository's code, tests, scripts and benchmarks (dependencies and builds aside). */
  function code(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      if (name === 'node_modules' || name === 'dist') return [];
      if (statSync(full).isDirectory()) return code(full);
      return /\.(?:[cm]?[jt]sx?)$/.test(name) ? [full] : [];
    });
  }

  // A reader has the repository and public standards, nothing else: a rule or fact a file needs is said in its own
  // words or in the repository's docs (docs/architecture.md, "Where things are said").
  const outside = new RegExp(
    [
      String.raw`\b(?:SPEC|INTEGRATIONS|SYNC-CONTRACT|ORDERS-CONTRACT|LOCATIONS-CONTRACT|ORDERS|REST-CONTRACT|STYLE|STACK)\.md\b`,
      String.raw`\.\./shared\b`,
      String.raw`(?<!RFC \d+ )§`,
    ].join('|'),
  );

  it('cites no document outside the repository', () => {
    const files = ['gateway', 'admin', 'tests', 'scripts', 'bench'].flatMap((dir) => code(path.join(root, dir)));
    const citing = files
      .filter((file) => file !== __filename && outside.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    expect(files.length).toBeGreaterThan(100);
    expect(citing).toEqual([]);
  });
});

describe('docs/architecture.md', () => {
  const doc = readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
  const folders = (dir: string) =>
    readdirSync(path.join(root, dir)).filter((name) => statSync(path.join(root, dir, name)).isDirectory());

  it.each(['gateway', 'admin/src'])('says in one line what each folder of %s holds', (dir) => {
    const missing = folders(dir).filter((name) => !new RegExp(`^ {2}(?:\\S+/ )*${name}/ +\\S`, 'm').test(doc));
    expect(folders(dir).length).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });
});

describe('typed rows', () => {
  // A declaration gives its entity a type (EntityOf<typeof resource>): rows are read and written through it.
  it('has no untyped row and no cast to never in the gateway', () => {
    const untyped = new RegExp([String.raw`Record<string,\s*any>`, String.raw`\bas never\b`].join('|'));
    const found = sources(gateway)
      .filter((file) => untyped.test(readFileSync(file, 'utf8')))
      .map(rel);
    expect(found).toEqual([]);
  });
});
