import { Migration } from '@mikro-orm/migrations';

export class Migration20261201220016 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "clients" add column "nuvemshop_scopes" varchar(2000) null, add column "nuvemshop_missing_scopes" varchar(2000) null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "clients" drop column "nuvemshop_scopes", drop column "nuvemshop_missing_scopes";`);
  }
}
