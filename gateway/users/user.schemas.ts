import { z } from 'zod';
import { Email, noNul, NUL_MESSAGE, Password, ShortText } from '../validation';
import type { User } from './user.entity';

export const UserPublic = z
  .object({
    id: z.guid(),
    email: z.string(),
    full_name: z.string().nullable(),
    is_active: z.boolean(),
    is_superuser: z.boolean(),
  })
  .meta({ id: 'UserPublic' });
export type UserPublic = z.output<typeof UserPublic>;

/** The user properties the public shape is made of: all a read for an answer selects. */
export const USER_PUBLIC_PROPS = [
  'id',
  'email',
  'fullName',
  'isActive',
  'isSuperuser',
] as const satisfies readonly (keyof User)[];

/** What a signed-in request knows of its user: the public fields, and what checks its password and tokens. */
export const SIGNED_IN_PROPS = [
  ...USER_PUBLIC_PROPS,
  'hashedPassword',
  'tokenVersion',
  'keptSessionId',
  'keptSessionVersion',
] as const;

/** The access token a request came with: its session id (absent on tokens older than sessions) and version. */
export interface Session {
  id?: string;
  version: number;
}

export type SignedInUser = Pick<User, (typeof SIGNED_IN_PROPS)[number]> & { session?: Session };

/** True when a token of `session` is still valid for `user`: issued since the last revocation, or the kept one. */
export function sessionIsCurrent(
  user: Pick<User, 'tokenVersion' | 'keptSessionId' | 'keptSessionVersion'>,
  session: Session,
) {
  if (session.version === user.tokenVersion) return true;
  return session.id !== undefined && session.id === user.keptSessionId && session.version === user.keptSessionVersion;
}

export const toUserPublic = (u: Pick<User, (typeof USER_PUBLIC_PROPS)[number]>): UserPublic => ({
  id: u.id,
  email: u.email,
  full_name: u.fullName ?? null,
  is_active: u.isActive,
  is_superuser: u.isSuperuser,
});

const FullName = ShortText.nullable().optional();

export const UserCreate = z
  .object({
    email: Email,
    password: Password,
    full_name: FullName,
    is_superuser: z.boolean().default(false),
    is_active: z.boolean().default(true),
  })
  .meta({ id: 'UserCreate' });

export const UserRegister = z
  .object({ email: Email, password: Password, full_name: FullName })
  .meta({ id: 'UserRegister' });

export const UserUpdateMe = z.object({ full_name: FullName, email: Email.optional() }).meta({ id: 'UserUpdateMe' });

export const UserUpdate = z
  .object({
    email: Email.optional(),
    full_name: FullName,
    password: Password.optional(),
    is_active: z.boolean().optional(),
    is_superuser: z.boolean().optional(),
  })
  .meta({ id: 'UserUpdate' });

export const UpdatePassword = z
  .object({ current_password: z.string().min(1).max(128), new_password: Password })
  .meta({ id: 'UpdatePassword' });

export const NewPassword = z
  .object({ token: z.string().min(1).max(2048), new_password: Password })
  .meta({ id: 'NewPassword' });

export const LoginForm = z
  .object({ username: z.string().min(1).max(255).refine(noNul, NUL_MESSAGE), password: z.string().min(1).max(4096) })
  .meta({ id: 'Body_login_access_token' });

export const EmailParams = z.object({ email: Email });

export const Token = z.object({ access_token: z.string(), token_type: z.literal('bearer') }).meta({ id: 'Token' });

export type UserCreate = z.output<typeof UserCreate>;
export type UserRegister = z.output<typeof UserRegister>;
export type UserUpdateMe = z.output<typeof UserUpdateMe>;
export type UserUpdate = z.output<typeof UserUpdate>;
export type UpdatePassword = z.output<typeof UpdatePassword>;
export type NewPassword = z.output<typeof NewPassword>;
export type LoginForm = z.output<typeof LoginForm>;
