import { Migration } from '@mikro-orm/migrations';

export class Migration20261127041604 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "product_links" ("id" uuid not null, "client_id" uuid not null, "hiper_id" varchar(64) not null, "sku" varchar(64) null, "name" varchar(255) null, "nuvemshop_product_id" bigint not null, "nuvemshop_variant_id" bigint not null, "state" text check ("state" in ('linked', 'unpublished', 'failed')) not null default 'linked', "last_synced_at" timestamptz null, "last_error" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "product_links_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "product_links_created_at_id_index" on "product_links" ("created_at", "id");`);
    this.addSql(
      `create index "product_links_client_id_created_at_index" on "product_links" ("client_id", "created_at", "id");`,
    );
    this.addSql(`create index "product_links_sku_trgm_index" on "product_links" using gin ("sku" gin_trgm_ops);`);
    this.addSql(`create index "product_links_name_trgm_index" on "product_links" using gin ("name" gin_trgm_ops);`);
    this.addSql(
      `create index "product_links_state_created_at_index" on "product_links" ("state", "created_at", "id");`,
    );

    this.addSql(
      `create table "sync_clients" ("client_id" uuid not null, "catalogue_cursor" bigint not null default 0, "stock_cursor" bigint not null default 0, "lease_owner" uuid null, "lease_until" timestamptz null, constraint "sync_clients_pkey" primary key ("client_id"));`,
    );

    this.addSql(
      `create table "sync_images" ("id" uuid not null, "client_id" uuid not null, "hiper_id" varchar(64) not null, "source" text not null, "nuvemshop_product_id" bigint not null, "nuvemshop_image_id" bigint not null, constraint "sync_images_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "sync_images" add constraint "sync_images_client_hiper_id_source_unique" unique ("client_id", "hiper_id", "source");`,
    );

    this.addSql(
      `create table "sync_products" ("id" uuid not null, "client_id" uuid not null, "hiper_id" varchar(64) not null, "sku" varchar(64) not null, "nuvemshop_product_id" bigint null, "creating_since" timestamptz null, "written" jsonb null, constraint "sync_products_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "sync_products" add constraint "sync_products_client_hiper_id_unique" unique ("client_id", "hiper_id");`,
    );

    this.addSql(
      `create table "sync_runs" ("id" uuid not null, "client_id" uuid not null, "kind" text check ("kind" in ('catalogue', 'stock', 'full')) not null, "trigger" text check ("trigger" in ('schedule', 'manual', 'webhook')) not null, "state" text check ("state" in ('queued', 'running', 'succeeded', 'partial', 'failed')) not null default 'queued', "queued_at" timestamptz not null, "started_at" timestamptz null, "finished_at" timestamptz null, "created" int not null default 0, "updated" int not null default 0, "unchanged" int not null default 0, "failed" int not null default 0, "requests" int not null default 0, "errors" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "sync_runs_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "sync_runs_created_at_id_index" on "sync_runs" ("created_at", "id");`);
    this.addSql(
      `create index "sync_runs_client_id_created_at_index" on "sync_runs" ("client_id", "created_at", "id");`,
    );
    this.addSql(`create index "sync_runs_state_created_at_index" on "sync_runs" ("state", "created_at", "id");`);

    this.addSql(
      `alter table "product_links" add constraint "product_links_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "sync_clients" add constraint "sync_clients_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "sync_images" add constraint "sync_images_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "sync_products" add constraint "sync_products_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "sync_runs" add constraint "sync_runs_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "product_links" cascade;`);

    this.addSql(`drop table if exists "sync_clients" cascade;`);

    this.addSql(`drop table if exists "sync_images" cascade;`);

    this.addSql(`drop table if exists "sync_products" cascade;`);

    this.addSql(`drop table if exists "sync_runs" cascade;`);
  }
}
