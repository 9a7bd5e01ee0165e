import { Migration } from '@mikro-orm/migrations';

export class Migration20261128060000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_events" drop constraint if exists "webhook_events_outcome_check";`);
    this.addSql(
      `alter table "webhook_events" add constraint "webhook_events_outcome_check" check ("outcome" in ('recorded', 'handled', 'ignored', 'failed', 'unsigned'));`,
    );
    // Unsigned privacy requests were recorded like signed ones; they were never acted on.
    this.addSql(`update "webhook_events" set "outcome" = 'unsigned' where not "signed";`);
  }

  override async down(): Promise<void> {
    this.addSql(`update "webhook_events" set "outcome" = 'ignored' where "outcome" = 'unsigned';`);
    this.addSql(`alter table "webhook_events" drop constraint if exists "webhook_events_outcome_check";`);
    this.addSql(
      `alter table "webhook_events" add constraint "webhook_events_outcome_check" check ("outcome" in ('recorded', 'handled', 'ignored', 'failed'));`,
    );
  }
}
