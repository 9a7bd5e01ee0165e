import { messages } from './messages';

/**
 * Domain errors. Services throw them; the REST error handler and the GraphQL error formatter
 * translate them, so each status and `detail` text is written once, here or in the service.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    /** The GraphQL `extensions.code`, when the status alone does not say it (a session that no longer works). */
    readonly code?: string,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** A request that does not match its schema: HTTP 422 with one entry per problem. */
export class ValidationFailed extends Error {
  readonly status = 422;
  constructor(readonly issues: ValidationIssue[]) {
    super(issues[0]?.msg ?? 'Validation Error');
    this.name = 'ValidationFailed';
  }
}

/** The code of every failure that means "sign in again", whatever its REST status, so clients need no texts. */
export const SESSION_CODE = 'UNAUTHENTICATED';

export const notAuthenticated = () =>
  new ApiError(401, messages.notAuthenticated, { 'WWW-Authenticate': 'Bearer' }, SESSION_CODE);
export const invalidCredentials = () => new ApiError(403, messages.invalidCredentials, {}, SESSION_CODE);
export const notEnoughPrivileges = () => new ApiError(403, messages.notEnoughPrivileges);
export const inactiveUser = () => new ApiError(400, messages.inactiveUser);
/** A token whose user has been deactivated, or no longer exists. */
export const sessionOfInactiveUser = () => new ApiError(400, messages.inactiveUser, {}, SESSION_CODE);
export const sessionUserGone = () => new ApiError(404, messages.userNotFound, {}, SESSION_CODE);

export class TooManyRequests extends ApiError {
  constructor(retryAfterSeconds: number, detail: string = messages.tooManyRequests) {
    super(429, detail, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** PostgreSQL cannot be reached: the caller may retry, so REST and GraphQL both answer this. */
export const databaseUnavailable = () => new ApiError(503, messages.databaseUnavailable, { 'Retry-After': '5' });
/** Too many searches running or waiting, the caller's or everyone's: another may start once one has answered. */
export const tooManySearchesOfUser = (max: number) =>
  new ApiError(429, messages.tooManySearchesOfUser(max), { 'Retry-After': '1' });
export const tooManySearches = () => new ApiError(429, messages.tooManySearches, { 'Retry-After': '1' });
/** A search PostgreSQL cancelled at the statement timeout: the same search would be cancelled again, so no Retry-After. */
export const searchTimedOut = () => new ApiError(503, messages.searchTimedOut);

const REASONS: Record<number, string> = {
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'BAD_USER_INPUT',
  429: 'TOO_MANY_REQUESTS',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

/** The GraphQL `extensions.code` for an HTTP status. 400 is a caller mistake, as in Apollo. */
export function codeForStatus(status: number): string {
  if (status === 400) return 'BAD_USER_INPUT';
  return REASONS[status] ?? 'INTERNAL_SERVER_ERROR';
}
