import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import type { PlainRows } from '../database/plain-rows';
import { PROJECT_NAME } from '../email/layout';
import type { Mail } from '../email/mailer';
import { resetPasswordEmail } from '../email/reset-password.email';
import type { JobQueue } from '../queue/queue';
import {
  ApiError,
  inactiveUser,
  invalidCredentials,
  notAuthenticated,
  sessionOfInactiveUser,
  sessionUserGone,
} from '../errors';
import { messages } from '../messages';
import { DeletedUser, User } from './user.entity';
import type { UserService } from './user.service';
import { requireSuperuser } from '../auth/caller';
import { SIGNED_IN_PROPS, sessionIsCurrent, type LoginForm, type SignedInUser } from './user.schemas';
import type { NewPassword } from './user.resource';
import type { PasswordHasher } from '../auth/passwords';
import type { RateLimits } from '../auth/rate-limits';
import type { TokenIssuer } from '../auth/tokens';

import type { Caller } from '../auth/caller';

export type { Caller };

export const RECOVERY_MESSAGE = 'If that email is registered, we sent a password recovery link';

export class AuthService {
  constructor(
    private readonly orm: MikroORM,
    private readonly rows: PlainRows,
    private readonly config: Config,
    private readonly tokens: TokenIssuer,
    private readonly passwords: PasswordHasher,
    private readonly users: UserService,
    private readonly limits: RateLimits,
    private readonly jobs: JobQueue,
  ) {}

  /** The user behind an `Authorization` header, with the contract's statuses for every way it can fail. */
  async authenticate(authorization: string | undefined, address?: string): Promise<SignedInUser> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) throw notAuthenticated();
    const claims = this.tokens.readAccess(match[1]);
    // Every signed-in request starts here: a plain read, not an ORM entity (nothing in it is changed through it).
    const user = await this.rows.findOne(User, SIGNED_IN_PROPS, claims.sub);
    if (!user) {
      if (await this.orm.em.fork().count(DeletedUser, { id: claims.sub })) throw invalidCredentials();
      throw sessionUserGone();
    }
    const session = { id: claims.sid, version: claims.ver };
    if (!sessionIsCurrent(user, session)) throw invalidCredentials();
    if (!user.isActive) throw sessionOfInactiveUser();
    return { ...user, session, address };
  }

  async login(form: LoginForm, caller: Caller): Promise<{ access_token: string; token_type: 'bearer' }> {
    const email = form.username.trim().toLowerCase();
    await this.limits.beforeLogin(email, caller.ip);
    const user = await this.orm.em.fork().findOne(User, { email });
    const valid = user
      ? await this.passwords.verify(form.password, user.hashedPassword)
      : await this.passwords.verifyNobody(form.password);
    // The failure was counted before the check (RateLimits.beforeLogin).
    if (!user || !valid) throw new ApiError(400, messages.incorrectLogin);
    await this.limits.loginSucceeded(email, caller.ip);
    if (!user.isActive) throw inactiveUser();
    return { access_token: this.tokens.issueAccess(user), token_type: 'bearer' };
  }

  /**
   * Queues a recovery mail for any address, known or not, and answers at once. Every address costs the same work
   * here (rate-limit counts and one queued job, with no lookup, bcrypt or mail server in the way), so neither the
   * answer nor its timing tells registered addresses apart; the worker looks the address up and mails only an
   * active account. An address already sent its share of recovery mails in the window gets no more, whoever asks
   * and from wherever, and the answer stays the same, so it tells nothing either.
   */
  async recoverPassword(email: string, caller: Caller): Promise<string> {
    await this.limits.consume('recovery', caller.ip);
    if (await this.limits.recoveryMailAllowed(email)) {
      await this.jobs.send('mail', { kind: 'password-recovery', email });
    }
    return RECOVERY_MESSAGE;
  }

  async resetPassword(input: NewPassword, caller: Caller): Promise<string> {
    await this.limits.consume('reset', caller.ip);
    const claims = this.tokens.read(input.token, 'reset');
    const user = claims && (await this.orm.em.fork().findOne(User, { id: claims.sub }));
    // A used token is refused too: the password change raised the user's token version.
    if (!claims || !user || user.tokenVersion !== claims.ver) throw new ApiError(400, messages.invalidResetToken);
    if (!user.isActive) throw inactiveUser();
    await this.users.setPassword(user.id, input.new_password);
    return messages.passwordUpdated;
  }

  async recoveryHtml(caller: SignedInUser, email: string): Promise<string> {
    requireSuperuser(caller);
    const user = await this.orm.em.fork().findOne(User, { email });
    if (!user) throw new ApiError(404, messages.usernameNotFound);
    return this.recoveryEmail(user).html;
  }

  /** The recovery mail for `user`, with a fresh reset link (made when the mail is sent, never stored). */
  recoveryEmail(user: Pick<User, 'id' | 'email' | 'tokenVersion'>): Mail {
    const link = new URL('/reset-password', this.config.FRONTEND_HOST);
    link.searchParams.set('token', this.tokens.issueReset(user));
    return resetPasswordEmail({
      projectName: PROJECT_NAME,
      email: user.email,
      link: link.toString(),
      validHours: this.config.RESET_TOKEN_EXPIRE_HOURS,
    });
  }
}
