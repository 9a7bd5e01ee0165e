import { Migration } from '@mikro-orm/migrations';

/** Each location's own Hiper account's products by SKU, and how far that account has been read for them. */
export class Migration20261202063721 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "location_catalogues" ("location_id" uuid not null, "cursor" bigint not null default 0, "read_at" timestamptz null, constraint "location_catalogues_pkey" primary key ("location_id"));`,
    );

    this.addSql(
      `create table "location_products" ("location_id" uuid not null, "sku" varchar(64) not null, "hiper_id" varchar(64) not null, constraint "location_products_pkey" primary key ("location_id", "sku"));`,
    );

    this.addSql(
      `alter table "location_catalogues" add constraint "location_catalogues_location_id_foreign" foreign key ("location_id") references "locations" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "location_products" add constraint "location_products_location_id_foreign" foreign key ("location_id") references "locations" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "location_catalogues" cascade;`);

    this.addSql(`drop table if exists "location_products" cascade;`);
  }
}
