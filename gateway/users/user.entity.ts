import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { entityWith, type EntityOf } from '../kit/entity';
import { userResource } from './user.resource';

/**
 * A staff account as the ORM holds it: the fields its declaration (user.resource.ts) gives, and what a user's row
 * holds beyond them, never answered: the password's hash and what ends its sessions.
 */
export type User = EntityOf<typeof userResource> & {
  hashedPassword: string;
  /** Raised on every password change and deactivation: tokens carrying an older value are refused. */
  tokenVersion: Opt<number>;
  /**
   * The session (access token `sid`) that changed the password last, and the token version it was issued with:
   * that one token stays valid across the change that raised `tokenVersion`, while every other earlier one ends.
   * Cleared by every change that ends all sessions (a reset, a superuser's new password, a deactivation).
   */
  keptSessionId?: string | null;
  keptSessionVersion?: number | null;
};

/** The users' entity: derived from the declaration (email stored lower-cased, so uniqueness ignores case). */
export const User = entityWith<typeof userResource, User>(userResource, {
  hashedPassword: { type: 'string', length: 255, hidden: true, lazy: false },
  tokenVersion: { type: 'integer', default: 0 },
  keptSessionId: { type: 'uuid', nullable: true },
  keptSessionVersion: { type: 'integer', nullable: true },
});

/** Ids of deleted users, so their earlier tokens are told apart from forged ones and refused with 403. */
@Entity({ tableName: 'deleted_users' })
export class DeletedUser {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  deletedAt: Date = new Date();
}
