/** Where the session's access token is kept: browser local storage, under `access_token`. */
export const TOKEN_KEY = 'access_token';

/**
 * The token, if signed in. The build's rendering of the public pages (prerendered/prerender.tsx) has no storage:
 * signed out.
 */
export const getToken = () => (typeof localStorage === 'undefined' ? null : localStorage.getItem(TOKEN_KEY));
