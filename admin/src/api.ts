import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';

import { getToken } from './token';

export { getToken, TOKEN_KEY } from './token';

/** One entry of a validation error list, as the gateway answers it (REST `detail` or GraphQL `extensions.detail`). */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** A GraphQL error as the gateway answers it: its message, and its status, code and validation issues. */
export interface GraphQLError {
  message: string;
  extensions?: { code?: string; status?: number; detail?: ValidationIssue[] };
}

/**
 * A failed call, REST or GraphQL, in the one shape the admin reads: the HTTP status, the server's `detail` (a text, or
 * a list of validation issues), for a GraphQL error its `extensions.code` (`UNAUTHENTICATED` when the session is
 * unusable, `FORBIDDEN` for a refusal), and the messages by the field they concern. `body` is react-admin's
 * HttpError's: its forms mark the fields of `body.errors`, and checkError reads `body.code`.
 */
export class ApiError extends Error {
  readonly body: { detail: string | ValidationIssue[] | undefined; code?: string; errors?: Record<string, string> };

  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[] | undefined,
    readonly code?: string,
    errors?: Record<string, string>,
  ) {
    super(
      typeof detail === 'string' ? detail : Array.isArray(detail) ? (detail[0]?.msg ?? 'Validation Error') : 'Error',
    );
    this.name = 'ApiError';
    this.body = errors ? { detail, code, errors } : { detail, code };
  }
}

/** GraphQL's own refusal of a variable (a Date that is not one): the field it names. */
const REFUSED_VARIABLE = /^Variable "\$(\w+)" got invalid value/;

/**
 * A refusal's messages by the field they concern: each 422 issue whose `loc` names a field, with the gateway's own
 * text; a variable GraphQL itself refused, in Portuguese (its text is graphql-js's English). Undefined when no field
 * is named.
 */
function fieldErrors(detail: unknown, errors: readonly GraphQLError[] = []): Record<string, string> | undefined {
  const found: Record<string, string> = {};
  for (const issue of Array.isArray(detail) ? (detail as ValidationIssue[]) : []) {
    // `loc` starts where the value was (the body, or the query's arguments), then its field.
    const field = issue.loc.length > 1 ? issue.loc[1] : issue.loc[0];
    if (typeof field === 'string' && typeof issue.msg === 'string') found[field] ??= issue.msg;
  }
  for (const error of errors) {
    const variable = REFUSED_VARIABLE.exec(error.message)?.[1];
    if (variable) found[variable] ??= 'Valor em formato que o gateway não aceita: confira o que foi digitado';
  }
  return Object.keys(found).length ? found : undefined;
}

/** A GraphQL answer's errors as one ApiError: the first error's status (else the response's), detail and code. */
export function answerError(responseStatus: number, errors: readonly GraphQLError[]): ApiError {
  const [first] = errors;
  const { status, detail, code } = first?.extensions ?? {};
  const shown = detail ?? first?.message;
  return new ApiError(status ?? responseStatus, shown, code, fieldErrors(shown, errors));
}

/** What browsers call a request that got no answer (Chromium, Firefox, Safari). */
const NO_ANSWER = /^(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed)$/;

/** A call that got no answer at all (the network or the server down), as opposed to a refusal or a failure answered. */
export const isNetworkFailure = (error: unknown): boolean =>
  NO_ANSWER.test(String((error as { message?: unknown } | undefined)?.message ?? ''));

/** The text to show for a failure: the server's detail, or the first validation message when it is a list. */
export function errorText(error: unknown, fallback = 'Something went wrong.'): string {
  const detail =
    (error as { detail?: unknown; body?: { detail?: unknown } } | undefined)?.detail ??
    (error as { body?: { detail?: unknown } } | undefined)?.body?.detail;
  if (typeof detail === 'string' && detail) return detail;
  if (Array.isArray(detail) && detail.length && typeof detail[0]?.msg === 'string') return detail[0].msg;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

function authHeaders(): Record<string, string> {
  const token = getToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

async function readAnswer(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

/** A call to the REST API under /api/v1. A JSON body is sent as JSON, URLSearchParams as a form. */
export async function rest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders() };
  let payload: BodyInit | undefined;
  if (body instanceof URLSearchParams) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    payload = body.toString();
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(`/api/v1${path}`, { method, headers, body: payload });
  const answer = await readAnswer(response);
  if (!response.ok) {
    const detail = (answer as { detail?: string | ValidationIssue[] } | undefined)?.detail;
    throw new ApiError(response.status, detail, undefined, fieldErrors(detail));
  }
  return answer as T;
}

interface GraphQLAnswer<T> {
  data?: T | null;
  errors?: GraphQLError[];
}

/** An operation's name, sent beside its text as GraphQL clients do: the gateway's logs and errors name it. */
const OPERATION_NAME = /^\s*(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/;

/**
 * The admin's one way to /graphql: every operation (the data provider's, the first list page a start asks for, the
 * account's) is sent here, with the session's token, and fails as one ApiError. `document` is the operation's text
 * (the generated documents are typed strings).
 */
export async function graphql<T, V extends Record<string, unknown>>(
  document: DocumentTypeDecoration<T, V> & { toString(): string },
  variables?: V,
  signal?: AbortSignal,
): Promise<T> {
  const query = document.toString();
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...authHeaders() },
    body: JSON.stringify({ operationName: OPERATION_NAME.exec(query)?.[1], query, variables }),
    signal,
  });
  const answer = (await readAnswer(response)) as GraphQLAnswer<T> | undefined;
  if (answer?.errors?.length) throw answerError(response.status, answer.errors);
  if (!response.ok || !answer?.data) throw new ApiError(response.status, undefined);
  return answer.data;
}
