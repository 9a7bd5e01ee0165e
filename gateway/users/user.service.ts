import { CheckConstraintViolationException, raw, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Registration } from '../config';
import { ApiError, invalidCredentials } from '../errors';
import { requireSuperuser, type Caller } from '../auth/caller';
import type { PasswordHasher } from '../auth/passwords';
import type { RateLimits } from '../auth/rate-limits';
import { findPage, type ListOptions } from '../database/pagination';
import type { SearchLimits } from '../database/search-limits';
import type { MailJob } from '../queue/payloads';
import type { JobQueue } from '../queue/queue';
import type { PlainRows } from '../database/plain-rows';
import { DeletedUser, User } from './user.entity';
import { messages } from '../messages';
import { recordId } from '../validation';
import { CHANGED_SECRET, changesOf, recordAudit, type AuditActor, type AuditEntry } from '../kit/audit';
import { USER_PUBLIC_PROPS, toUserPublic, type Session, type SignedInUser } from './user.schemas';
import {
  userResource,
  type UpdatePassword,
  type UserCreate,
  type UserPublic,
  type UserRegister,
  type UserUpdate,
  type UserUpdateMe,
} from './user.resource';

const userNotFound = () => new ApiError(404, messages.userNotFound);

/** The notice an account's previous address gets when its email changes (none when it did not). */
function emailChangeNotice(previous: string, current: string): MailJob | undefined {
  return previous === current ? undefined : { kind: 'email-changed', email: previous, newEmail: current };
}

/** Raises the token version, which ends every earlier session of the user but `keep`. */
function endSessions(user: User, keep?: Session): void {
  user.tokenVersion += 1;
  user.keptSessionId = keep?.id ?? null;
  user.keptSessionVersion = keep?.id ? keep.version : null;
}
const emailTakenOnUpdate = () => new ApiError(409, messages.emailTakenOnUpdate);

/**
 * The database refuses any change that would leave no active superuser, however many superusers demote, deactivate
 * or delete each other at once (migration 20261127010000): a refusal the caller can read, never a failure.
 */
function lastSuperuserRefusal(error: unknown): unknown {
  const constraint =
    error instanceof CheckConstraintViolationException && (error as { constraint?: unknown }).constraint;
  return constraint === 'users_keep_an_active_superuser' ? new ApiError(403, messages.lastSuperuser) : error;
}

export class UserService {
  constructor(
    private readonly orm: MikroORM,
    private readonly rows: PlainRows,
    private readonly searches: SearchLimits,
    private readonly passwords: PasswordHasher,
    private readonly limits: RateLimits,
    /** Who may sign up (USERS_OPEN_REGISTRATION). */
    readonly registration: Registration,
    private readonly jobs: JobQueue,
  ) {}

  async list(caller: SignedInUser, options: ListOptions): Promise<{ data: UserPublic[]; count: number }> {
    requireSuperuser(caller);
    const scope = { search: userResource.searched };
    const { rows, count } = await this.searches.around(caller.id, options, () =>
      findPage(this.rows, User, USER_PUBLIC_PROPS, scope, options, userResource.sortable, { table: 'users' }),
    );
    return { data: rows.map(toUserPublic), count };
  }

  /** A superuser creates an account (POST /users/). */
  async create(caller: SignedInUser, input: UserCreate): Promise<UserPublic> {
    requireSuperuser(caller);
    return this.insert(input, messages.emailTakenOnCreate, { welcome: true, actor: caller, action: 'create' });
  }

  /**
   * Anyone opens an ordinary account (POST /users/signup): active at once when registration is open, inactive until a
   * superuser activates it under approval, refused when closed.
   */
  async signup(input: UserRegister, caller: Caller): Promise<UserPublic> {
    if (this.registration === 'closed') {
      throw new ApiError(403, messages.registrationClosed);
    }
    await this.limits.consume('signup', caller.ip);
    // Whoever opens an account is its new owner: recorded as them, from their address.
    return this.insert(
      { ...input, is_active: this.registration === 'open', is_superuser: false },
      messages.emailTakenOnSignup,
      { actor: { address: caller.ip }, action: 'signup' },
    );
  }

  async get(caller: SignedInUser, id: string): Promise<UserPublic> {
    if (id === caller.id) return toUserPublic(caller);
    requireSuperuser(caller);
    const user = await this.rows.findOne(User, USER_PUBLIC_PROPS, recordId(id));
    if (!user) throw userNotFound();
    return toUserPublic(user);
  }

  async update(caller: SignedInUser, id: string, input: UserUpdate): Promise<UserPublic> {
    requireSuperuser(caller);
    // Nobody takes the last word from themselves; another superuser may, unless they are the last (the database
    // keeps one, see lastSuperuserRefusal).
    if (id === caller.id && (input.is_superuser === false || input.is_active === false)) {
      throw new ApiError(403, messages.noSelfDemotion);
    }
    const em = this.orm.em.fork();
    const user = await em.findOne(User, { id: recordId(id) });
    if (!user) throw new ApiError(404, messages.userIdNotFound);
    const before = toUserPublic(user);
    const previousEmail = user.email;
    if (input.email !== undefined && input.email !== user.email) {
      if (await em.count(User, { email: input.email })) throw emailTakenOnUpdate();
      user.email = input.email;
    }
    if (input.full_name !== undefined) user.fullName = input.full_name;
    if (input.is_superuser !== undefined) user.isSuperuser = input.is_superuser;
    if (input.receives_alerts !== undefined) user.receivesAlerts = input.receives_alerts;
    if (input.password !== undefined) {
      user.hashedPassword = await this.passwords.hash(input.password);
      // Someone else's password: all their sessions end. A superuser's own: the session doing it goes on.
      endSessions(user, id === caller.id ? caller.session : undefined);
    }
    if (input.is_active !== undefined && input.is_active !== user.isActive) {
      user.isActive = input.is_active;
      if (!input.is_active) endSessions(user);
    }
    await this.save(
      em,
      emailTakenOnUpdate,
      emailChangeNotice(previousEmail, user.email),
      this.audit(caller, 'update', user, before, input.password !== undefined),
    );
    return toUserPublic(user);
  }

  async delete(caller: SignedInUser, id: string): Promise<UserPublic> {
    requireSuperuser(caller);
    const em = this.orm.em.fork();
    const user = await em.findOne(User, { id: recordId(id) });
    if (!user) throw userNotFound();
    if (user.id === caller.id) throw new ApiError(403, messages.noSelfDeletion);
    await this.remove(em, user, caller);
    return toUserPublic(user);
  }

  async updateMe(caller: SignedInUser, input: UserUpdateMe): Promise<UserPublic> {
    const em = this.orm.em.fork();
    const user = await em.findOneOrFail(User, { id: caller.id });
    const before = toUserPublic(user);
    const previousEmail = user.email;
    if (input.email !== undefined && input.email !== user.email) {
      if (await em.count(User, { email: input.email })) throw emailTakenOnUpdate();
      user.email = input.email;
    }
    if (input.full_name !== undefined) user.fullName = input.full_name;
    if (input.receives_alerts !== undefined) user.receivesAlerts = input.receives_alerts;
    await this.save(
      em,
      emailTakenOnUpdate,
      emailChangeNotice(previousEmail, user.email),
      this.audit(caller, 'update', user, before),
    );
    return toUserPublic(user);
  }

  async updatePassword(caller: SignedInUser, input: UpdatePassword): Promise<void> {
    if (!(await this.passwords.verify(input.current_password, caller.hashedPassword))) {
      throw new ApiError(400, messages.incorrectPassword);
    }
    if (input.current_password === input.new_password) {
      throw new ApiError(400, messages.samePassword);
    }
    const hashed = await this.passwords.hash(input.new_password);
    // The token that made the change stays valid (remembered as the kept session); every other earlier one ends.
    // The statement only applies while that token is still current: a change made meanwhile from another session
    // ended it, and then this one is refused like any ended session.
    const session = caller.session ?? { version: caller.tokenVersion };
    const kept = session.id ?? null;
    const em = this.orm.em.fork();
    await em.begin();
    const changed = await em
      .createQueryBuilder(User)
      .update({
        hashedPassword: hashed,
        tokenVersion: raw('token_version + 1'),
        keptSessionId: kept,
        keptSessionVersion: kept ? session.version : null,
        updatedAt: new Date(),
      })
      .where({
        id: caller.id,
        $or: [
          { tokenVersion: session.version },
          ...(kept ? [{ keptSessionId: kept, keptSessionVersion: session.version }] : []),
        ],
      })
      .execute('run')
      .catch(async (error: unknown) => {
        await em.rollback();
        throw error;
      });
    if (!changed.affectedRows) {
      await em.rollback();
      throw invalidCredentials();
    }
    try {
      await recordAudit(em, caller, {
        action: 'password',
        resource: 'User',
        recordId: caller.id,
        changes: { password: { before: CHANGED_SECRET, after: CHANGED_SECRET } },
      });
      await em.commit();
    } catch (error) {
      await em.rollback().catch(() => undefined);
      throw error;
    }
  }

  async deleteMe(caller: SignedInUser): Promise<void> {
    if (caller.isSuperuser) throw new ApiError(403, messages.noSelfDeletion);
    const em = this.orm.em.fork();
    await this.remove(em, em.getReference(User, caller.id), caller, toUserPublic(caller));
  }

  /** Set a new password and revoke every token issued before it. */
  async setPassword(userId: string, password: string): Promise<void> {
    const hashed = await this.passwords.hash(password);
    await this.orm.em
      .fork()
      .createQueryBuilder(User)
      .update({
        hashedPassword: hashed,
        tokenVersion: raw('token_version + 1'),
        keptSessionId: null,
        keptSessionVersion: null,
        updatedAt: new Date(),
      })
      .where({ id: userId })
      .execute();
  }

  /** Creates the first superuser when no account has its email; changes nothing otherwise. */
  async ensureSuperuser(email: string, password: string): Promise<boolean> {
    const em = this.orm.em.fork();
    if (await em.count(User, { email: email.toLowerCase() })) return false;
    try {
      await this.insert(
        { email: email.toLowerCase(), password, full_name: null, is_active: true, is_superuser: true },
        '',
      );
      return true;
    } catch (error) {
      if (error instanceof ApiError) return false; // another process created it first
      throw error;
    }
  }

  private async insert(
    input: UserCreate,
    takenDetail: string,
    {
      welcome = false,
      actor,
      action = 'create',
    }: { welcome?: boolean; actor?: Omit<AuditActor, 'id'> & { id?: string }; action?: 'create' | 'signup' } = {},
  ): Promise<UserPublic> {
    const em = this.orm.em.fork();
    if (await em.count(User, { email: input.email })) throw new ApiError(400, takenDetail);
    const user = em.create(User, {
      ...(userResource.toEntity(input, 'create') as Pick<User, 'email'>),
      // Superusers hear about clients in trouble unless they say otherwise; anyone else chooses to.
      receivesAlerts: input.receives_alerts ?? input.is_superuser ?? false,
      hashedPassword: await this.passwords.hash(input.password),
    });
    // Two signups with one email at the same moment: the unique index decides, the loser gets the same 400.
    await this.save(
      em,
      () => new ApiError(400, takenDetail),
      welcome ? { kind: 'new-account', email: user.email } : undefined,
      actor && (() => this.audit({ id: user.id, email: user.email, ...actor }, action, user, null, true)()),
    );
    return toUserPublic(user);
  }

  private async remove(
    em: ReturnType<MikroORM['em']['fork']>,
    user: User,
    actor: SignedInUser,
    was: UserPublic = toUserPublic(user),
  ): Promise<void> {
    try {
      await em.transactional(async (tx) => {
        // Items go with their owner through the foreign key's ON DELETE CASCADE.
        await tx.nativeDelete(User, { id: user.id });
        await tx.upsert(DeletedUser, { id: user.id, deletedAt: new Date() });
        await recordAudit(tx, actor, {
          action: 'delete',
          resource: 'User',
          recordId: user.id,
          changes: changesOf(userResource.fields, was, null),
        });
      });
    } catch (error) {
      throw lastSuperuserRefusal(error);
    }
  }

  /**
   * The audit row of a change to an account, worked out once it is written: the fields changed (its password as
   * `alterado` when it changed, never a hash).
   */
  private audit(
    actor: AuditActor,
    action: 'create' | 'update' | 'signup',
    user: User,
    before: UserPublic | null,
    password = false,
  ): () => { actor: AuditActor; entry: AuditEntry } {
    return () => {
      const changes = changesOf(userResource.fields, before, toUserPublic(user));
      if (password)
        changes.password = before ? { before: CHANGED_SECRET, after: CHANGED_SECRET } : { after: CHANGED_SECRET };
      return { actor, entry: { action, resource: 'User', recordId: user.id, changes } };
    };
  }

  /**
   * Writes `em`'s changes and queues `mail` in one transaction: the mail exists only if the change does (a unique
   * violation, which becomes `onConflict()`, or any other failure queues nothing).
   */
  private async save(
    em: ReturnType<MikroORM['em']['fork']>,
    onConflict: () => ApiError,
    mail?: MailJob,
    /** The person's audit row, asked once the change is written (a new account has its id then). */
    audit?: () => { actor: AuditActor; entry: AuditEntry },
  ): Promise<void> {
    try {
      await em.begin();
      try {
        if (mail) await this.jobs.send('mail', mail, { em });
        if (audit) {
          await em.flush();
          const { actor, entry } = audit();
          await recordAudit(em, actor, entry);
        }
        await em.commit(); // flushes the changes inside the transaction, then commits
      } catch (error) {
        // The error that made it roll back is the one to report, even if the rollback fails too.
        await em.rollback().catch(() => undefined);
        throw error;
      }
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw onConflict();
      throw lastSuperuserRefusal(error);
    }
  }
}
