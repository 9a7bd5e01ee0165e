/** The route of a request no route answered (an unknown address, a refusal before routing). */
export const UNMATCHED_ROUTE = 'unmatched';

/** What a request's status reads as when its client went away before the answer was written. */
export const ABORTED = 'aborted';
