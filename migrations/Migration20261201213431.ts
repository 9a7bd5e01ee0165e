import { Migration } from '@mikro-orm/migrations';

export class Migration20261201213431 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "orders" add column "refused_digest" varchar(64) null, add column "status_read_at" timestamptz null, add column "fulfil_refused_at" timestamptz null, add column "cancel_requested_at" timestamptz null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "orders" drop column "refused_digest", drop column "status_read_at", drop column "fulfil_refused_at", drop column "cancel_requested_at";`,
    );
  }
}
