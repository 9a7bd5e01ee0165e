import { Migration } from '@mikro-orm/migrations';

export class Migration20261201211959 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "webhook_days" ("id" uuid not null, "store_id" bigint not null, "day" date not null, "recorded" int not null default 0, "dropped" int not null default 0, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "webhook_days_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "webhook_days_created_at_id_index" on "webhook_days" ("created_at", "id");`);

    this.addSql(
      `create table "webhook_deliveries" ("body_hash" varchar(64) not null, "seen_at" timestamptz not null, constraint "webhook_deliveries_pkey" primary key ("body_hash"));`,
    );
    this.addSql(`create index "webhook_deliveries_seen_at_index" on "webhook_deliveries" ("seen_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "webhook_days" cascade;`);

    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
  }
}
