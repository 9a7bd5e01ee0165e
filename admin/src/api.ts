import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';

import { getToken } from './token';

export { getToken, TOKEN_KEY } from './token';

/** One entry of a validation error list, as the gateway answers it (REST `detail` or GraphQL `extensions.detail`). */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/**
 * A failed call: the HTTP status, the server's `detail` (a text, or a list of validation issues) and, for a
 * GraphQL error, its `extensions.code` (`UNAUTHENTICATED` when the session is unusable, `FORBIDDEN` for a refusal).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationIssue[] | undefined,
    readonly code?: string,
  ) {
    super(
      typeof detail === 'string' ? detail : Array.isArray(detail) ? (detail[0]?.msg ?? 'Validation Error') : 'Error',
    );
    this.name = 'ApiError';
  }
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
    throw new ApiError(response.status, (answer as { detail?: string | ValidationIssue[] } | undefined)?.detail);
  }
  return answer as T;
}

interface GraphQLAnswer<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; status?: number; detail?: ValidationIssue[] } }[];
}

/**
 * A GraphQL operation on /graphql without a client library: the account calls every page needs, and a list's first
 * page at start. `document` is the operation's text (the generated documents are typed strings).
 */
export async function graphql<T, V extends Record<string, unknown>>(
  document: DocumentTypeDecoration<T, V> & { toString(): string },
  variables?: V,
): Promise<T> {
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...authHeaders() },
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  const answer = (await readAnswer(response)) as GraphQLAnswer<T> | undefined;
  const first = answer?.errors?.[0];
  if (first) {
    const { status, detail, code } = first.extensions ?? {};
    throw new ApiError(status ?? response.status, detail ?? first.message, code);
  }
  if (!response.ok || !answer?.data) throw new ApiError(response.status, undefined);
  return answer.data;
}
