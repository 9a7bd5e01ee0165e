import { Migration } from '@mikro-orm/migrations';

/**
 * Trigram indexes for `q`: the search is `column ilike '%text%'` on every searchable field, which no b-tree can
 * serve; a GIN index of trigrams can, for a text of three characters or more.
 */
const SEARCHED = [
  ['clients', 'url'],
  ['items', 'title'],
  ['users', 'email'],
  ['users', 'full_name'],
] as const;

export class Migration20261127003947 extends Migration {
  override async up(): Promise<void> {
    // Building an index reads the whole table: on a large one it outlasts the statement timeout of requests.
    this.addSql(`set local statement_timeout = 0;`);
    this.addSql(`create extension if not exists pg_trgm;`);
    for (const [table, column] of SEARCHED) {
      this.addSql(`create index "${table}_${column}_trgm_index" on "${table}" using gin ("${column}" gin_trgm_ops);`);
    }
  }

  override async down(): Promise<void> {
    for (const [table, column] of SEARCHED) this.addSql(`drop index if exists "${table}_${column}_trgm_index";`);
    this.addSql(`drop extension if exists pg_trgm;`);
  }
}
