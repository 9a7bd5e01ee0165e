import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261125214744 } from './Migration20261125214744';
import { Migration20261125221000 } from './Migration20261125221000';
import { Migration20261126070000 } from './Migration20261126070000';
import { Migration20261127003947 } from './Migration20261127003947';
import { Migration20261127010000 } from './Migration20261127010000';

/**
 * Every committed migration, in order. Listed explicitly so compiled runs, ts-node and Vitest load the
 * same classes; a migration created with `npm run migration:create` is added here.
 */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261125214744', class: Migration20261125214744 },
  { name: 'Migration20261125221000', class: Migration20261125221000 },
  { name: 'Migration20261126070000', class: Migration20261126070000 },
  { name: 'Migration20261127003947', class: Migration20261127003947 },
  { name: 'Migration20261127010000', class: Migration20261127010000 },
];
