import { Migration } from '@mikro-orm/migrations';

export class Migration20261128101131 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "orders" ("id" uuid not null, "client_id" uuid not null, "nuvemshop_order_id" bigint not null, "number" bigint null, "state" text check ("state" in ('received', 'held', 'sending', 'sent', 'processed', 'rejected', 'invoiced', 'shipped', 'cancelled', 'uncertain')) not null default 'received', "hold_reason" varchar(1000) null, "payment_status" varchar(16) null, "total" varchar(20) null, "customer_name" varchar(255) null, "hiper_order_id" varchar(64) null, "hiper_code" varchar(32) null, "nfe_key" varchar(64) null, "tracking_code" varchar(128) null, "last_error" varchar(2000) null, "lines" jsonb not null, "history" jsonb not null, "received_at" timestamptz not null, "sent_at" timestamptz null, "updated_at" timestamptz not null, "search_text" text null, "store_status" varchar(16) null, "placed_at" timestamptz null, "sending_since" timestamptz null, "hiper_events_seen" int not null default 0, "created_at" timestamptz not null default now(), constraint "orders_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "orders_created_at_id_index" on "orders" ("created_at", "id");`);
    this.addSql(`create index "orders_client_id_created_at_index" on "orders" ("client_id", "created_at", "id");`);
    this.addSql(`create index "orders_state_created_at_index" on "orders" ("state", "created_at", "id");`);
    this.addSql(`create index "orders_search_text_trgm_index" on "orders" using gin ("search_text" gin_trgm_ops);`);
    this.addSql(
      `alter table "orders" add constraint "orders_client_id_nuvemshop_order_id_unique" unique ("client_id", "nuvemshop_order_id");`,
    );

    this.addSql(
      `create table "order_clients" ("client_id" uuid not null, "swept_until" timestamptz null, "webhooks_for" varchar(64) null, constraint "order_clients_pkey" primary key ("client_id"));`,
    );

    this.addSql(
      `alter table "orders" add constraint "orders_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "order_clients" add constraint "order_clients_client_id_foreign" foreign key ("client_id") references "clients" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "clients" add column "orders_enabled" boolean not null default false, add column "orders_send_on" text check ("orders_send_on" in ('paid', 'authorized')) not null default 'paid', add column "orders_payment_ids" varchar(1000) null, add column "orders_release_on" text check ("orders_release_on" in ('invoiced', 'processed')) not null default 'invoiced', add column "orders_cancel_in_store" boolean not null default true, add column "hiper_marketplace_cnpj" varchar(14) null, add column "hiper_marketplace_name" varchar(255) null, add column "orders_enabled_at" timestamptz null;`,
    );

    // Orders placed before a client's orders were turned on are never sent: the moment is kept whichever door turns
    // them on (REST, GraphQL, the admin).
    this.addSql(`create or replace function clients_orders_enabled_at() returns trigger language plpgsql as $$
      begin
        if new.orders_enabled and (tg_op = 'INSERT' or not old.orders_enabled) then
          new.orders_enabled_at := now();
        end if;
        return new;
      end $$;`);
    this.addSql(`create trigger clients_orders_enabled_at before insert or update of orders_enabled on clients
      for each row execute function clients_orders_enabled_at();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists clients_orders_enabled_at on clients;`);
    this.addSql(`drop function if exists clients_orders_enabled_at();`);
    this.addSql(`drop table if exists "orders" cascade;`);

    this.addSql(`drop table if exists "order_clients" cascade;`);

    this.addSql(
      `alter table "clients" drop column "orders_enabled", drop column "orders_send_on", drop column "orders_payment_ids", drop column "orders_release_on", drop column "orders_cancel_in_store", drop column "hiper_marketplace_cnpj", drop column "hiper_marketplace_name", drop column "orders_enabled_at";`,
    );
  }
}
