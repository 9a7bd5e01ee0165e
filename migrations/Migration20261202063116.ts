import { Migration } from '@mikro-orm/migrations';

/** When a client’s stock locations last matched its store’s, and why the last read of them failed. */
export class Migration20261202063116 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "clients" add column "locations_read_at" timestamptz null, add column "locations_error" varchar(500) null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "clients" drop column "locations_read_at", drop column "locations_error";`);
  }
}
