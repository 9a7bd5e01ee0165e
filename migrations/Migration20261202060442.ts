import { Migration } from '@mikro-orm/migrations';

/** Several stock locations: their rows, the stock movements written to them, an order row per shipment. */
export class Migration20261202060442 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "locations" ("id" uuid not null, "client_id" uuid not null, "nuvemshop_location_id" varchar(64) not null, "name" varchar(255) null, "hiper_token" text null, "priority" int not null default 0, "is_default" boolean not null default false, "stock_state" text check ("stock_state" in ('never_synced', 'idle', 'failed')) not null default 'never_synced', "stock_error" varchar(2000) null, "deleted_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "locations_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "locations_created_at_id_index" on "locations" ("created_at", "id");`);
    this.addSql(
      `create index "locations_client_id_created_at_index" on "locations" ("client_id", "created_at", "id");`,
    );
    this.addSql(`create index "locations_name_trgm_index" on "locations" using gin ("name" gin_trgm_ops);`);
    this.addSql(
      `create index "locations_stock_state_created_at_index" on "locations" ("stock_state", "created_at", "id");`,
    );
    this.addSql(
      `alter table "locations" add constraint "locations_client_id_nuvemshop_location_id_unique" unique ("client_id", "nuvemshop_location_id");`,
    );

    this.addSql(
      `create table "stock_movements" ("id" uuid not null, "client_id" uuid not null, "location_id" uuid null, "sku" varchar(64) not null, "value" int not null, "previous" int null, "reason" text check ("reason" in ('hiper', 'reserved', 'released')) not null, "order_id" uuid null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "stock_movements_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "stock_movements_created_at_id_index" on "stock_movements" ("created_at", "id");`);
    this.addSql(
      `create index "stock_movements_client_id_created_at_index" on "stock_movements" ("client_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "stock_movements_location_id_created_at_index" on "stock_movements" ("location_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "stock_movements_reason_created_at_index" on "stock_movements" ("reason", "created_at", "id");`,
    );

    this.addSql(
      `alter table "locations" add constraint "locations_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "stock_movements" add constraint "stock_movements_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "stock_movements" add constraint "stock_movements_location_id_foreign" foreign key ("location_id") references "locations" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "stock_movements" add constraint "stock_movements_order_id_foreign" foreign key ("order_id") references "orders" ("id") on update cascade on delete set null;`,
    );

    this.addSql(`alter table "orders" drop constraint "orders_client_id_nuvemshop_order_id_unique";`);

    this.addSql(
      `alter table "orders" add column "fulfillment_order_id" varchar(64) null, add column "location_id" uuid null;`,
    );
    this.addSql(
      `alter table "orders" add constraint "orders_location_id_foreign" foreign key ("location_id") references "locations" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `create unique index "orders_client_id_nuvemshop_order_id_fulfillment_order_id_unique" on "orders" ("client_id", "nuvemshop_order_id", "fulfillment_order_id") nulls not distinct;`,
    );

    // A client's one location id becomes its one location row (its stock keeps going where it went).
    this.addSql(
      `insert into "locations" ("id", "client_id", "nuvemshop_location_id", "is_default", "created_at", "updated_at")
       select gen_random_uuid(), "id", "nuvemshop_location_id", true, now(), now() from "clients"
       where "nuvemshop_location_id" is not null and btrim("nuvemshop_location_id") <> '';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "orders" drop constraint "orders_location_id_foreign";`);

    this.addSql(`alter table "stock_movements" drop constraint "stock_movements_location_id_foreign";`);

    this.addSql(`drop table if exists "locations" cascade;`);

    this.addSql(`drop table if exists "stock_movements" cascade;`);

    this.addSql(`drop index "orders_client_id_nuvemshop_order_id_fulfillment_order_id_unique";`);
    this.addSql(`alter table "orders" drop column "fulfillment_order_id", drop column "location_id";`);

    this.addSql(
      `alter table "orders" add constraint "orders_client_id_nuvemshop_order_id_unique" unique ("client_id", "nuvemshop_order_id");`,
    );
  }
}
