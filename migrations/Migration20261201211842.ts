import { Migration } from '@mikro-orm/migrations';

/**
 * A client deleted is archived (`archived_at`), not removed: its orders, sync runs, product links and webhook events
 * stay, and the database refuses to delete a client that still has them (a purge deletes them first, explicitly).
 * An archived client holds no store id (the unique index leaves it out) and counts in no list's total.
 */
export class Migration20261201211842 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "orders" drop constraint "orders_client_id_foreign";`);

    this.addSql(`alter table "product_links" drop constraint "product_links_client_id_foreign";`);

    this.addSql(`alter table "sync_runs" drop constraint "sync_runs_client_id_foreign";`);

    this.addSql(`alter table "webhook_events" drop constraint "webhook_events_client_id_foreign";`);

    this.addSql(`alter table "clients" add column "archived_at" timestamptz null;`);

    this.addSql(
      `alter table "orders" add constraint "orders_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete restrict;`,
    );

    this.addSql(
      `alter table "product_links" add constraint "product_links_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete restrict;`,
    );

    this.addSql(
      `alter table "sync_runs" add constraint "sync_runs_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete restrict;`,
    );

    this.addSql(
      `alter table "webhook_events" add constraint "webhook_events_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete restrict;`,
    );

    this.addSql(`drop index "clients_nuvemshop_store_id_unique";`);
    this.addSql(
      `create unique index "clients_nuvemshop_store_id_unique" on "clients" ("nuvemshop_store_id") where "nuvemshop_store_id" <> 0 and "archived_at" is null;`,
    );

    // The clients' total counts live clients: an archive or a restore moves it, a purged archived client does not.
    this.addSql(`create function "count_live_clients"() returns trigger language plpgsql as $$
      declare moved bigint;
      begin
        if TG_OP = 'DELETE' then
          select count(*) into moved from deleted where "archived_at" is null;
          moved := -moved;
        else
          select count(*) filter (where d."archived_at" is not null and i."archived_at" is null)
               - count(*) filter (where d."archived_at" is null and i."archived_at" is not null)
            into moved from deleted d join inserted i on i."id" = d."id";
        end if;
        if moved <> 0 then
          update "row_counts" set "total" = "total" + moved where "table_name" = 'clients';
        end if;
        return null;
      end $$;`);
    this.addSql(`drop trigger "clients_count_delete" on "clients";`);
    this.addSql(`create trigger "clients_count_delete" after delete on "clients"
      referencing old table as deleted for each statement execute function "count_live_clients"();`);
    this.addSql(`create trigger "clients_count_archive" after update on "clients"
      referencing old table as deleted new table as inserted for each statement execute function "count_live_clients"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger "clients_count_archive" on "clients";`);
    this.addSql(`drop trigger "clients_count_delete" on "clients";`);
    this.addSql(`create trigger "clients_count_delete" after delete on "clients"
      referencing old table as deleted for each statement execute function "count_deleted_rows"();`);
    this.addSql(`drop function "count_live_clients"();`);

    for (const table of ['orders', 'product_links', 'sync_runs', 'webhook_events'])
      this.addSql(`alter table "${table}" drop constraint "${table}_client_id_foreign";`);

    // The schema before this one keeps no archived client: each goes with its history, as a delete did then.
    for (const table of ['webhook_events', 'orders', 'sync_runs', 'product_links'])
      this.addSql(
        `delete from "${table}" where "client_id" in (select "id" from "clients" where "archived_at" is not null);`,
      );
    this.addSql(`delete from "clients" where "archived_at" is not null;`);
    this.addSql(`drop index "clients_nuvemshop_store_id_unique";`);
    this.addSql(
      `create unique index "clients_nuvemshop_store_id_unique" on "clients" ("nuvemshop_store_id") where "nuvemshop_store_id" <> 0;`,
    );
    this.addSql(`alter table "clients" drop column "archived_at";`);

    for (const table of ['orders', 'product_links', 'sync_runs'])
      this.addSql(
        `alter table "${table}" add constraint "${table}_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
      );
    this.addSql(
      `alter table "webhook_events" add constraint "webhook_events_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete set null;`,
    );
  }
}
