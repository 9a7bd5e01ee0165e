import { Migration } from '@mikro-orm/migrations';

export class Migration20261201213431 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "orders" add column "refused_digest" varchar(64) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "orders" drop column "refused_digest";`);
  }
}
