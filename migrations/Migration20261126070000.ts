import { Migration } from '@mikro-orm/migrations';

/** The session a password change keeps: its access token id and the token version it was issued with. */
export class Migration20261126070000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "users" add column "kept_session_id" uuid null, add column "kept_session_version" int null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "users" drop column "kept_session_id", drop column "kept_session_version";`);
  }
}
