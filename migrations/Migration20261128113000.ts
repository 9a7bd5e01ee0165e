import { Migration } from '@mikro-orm/migrations';

/**
 * A client's state tells the truth: `not_connected` while a credential or the store is missing, `never_synced` until
 * a run has ended, `partial` when its last run could not write some products.
 */
export class Migration20261128113000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "clients" drop constraint if exists "clients_sync_state_check";`);
    this.addSql(
      `alter table "clients" add constraint "clients_sync_state_check" check ("sync_state" in ('not_connected', 'never_synced', 'idle', 'partial', 'queued', 'running', 'failed', 'token_revoked', 'suspended', 'disconnected'));`,
    );
    this.addSql(`alter table "clients" alter column "sync_state" set default 'never_synced';`);
    this.addSql(
      `update "clients" set "sync_state" = 'not_connected' where "sync_state" in ('idle', 'failed') and ("hiper_token" is null or "hiper_token" = '' or "nuvemshop_token" is null or "nuvemshop_token" = '' or "nuvemshop_store_id" = 0);`,
    );
    this.addSql(
      `update "clients" set "sync_state" = 'never_synced' where "sync_state" = 'idle' and "last_synced_at" is null;`,
    );
    this.addSql(
      `update "clients" c set "sync_state" = 'partial' where "sync_state" = 'idle' and (select r."state" from "sync_runs" r where r."client_id" = c."id" and r."finished_at" is not null order by r."finished_at" desc limit 1) = 'partial';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `update "clients" set "sync_state" = 'idle' where "sync_state" in ('not_connected', 'never_synced', 'partial');`,
    );
    this.addSql(`alter table "clients" drop constraint if exists "clients_sync_state_check";`);
    this.addSql(
      `alter table "clients" add constraint "clients_sync_state_check" check ("sync_state" in ('idle', 'queued', 'running', 'failed', 'token_revoked', 'suspended', 'disconnected'));`,
    );
    this.addSql(`alter table "clients" alter column "sync_state" set default 'idle';`);
  }
}
