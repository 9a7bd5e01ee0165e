import { HttpError } from 'react-admin';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, TOKEN_KEY } from './api';
import { authProvider, clearSession, isSessionError } from './authProvider';

const answer = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });

const me = (is_superuser: boolean) =>
  answer({ data: { me: { id: '1', email: 'me@example.com', full_name: null, is_active: true, is_superuser } } });

beforeEach(() => {
  clearSession();
  localStorage.setItem(TOKEN_KEY, 'a-token');
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

describe('isSessionError', () => {
  it('reads the GraphQL code, whatever the status', () => {
    expect(isSessionError(new ApiError(403, 'Could not validate credentials', 'UNAUTHENTICATED'))).toBe(true);
    expect(isSessionError(new ApiError(404, 'User not found', 'UNAUTHENTICATED'))).toBe(true);
    expect(isSessionError(new ApiError(403, 'Could not validate credentials', 'FORBIDDEN'))).toBe(false);
    expect(isSessionError(new ApiError(401, 'Not authenticated', 'FORBIDDEN'))).toBe(false);
  });

  it("reads the code react-admin's errors carry in their body", () => {
    expect(isSessionError(new HttpError('whatever', 403, { detail: 'x', code: 'UNAUTHENTICATED' }))).toBe(true);
    expect(isSessionError(new HttpError('Not authenticated', 401, { detail: 'x', code: 'FORBIDDEN' }))).toBe(false);
    expect(isSessionError(new HttpError("The user doesn't have enough privileges", 403, { code: 'FORBIDDEN' }))).toBe(
      false,
    );
  });

  it('takes a 401 without a code (a REST call) for a session error, not any other status', () => {
    expect(isSessionError(new ApiError(401, 'Not authenticated'))).toBe(true);
    expect(isSessionError(new ApiError(403, 'Could not validate credentials'))).toBe(false);
    expect(isSessionError(new Error('Not authenticated'))).toBe(false);
    expect(isSessionError(undefined)).toBe(false);
  });
});

describe('authProvider', () => {
  it('keeps the session on a refusal and ends it on an unusable session', async () => {
    await expect(authProvider.checkError(new HttpError('No', 403, { code: 'FORBIDDEN' }))).resolves.toBeUndefined();
    expect(localStorage.getItem(TOKEN_KEY)).toBe('a-token');
    await expect(authProvider.checkError(new HttpError('No', 403, { code: 'UNAUTHENTICATED' }))).rejects.toThrow();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('lets superusers alone open Users Management', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(me(false)));
    await expect(authProvider.canAccess!({ resource: 'admin', action: 'list' })).resolves.toBe(false);
    await expect(authProvider.canAccess!({ resource: 'clientes', action: 'list' })).resolves.toBe(true);
    await expect(authProvider.canAccess!({ resource: 'items', action: 'edit' })).resolves.toBe(true);

    clearSession();
    localStorage.setItem(TOKEN_KEY, 'a-superuser-token');
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(me(true)));
    await expect(authProvider.canAccess!({ resource: 'admin', action: 'list' })).resolves.toBe(true);

    clearSession();
    await expect(authProvider.canAccess!({ resource: 'clientes', action: 'list' })).resolves.toBe(false);
  });

  it('forgets an identity whose session is gone, but not one that was refused', async () => {
    const unauthenticated = answer({
      data: null,
      errors: [{ message: 'Could not validate credentials', extensions: { code: 'UNAUTHENTICATED', status: 403 } }],
    });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(unauthenticated));
    await expect(authProvider.getIdentity!()).rejects.toMatchObject({ code: 'UNAUTHENTICATED', status: 403 });
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();

    localStorage.setItem(TOKEN_KEY, 'a-token');
    const forbidden = answer({
      data: null,
      errors: [{ message: 'No', extensions: { code: 'FORBIDDEN', status: 403 } }],
    });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(forbidden));
    await expect(authProvider.getIdentity!()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(localStorage.getItem(TOKEN_KEY)).toBe('a-token');
  });
});
