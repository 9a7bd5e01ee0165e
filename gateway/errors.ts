/**
 * Domain errors. Services throw them; the REST error handler and the GraphQL error formatter
 * translate them, so each status and `detail` text is written once, here or in the service.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
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

export const notAuthenticated = () => new ApiError(401, 'Not authenticated', { 'WWW-Authenticate': 'Bearer' });
export const invalidCredentials = () => new ApiError(403, 'Could not validate credentials');
export const notEnoughPrivileges = () => new ApiError(403, "The user doesn't have enough privileges");
export const inactiveUser = () => new ApiError(400, 'Inactive user');

export class TooManyRequests extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(429, 'Too many requests', { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** PostgreSQL cannot be reached: the caller may retry, so REST and GraphQL both answer this. */
export const databaseUnavailable = () =>
  new ApiError(503, 'Service temporarily unavailable, try again shortly', { 'Retry-After': '5' });

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
