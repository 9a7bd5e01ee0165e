import { Migration } from '@mikro-orm/migrations';

/**
 * A client's payment map becomes a jsonb object instead of JSON text. Text holding a JSON object is kept as that
 * object, entry for entry; anything else (an empty text, text that is not JSON, JSON that is not an object) becomes
 * null, which is what the orders already read it as: the default map.
 */
export class Migration20261201215951 extends Migration {
  override async up(): Promise<void> {
    // PostgreSQL 15 has no `is json`: a cast that fails is caught in a function, dropped once the column is converted.
    this.addSql(
      `create function "orders_payment_ids_object"(value text) returns jsonb language plpgsql immutable as $$
declare parsed jsonb;
begin
  parsed := value::jsonb;
  return case when jsonb_typeof(parsed) = 'object' then parsed end;
exception when others then
  return null;
end $$;`,
    );
    this.addSql(
      `alter table "clients" alter column "orders_payment_ids" type jsonb using ("orders_payment_ids_object"("orders_payment_ids"));`,
    );
    this.addSql(`drop function "orders_payment_ids_object"(text);`);
  }

  override async down(): Promise<void> {
    // Back to text; a map longer than the old column's 1000 characters becomes null (the default map).
    this.addSql(
      `alter table "clients" alter column "orders_payment_ids" type varchar(1000) using (case when length("orders_payment_ids"::text) <= 1000 then "orders_payment_ids"::text end);`,
    );
  }
}
