import { randomUUID } from 'node:crypto';
import { Entity, Index, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

@Entity({ tableName: 'users' })
@Index({ name: 'users_created_at_id_index', properties: ['createdAt', 'id'] })
// For `q` (`ilike '%text%'`, gateway/database/pagination.ts): a trigram index per searchable field.
@Index({
  name: 'users_email_trgm_index',
  expression: 'create index "users_email_trgm_index" on "users" using gin ("email" gin_trgm_ops)',
})
@Index({
  name: 'users_full_name_trgm_index',
  expression: 'create index "users_full_name_trgm_index" on "users" using gin ("full_name" gin_trgm_ops)',
})
export class User {
  [OptionalProps]?:
    | 'isActive'
    | 'isSuperuser'
    | 'tokenVersion'
    | 'keptSessionId'
    | 'keptSessionVersion'
    | 'createdAt'
    | 'updatedAt'
    | 'fullName';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** Stored lower-cased, so uniqueness holds regardless of letter case. */
  @Property({ type: 'string', length: 255, unique: 'users_email_unique' })
  email!: string;

  @Property({ type: 'string', length: 255, nullable: true })
  fullName?: string | null;

  @Property({ type: 'string', length: 255, hidden: true, lazy: false })
  hashedPassword!: string;

  @Property({ type: 'boolean', default: true })
  isActive: boolean = true;

  @Property({ type: 'boolean', default: false })
  isSuperuser: boolean = false;

  /** Raised on every password change and deactivation: tokens carrying an older value are refused. */
  @Property({ type: 'integer', default: 0 })
  tokenVersion: number = 0;

  /**
   * The session (access token `sid`) that changed the password last, and the token version it was issued with:
   * that one token stays valid across the change that raised `tokenVersion`, while every other earlier one ends.
   * Cleared by every change that ends all sessions (a reset, a superuser's new password, a deactivation).
   */
  @Property({ type: 'uuid', nullable: true })
  keptSessionId?: string | null = null;

  @Property({ type: 'integer', nullable: true })
  keptSessionVersion?: number | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** Ids of deleted users, so their earlier tokens are told apart from forged ones and refused with 403. */
@Entity({ tableName: 'deleted_users' })
export class DeletedUser {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  deletedAt: Date = new Date();
}
