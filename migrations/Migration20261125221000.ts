import { Migration } from '@mikro-orm/migrations';

/**
 * Exact row totals maintained by statement-level triggers, for the `count` of unfiltered lists.
 * An item's owner never changes (no API moves an item), so only inserts, deletes and truncates count.
 */
export class Migration20261125221000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "row_counts" ("table_name" varchar(64) not null, "total" bigint not null default 0, constraint "row_counts_pkey" primary key ("table_name"));`,
    );
    this.addSql(
      `create table "owner_item_counts" ("owner_id" uuid not null, "total" bigint not null default 0, constraint "owner_item_counts_pkey" primary key ("owner_id"));`,
    );
    this.addSql(`insert into "row_counts" ("table_name", "total")
      select 'users', count(*) from "users" union all
      select 'items', count(*) from "items" union all
      select 'clients', count(*) from "clients";`);
    this.addSql(`insert into "owner_item_counts" ("owner_id", "total")
      select "owner_id", count(*) from "items" group by "owner_id";`);

    this.addSql(`create function "count_inserted_rows"() returns trigger language plpgsql as $$
      begin
        update "row_counts" set "total" = "total" + (select count(*) from inserted) where "table_name" = TG_TABLE_NAME;
        return null;
      end $$;`);
    this.addSql(`create function "count_deleted_rows"() returns trigger language plpgsql as $$
      begin
        update "row_counts" set "total" = "total" - (select count(*) from deleted) where "table_name" = TG_TABLE_NAME;
        return null;
      end $$;`);
    this.addSql(`create function "count_truncated_rows"() returns trigger language plpgsql as $$
      begin
        update "row_counts" set "total" = 0 where "table_name" = TG_TABLE_NAME;
        if TG_TABLE_NAME = 'items' then delete from "owner_item_counts"; end if;
        return null;
      end $$;`);
    this.addSql(`create function "count_owner_items"() returns trigger language plpgsql as $$
      begin
        if TG_OP = 'INSERT' then
          insert into "owner_item_counts" ("owner_id", "total")
            select "owner_id", count(*) from inserted group by "owner_id"
            on conflict ("owner_id") do update set "total" = "owner_item_counts"."total" + excluded."total";
        end if;
        if TG_OP = 'DELETE' then
          update "owner_item_counts" c set "total" = c."total" - d.n
            from (select "owner_id", count(*) as n from deleted group by "owner_id") d
            where c."owner_id" = d."owner_id";
          delete from "owner_item_counts" where "total" = 0 and "owner_id" in (select "owner_id" from deleted);
        end if;
        return null;
      end $$;`);
    for (const table of ['users', 'items', 'clients']) {
      this.addSql(`create trigger "${table}_count_insert" after insert on "${table}"
        referencing new table as inserted for each statement execute function "count_inserted_rows"();`);
      this.addSql(`create trigger "${table}_count_delete" after delete on "${table}"
        referencing old table as deleted for each statement execute function "count_deleted_rows"();`);
      this.addSql(`create trigger "${table}_count_truncate" after truncate on "${table}"
        for each statement execute function "count_truncated_rows"();`);
    }
    this.addSql(`create trigger "items_owner_count_insert" after insert on "items"
      referencing new table as inserted for each statement execute function "count_owner_items"();`);
    this.addSql(`create trigger "items_owner_count_delete" after delete on "items"
      referencing old table as deleted for each statement execute function "count_owner_items"();`);
  }

  override async down(): Promise<void> {
    for (const table of ['users', 'items', 'clients']) {
      for (const event of ['insert', 'delete', 'truncate'])
        this.addSql(`drop trigger if exists "${table}_count_${event}" on "${table}";`);
    }
    for (const event of ['insert', 'delete'])
      this.addSql(`drop trigger if exists "items_owner_count_${event}" on "items";`);
    for (const fn of ['count_inserted_rows', 'count_deleted_rows', 'count_truncated_rows', 'count_owner_items']) {
      this.addSql(`drop function if exists "${fn}"();`);
    }
    this.addSql(`drop table if exists "owner_item_counts";`);
    this.addSql(`drop table if exists "row_counts";`);
  }
}
