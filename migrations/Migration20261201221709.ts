import { Migration } from '@mikro-orm/migrations';

/**
 * A client is `never_synced` until a catalogue run has written its store (`catalogue_synced_at`, taken from the runs
 * already ended), and a URL belongs to one live client. Clients already sharing a URL keep it valid: the most
 * recently created stays, the older ones are archived (as a delete does: their history kept, a superuser restores
 * one after changing its URL, or purges it).
 */
export class Migration20261201221709 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "clients" add column "catalogue_synced_at" timestamptz null;`);
    this.addSql(`update "clients" c set "catalogue_synced_at" = r."finished_at"
      from (select "client_id", max("finished_at") as "finished_at" from "sync_runs"
             where "kind" <> 'stock' and "state" in ('succeeded', 'partial') group by "client_id") r
     where r."client_id" = c."id";`);
    this.addSql(`update "clients" set "sync_state" = 'never_synced'
      where "sync_state" = 'idle' and "catalogue_synced_at" is null;`);
    this.addSql(`update "clients" c set "archived_at" = now(), "updated_at" = now()
      from (select "id", row_number() over (partition by "url" order by "created_at" desc, "id" desc) as "place"
              from "clients" where "archived_at" is null) d
     where d."id" = c."id" and d."place" > 1;`);
    this.addSql(`create unique index "clients_url_unique" on "clients" ("url") where "archived_at" is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "clients_url_unique";`);
    this.addSql(`alter table "clients" drop column "catalogue_synced_at";`);
  }
}
