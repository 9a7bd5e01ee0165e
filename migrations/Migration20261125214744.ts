import { Migration } from '@mikro-orm/migrations';

export class Migration20261125214744 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "authorization_codes" ("code_hash" varchar(64) not null, "status" int not null, "answer" jsonb not null, "created_at" timestamptz not null default now(), constraint "authorization_codes_pkey" primary key ("code_hash"));`,
    );

    this.addSql(
      `create table "clients" ("id" uuid not null, "url" varchar(255) not null, "hiper_token" text null, "nuvemshop_token" text null, "nuvemshop_store_id" bigint not null default 0, "hiper_sync_update_image" boolean not null default true, "hiper_sync_update_dimensions" boolean not null default true, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "clients_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create unique index "clients_nuvemshop_store_id_unique" on "clients" ("nuvemshop_store_id") where "nuvemshop_store_id" <> 0;`,
    );
    this.addSql(`create index "clients_created_at_id_index" on "clients" ("created_at", "id");`);

    this.addSql(
      `create table "deleted_users" ("id" uuid not null, "deleted_at" timestamptz not null default now(), constraint "deleted_users_pkey" primary key ("id"));`,
    );

    this.addSql(
      `create table "rate_limits" ("key" varchar(255) not null, "points" int not null default 0, "expire" bigint null, constraint "rate_limits_pkey" primary key ("key"));`,
    );

    this.addSql(
      `create table "users" ("id" uuid not null, "email" varchar(255) not null, "full_name" varchar(255) null, "hashed_password" varchar(255) not null, "is_active" boolean not null default true, "is_superuser" boolean not null default false, "token_version" int not null default 0, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "users_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`create index "users_created_at_id_index" on "users" ("created_at", "id");`);

    this.addSql(
      `create table "items" ("id" uuid not null, "title" varchar(255) not null, "description" varchar(255) null, "owner_id" uuid not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "items_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "items_owner_created_at_index" on "items" ("owner_id", "created_at", "id");`);
    this.addSql(`create index "items_created_at_id_index" on "items" ("created_at", "id");`);

    this.addSql(
      `alter table "items" add constraint "items_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    for (const table of ['items', 'users', 'rate_limits', 'deleted_users', 'clients', 'authorization_codes']) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
