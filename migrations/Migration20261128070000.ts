import { Migration } from '@mikro-orm/migrations';

export class Migration20261128070000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "sync_clients" add column "hiper_bearer" text null, add column "hiper_bearer_renew_at" timestamptz null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "sync_clients" drop column "hiper_bearer", drop column "hiper_bearer_renew_at";`);
  }
}
