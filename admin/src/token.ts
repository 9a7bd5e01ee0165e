/** Where the session's access token is kept (SPEC §4): browser local storage, under `access_token`. */
export const TOKEN_KEY = 'access_token';

export const getToken = () => localStorage.getItem(TOKEN_KEY);
