/** How often an open list or record dialog reads again what it shows. */
export const LIVE_REFRESH_MS = 5000;

/**
 * react-query's own refetch of the query a screen already runs (no second fetcher): a state or a code changes in front
 * of the person within seconds, and a hidden tab asks nothing (react-query holds the interval while it is hidden).
 */
export const liveQuery = { refetchInterval: LIVE_REFRESH_MS, refetchIntervalInBackground: false } as const;
