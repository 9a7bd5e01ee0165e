import { Migration } from '@mikro-orm/migrations';

export class Migration20261127041849 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "webhook_events" ("id" uuid not null, "event" varchar(32) not null, "store_id" bigint not null, "client_id" uuid null, "received_at" timestamptz not null, "outcome" text check ("outcome" in ('recorded', 'handled', 'ignored', 'failed')) not null default 'recorded', "note" varchar(500) null, "signed" boolean not null default true, "webhook_id" varchar(64) null, "delivery_key" varchar(200) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "webhook_events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "webhook_events_created_at_id_index" on "webhook_events" ("created_at", "id");`);
    this.addSql(
      `create index "webhook_events_client_id_created_at_index" on "webhook_events" ("client_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "webhook_events_outcome_created_at_index" on "webhook_events" ("outcome", "created_at", "id");`,
    );
    this.addSql(
      `alter table "webhook_events" add constraint "webhook_events_delivery_key_unique" unique ("delivery_key");`,
    );

    this.addSql(
      `alter table "webhook_events" add constraint "webhook_events_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `alter table "clients" add column "name" varchar(255) null, add column "installed_at" timestamptz null, add column "redacted_at" timestamptz null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "webhook_events" cascade;`);

    this.addSql(`alter table "clients" drop column "name", drop column "installed_at", drop column "redacted_at";`);
  }
}
