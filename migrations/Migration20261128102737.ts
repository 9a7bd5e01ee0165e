import { Migration } from '@mikro-orm/migrations';

export class Migration20261128102737 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sync_runs" add column "waiting" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "sync_runs" drop column "waiting";`);
  }
}
