import { z } from 'zod';
import { Email, noNul, NUL_MESSAGE } from '../validation';
import { userResource, type UserPublic } from './user.resource';
import type { User } from './user.entity';

/** The user properties the public shape is made of: all a read for an answer selects. */
export const USER_PUBLIC_PROPS = userResource.full.props as readonly (keyof User & string)[];

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

export type SignedInUser = Pick<User, (typeof SIGNED_IN_PROPS)[number]> & {
  session?: Session;
  /** The address the request came from (as the proxy settings derive it): the audit log's. */
  address?: string;
};

/** True when a token of `session` is still valid for `user`: issued since the last revocation, or the kept one. */
export function sessionIsCurrent(
  user: Pick<User, 'tokenVersion' | 'keptSessionId' | 'keptSessionVersion'>,
  session: Session,
) {
  if (session.version === user.tokenVersion) return true;
  return session.id !== undefined && session.id === user.keptSessionId && session.version === user.keptSessionVersion;
}

/** The answer's shape of a user. */
export const toUserPublic = (u: object): UserPublic => userResource.toPublic(u);

export const LoginForm = z
  .object({ username: z.string().min(1).max(255).refine(noNul, NUL_MESSAGE), password: z.string().min(1).max(4096) })
  .meta({ id: 'Body_login_access_token' });

export const EmailParams = z.object({ email: Email });

export const Token = z.object({ access_token: z.string(), token_type: z.literal('bearer') }).meta({ id: 'Token' });

export type LoginForm = z.output<typeof LoginForm>;
