import { Migration } from '@mikro-orm/migrations';

/** Each stock location's own Hiper cursor and shared token, beside its client's. */
export class Migration20261202061138 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "sync_locations" ("location_id" uuid not null, "stock_cursor" bigint not null default 0, "hiper_bearer" text null, "hiper_bearer_renew_at" timestamptz null, constraint "sync_locations_pkey" primary key ("location_id"));`,
    );

    this.addSql(
      `alter table "sync_locations" add constraint "sync_locations_location_id_foreign" foreign key ("location_id") references "locations" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "sync_locations" cascade;`);
  }
}
