import { Migration } from '@mikro-orm/migrations';

export class Migration20261127040754 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "clients" add column "nuvemshop_location_id" varchar(64) null, add column "sync_state" text check ("sync_state" in ('idle', 'queued', 'running', 'failed', 'token_revoked', 'suspended', 'disconnected')) not null default 'idle', add column "last_synced_at" timestamptz null;`,
    );
    this.addSql(`create index "clients_sync_state_created_at_index" on "clients" ("sync_state", "created_at", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "clients_sync_state_created_at_index";`);
    this.addSql(
      `alter table "clients" drop column "nuvemshop_location_id", drop column "sync_state", drop column "last_synced_at";`,
    );
  }
}
