import { Migration } from '@mikro-orm/migrations';

/**
 * The system always keeps an active superuser: a change that takes the last one away (demoting, deactivating or
 * deleting them) is refused by the database, whichever process or statement makes it. Such changes wait for each
 * other on one transaction-level advisory lock, so each counts what those before it committed (READ COMMITTED, as
 * the gateway runs, gives each statement of the function a fresh snapshot).
 */
export class Migration20261127010000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function "keep_an_active_superuser"() returns trigger language plpgsql as $$
      begin
        perform pg_advisory_xact_lock(hashtext('users_keep_an_active_superuser'));
        if not exists (select 1 from "users" where "is_superuser" and "is_active") then
          raise exception 'the system must keep at least one active superuser'
            using errcode = 'check_violation', constraint = 'users_keep_an_active_superuser';
        end if;
        return null;
      end $$;`);
    this.addSql(`create constraint trigger "users_keep_an_active_superuser_on_update"
      after update of "is_superuser", "is_active" on "users" deferrable initially immediate for each row
      when (old."is_superuser" and old."is_active" and not (new."is_superuser" and new."is_active"))
      execute function "keep_an_active_superuser"();`);
    this.addSql(`create constraint trigger "users_keep_an_active_superuser_on_delete"
      after delete on "users" deferrable initially immediate for each row
      when (old."is_superuser" and old."is_active")
      execute function "keep_an_active_superuser"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger "users_keep_an_active_superuser_on_delete" on "users";`);
    this.addSql(`drop trigger "users_keep_an_active_superuser_on_update" on "users";`);
    this.addSql(`drop function "keep_an_active_superuser"();`);
  }
}
