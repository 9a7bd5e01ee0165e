import { Migration } from '@mikro-orm/migrations';

/** An order row's number in Hiper: the order's, or {number}-{k} for one of several shipments. */
export class Migration20261202070223 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "orders" add column "hiper_number" varchar(32) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "orders" drop column "hiper_number";`);
  }
}
