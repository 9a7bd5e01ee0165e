import type { AuthProvider, UserIdentity } from 'react-admin';
import { ApiError, TOKEN_KEY, getToken, graphql, rest } from './api';
import { MeDocument, type MeQuery } from '../../schema/generated/graphql';

export type CurrentUser = MeQuery['me'];

/** Errors that mean the stored token no longer works: missing, expired or revoked. */
export function isSessionError(error: unknown): boolean {
  const status = (error as { status?: number } | undefined)?.status;
  if (status === 401) return true;
  if (status !== 403) return false;
  const detail = errorDetail(error);
  // A 403 for lack of privileges is an answer about the page, not about the session.
  return detail !== "The user doesn't have enough privileges" && detail !== 'Not enough permissions';
}

function errorDetail(error: unknown): unknown {
  const e = error as { detail?: unknown; body?: { detail?: unknown } } | undefined;
  return e?.detail ?? e?.body?.detail ?? (error instanceof Error ? error.message : undefined);
}

let currentUser: Promise<CurrentUser> | undefined;

/** The signed-in user, asked once per token through `me`. */
export function fetchCurrentUser(refresh = false): Promise<CurrentUser> {
  if (!getToken()) return Promise.reject(new ApiError(401, 'Not authenticated'));
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
  async getPermissions() {
    if (!getToken()) return { isSuperuser: false };
    const user = await fetchCurrentUser();
    return { isSuperuser: user.is_superuser };
  },
};
