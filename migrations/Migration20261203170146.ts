import { Migration } from '@mikro-orm/migrations';

/** Every client's health (the Saúde screen), worked out again on HEALTH_CRON. */
export class Migration20261203170146 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "client_health" ("id" uuid not null, "client_id" uuid not null, "client_name" varchar(255) not null, "health" text check ("health" in ('ok', 'attention', 'critical')) not null, "reasons" jsonb not null, "health_since" timestamptz not null, "checked_at" timestamptz not null, "severity" int not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "client_health_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "client_health_created_at_id_index" on "client_health" ("created_at", "id");`);
    this.addSql(
      `create index "client_health_client_id_created_at_index" on "client_health" ("client_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "client_health_health_created_at_index" on "client_health" ("health", "created_at", "id");`,
    );
    this.addSql(`alter table "client_health" add constraint "client_health_client_id_unique" unique ("client_id");`);

    this.addSql(
      `alter table "client_health" add constraint "client_health_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "client_health" cascade;`);
  }
}
