/** How often an open list or record dialog reads again what it shows. */
export const LIVE_REFRESH_MS = 5000;

/**
 * react-query's own refetch of the query a screen already runs (no second fetcher): a state or a code changes in front
 * of the person within seconds, and a hidden tab asks nothing (react-query holds the interval while it is hidden).
 */
export const liveQuery = { refetchInterval: LIVE_REFRESH_MS, refetchIntervalInBackground: false } as const;

/**
 * A record's dialog over a list: a little sooner than the list, as each answer of the list behind it sets the record
 * again (react-admin's getList fills each record's getOne), which starts react-query's interval over; at the list's
 * pace it would never come.
 */
export const liveRecordQuery = { ...liveQuery, refetchInterval: LIVE_REFRESH_MS - 1000 } as const;
