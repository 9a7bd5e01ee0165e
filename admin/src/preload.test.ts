import { afterEach, describe, expect, it, vi } from 'vitest';
import { authProvider, clearSession } from './authProvider';
import { preloadSession } from './preload';
import { TOKEN_KEY } from './token';

/** The gateway's answers to the start's two reads, and the operations asked for, in order. */
function gateway() {
  const asked: string[] = [];
  const fetch = vi.fn(async (_url: string, init?: RequestInit) => {
    const { query } = JSON.parse(String(init?.body)) as { query: string };
    const operation = /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? '?';
    asked.push(operation);
    const data =
      operation === 'Me'
        ? { me: { id: 'u1', email: 'me@example.com', full_name: 'Me', is_active: true, is_superuser: false } }
        : { items: [], total: { count: 0 } };
    return new Response(JSON.stringify({ data }), { headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, asked };
}

afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
  localStorage.clear();
});

describe('a signed-in start', () => {
  it("asks for the list's rows first, then who the user is, and the app reads that answer without asking again", async () => {
    const { fetch, asked } = gateway();
    localStorage.setItem(TOKEN_KEY, 'a-token');
    preloadSession({ pathname: '/clientes', search: '' });
    expect(asked).toHaveLength(2);
    expect(asked[0]).not.toBe('Me');
    expect(asked[1]).toBe('Me');
    await expect(authProvider.getIdentity!()).resolves.toMatchObject({ email: 'me@example.com', fullName: 'Me' });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('asks who the user is on a screen that is not a list', async () => {
    const { asked } = gateway();
    localStorage.setItem(TOKEN_KEY, 'a-token');
    preloadSession({ pathname: '/', search: '' });
    expect(asked).toEqual(['Me']);
  });

  it('asks for nothing signed out', () => {
    const { fetch } = gateway();
    preloadSession({ pathname: '/clientes', search: '' });
    expect(fetch).not.toHaveBeenCalled();
  });
});
