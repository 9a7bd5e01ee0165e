import type { AuthProvider, UserIdentity } from 'react-admin';
import { ApiError, TOKEN_KEY, getToken, graphql, rest } from './api';
import { accessByToken, canAccess } from './access';
import { MeDocument, type MeQuery } from '../../schema/generated/graphql';

export type CurrentUser = MeQuery['me'];

/**
 * Errors that mean the stored token no longer works (missing, expired, revoked, its user gone or inactive).
 * A GraphQL error says so by its code, `UNAUTHENTICATED`, whatever its status; any other code (`FORBIDDEN`
 * for a refusal) keeps the session. An error without a code (a REST call) is a session error when it is a 401.
 * react-admin's errors from the data provider carry the code in their body.
 */
export function isSessionError(error: unknown): boolean {
  const e = error as { status?: unknown; code?: unknown; body?: { code?: unknown } } | null | undefined;
  const code = e?.code ?? e?.body?.code;
  if (typeof code === 'string') return code === 'UNAUTHENTICATED';
  return e?.status === 401;
}

let currentUser: Promise<CurrentUser> | undefined;

/** The signed-in user, asked once per token through `me`. */
export function fetchCurrentUser(refresh = false): Promise<CurrentUser> {
  if (!getToken()) return Promise.reject(new ApiError(401, 'Not authenticated', 'UNAUTHENTICATED'));
  if (!currentUser || refresh) {
    currentUser = graphql(MeDocument).then((answer) => answer.me);
    currentUser.catch(() => (currentUser = undefined));
  }
  return currentUser;
}

export function clearSession() {
  localStorage.removeItem(TOKEN_KEY);
  currentUser = undefined;
}

export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    const answer = await rest<{ access_token: string }>(
      'POST',
      '/login/access-token',
      new URLSearchParams({ username, password }),
    );
    clearSession();
    localStorage.setItem(TOKEN_KEY, answer.access_token);
  },
  async logout() {
    clearSession();
    return '/login';
  },
  async checkAuth() {
    if (!getToken()) throw new Error('Not authenticated');
  },
  async checkError(error) {
    if (isSessionError(error)) {
      clearSession();
      throw new Error('Not authenticated');
    }
  },
  async getIdentity(): Promise<UserIdentity> {
    try {
      const user = await fetchCurrentUser();
      return { ...user, fullName: user.full_name || user.email };
    } catch (error) {
      if (isSessionError(error)) clearSession();
      throw error;
    }
  },
  // No getPermissions: who may open what is `canAccess` alone. react-admin's router asks for permissions before it
  // settles its routes; without the method it has them at once instead of after `me`.
  /** react-admin asks this for resource pages and `useCanAccess`: the rule of access.ts on the signed-in user. */
  async canAccess({ resource }) {
    return accessByToken(resource, !!getToken()) ?? canAccess(await fetchCurrentUser(), resource);
  },
};
