import { Migration } from '@mikro-orm/migrations';

export class Migration20261201223002 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "orders" add column "cancel_refused" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "orders" drop column "cancel_refused";`);
  }
}
