import { Migration } from '@mikro-orm/migrations';

/** Each location's stock by SKU as its Hiper account gives it, which account fed it, and movements found by SKU. */
export class Migration20261202062934 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "location_stock" ("location_id" uuid not null, "sku" varchar(64) not null, "stock" int not null, "changed" boolean not null default true, constraint "location_stock_pkey" primary key ("location_id", "sku"));`,
    );

    this.addSql(
      `alter table "location_stock" add constraint "location_stock_location_id_foreign" foreign key ("location_id") references "locations" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `create index "stock_movements_sku_created_at_index" on "stock_movements" ("sku", "created_at", "id");`,
    );

    this.addSql(
      `alter table "sync_locations" add column "stock_account" varchar(64) null, add column "sweep" boolean not null default true;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "location_stock" cascade;`);

    this.addSql(`drop index "stock_movements_sku_created_at_index";`);

    this.addSql(`alter table "sync_locations" drop column "stock_account", drop column "sweep";`);
  }
}
