import { Migration } from '@mikro-orm/migrations';

/** The audit log: every write a person made through REST or GraphQL, with the indexes its filters read. */
export class Migration20261204191050 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "audit_events" ("id" uuid not null, "created_at" timestamptz not null default now(), "user_id" varchar(36) null, "user_email" varchar(255) null, "address" varchar(64) null, "action" text check ("action" in ('create', 'update', 'delete', 'restore', 'purge', 'sync', 'resend', 'mark_sent', 'sweep', 'read_locations', 'priorities', 'default_location', 'password', 'signup')) not null, "resource" varchar(64) not null, "record_id" varchar(64) not null, "changes" jsonb not null, "updated_at" timestamptz not null default now(), constraint "audit_events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "audit_events_created_at_id_index" on "audit_events" ("created_at", "id");`);
    this.addSql(
      `create index "audit_events_user_id_created_at_index" on "audit_events" ("user_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "audit_events_resource_created_at_index" on "audit_events" ("resource", "created_at", "id");`,
    );
    this.addSql(
      `create index "audit_events_record_id_created_at_index" on "audit_events" ("record_id", "created_at", "id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "audit_events" cascade;`);
  }
}
