import path from 'node:path';
import { Resource } from '../fields/resource';
import { modulesIn } from '../modules';
import { compiled, projectRoot } from '../paths';

/** Where declarations are found: every `*.resource.ts` file of gateway/resources (their `.js` once compiled). */
export const DECLARATIONS = path.join(projectRoot, compiled ? 'dist/gateway/resources' : 'gateway/resources');

let loaded: Resource[] | undefined;
let loading: Promise<Resource[]> | undefined;

/**
 * Every declared resource: each file of gateway/resources named `<name>.resource.ts` and every Resource it exports,
 * in sidebar order. Found by listing the folder, so a new resource is its declaration file and nothing else to
 * register. Loaded with `import()`, which both the compiled gateway and the tests' TypeScript loader resolve.
 */
export function loadResources(directory = DECLARATIONS): Promise<Resource[]> {
  if (directory !== DECLARATIONS) return discover(directory);
  return (loading ??= discover(directory).then((found) => (loaded = found)));
}

async function discover(directory: string): Promise<Resource[]> {
  const found: Resource[] = [];
  for (const module of await modulesIn(directory, /^[\w-]+\.resource\.(ts|js)$/)) {
    for (const value of Object.values(module))
      if (value instanceof Resource && !found.includes(value)) found.push(value);
  }
  const names = new Set<string>();
  for (const resource of found) {
    for (const key of [
      resource.name,
      `table ${resource.table}`,
      `path ${resource.path}`,
      `screen ${resource.screen}`,
    ]) {
      if (names.has(key)) throw new Error(`Two resources declare the same ${key}`);
      names.add(key);
    }
  }
  return found.sort((a, b) => (a.options.menu ?? 99) - (b.options.menu ?? 99) || a.name.localeCompare(b.name));
}

/** The declared resources, once `loadResources()` has settled (every entry point awaits it first). */
export function declaredResources(): Resource[] {
  if (!loaded) throw new Error('The resources are not loaded yet: await loadResources() first');
  return loaded;
}

/** The resources the generic REST routes and GraphQL operations serve. */
export const genericResources = () => declaredResources().filter((resource) => !resource.options.ownAdapters);

/** A declared resource by its GraphQL name. */
export function resourceNamed(name: string): Resource {
  const found = declaredResources().find((resource) => resource.name === name);
  if (!found) throw new Error(`No resource is named ${name}`);
  return found;
}
