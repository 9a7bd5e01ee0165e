import type { MigrationObject } from '@mikro-orm/core';
import { modulesIn } from '../gateway/modules';

/**
 * Every committed migration of this folder (`Migration<timestamp>.ts`, or its `.js` once compiled), in order: found
 * by listing the folder, so a migration created with `npm run migration:create` needs nothing else. Loaded by the
 * gateway's own loader so that compiled runs, ts-node and the tests load the same classes.
 */
export async function loadMigrations(): Promise<MigrationObject[]> {
  const modules = await modulesIn(__dirname, /^Migration\d+\.(ts|js)$/);
  return modules.flatMap((module) =>
    Object.entries(module).flatMap(([name, value]) =>
      /^Migration\d+$/.test(name) && typeof value === 'function'
        ? [{ name, class: value as MigrationObject['class'] }]
        : [],
    ),
  );
}
