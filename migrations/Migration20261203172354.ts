import { Migration } from '@mikro-orm/migrations';

/**
 * Alerts about clients' health: the last alert per client and reason, and who receives them (superusers, until they
 * say otherwise).
 */
export class Migration20261203172354 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "health_alerts" ("client_id" uuid not null, "code" varchar(32) not null, "kind" varchar(16) not null default '', "alerted_at" timestamptz not null, "recovered_at" timestamptz null, constraint "health_alerts_pkey" primary key ("client_id", "code", "kind"));`,
    );

    this.addSql(
      `alter table "health_alerts" add constraint "health_alerts_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(`alter table "users" add column "receives_alerts" boolean not null default false;`);
    this.addSql(`update "users" set "receives_alerts" = "is_superuser";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "health_alerts" cascade;`);

    this.addSql(`alter table "users" drop column "receives_alerts";`);
  }
}
