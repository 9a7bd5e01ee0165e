import { Migration } from '@mikro-orm/migrations';

/**
 * The nightly reconciliation: a sync run of kind `reconcile` (its cost in the runs' counts), and the differences it
 * finds between each store and Hiper, per SKU and location, with what each side says.
 */
export class Migration20261204190000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sync_runs" drop constraint if exists "sync_runs_kind_check";`);
    this.addSql(
      `alter table "sync_runs" add constraint "sync_runs_kind_check" check ("kind" in ('catalogue', 'stock', 'full', 'reconcile'));`,
    );
    this.addSql(
      `create table "divergences" ("id" uuid not null, "client_id" uuid not null, "sku" varchar(64) not null, "location_id" varchar(64) null, "kind" text check ("kind" in ('stock', 'price', 'promotional_price', 'published', 'only_in_store', 'only_in_hiper')) not null, "store_value" varchar(255) null, "hiper_value" varchar(255) null, "state" text check ("state" in ('open', 'repaired', 'resolved')) not null default 'open', "first_seen" timestamptz not null, "last_seen" timestamptz not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "divergences_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "divergences_created_at_id_index" on "divergences" ("created_at", "id");`);
    this.addSql(
      `create index "divergences_client_id_created_at_index" on "divergences" ("client_id", "created_at", "id");`,
    );
    this.addSql(`create index "divergences_state_created_at_index" on "divergences" ("state", "created_at", "id");`);
    this.addSql(
      `alter table "divergences" add constraint "divergences_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "divergences" cascade;`);
    this.addSql(`delete from "sync_runs" where "kind" = 'reconcile';`);
    this.addSql(`alter table "sync_runs" drop constraint if exists "sync_runs_kind_check";`);
    this.addSql(
      `alter table "sync_runs" add constraint "sync_runs_kind_check" check ("kind" in ('catalogue', 'stock', 'full'));`,
    );
  }
}
