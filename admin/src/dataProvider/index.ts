import { HttpError, type DataProvider } from 'react-admin';
import type { ValidationIssue } from '../api';
import { claimPrefetched, fetchListPage, loadProvider, type ListParams } from './load';

type Method = 'getList' | 'getOne' | 'getMany' | 'getManyReference' | 'create' | 'update' | 'delete';

interface GraphQLFailure {
  graphQLErrors?: { message: string; extensions?: { status?: number; code?: string; detail?: ValidationIssue[] } }[];
  networkError?: { statusCode?: number; result?: { errors?: GraphQLFailure['graphQLErrors'] } };
}

/** GraphQL's own refusal of a variable (a Date that is not one): the field it names. */
const REFUSED_VARIABLE = /^Variable "\$(\w+)" got invalid value/;

/**
 * A refusal's messages by the field they concern, as react-admin's forms mark them (`body.errors`): each 422 issue
 * whose `loc` names a field, with the gateway's own text; a variable GraphQL itself refused, in Portuguese (its text is
 * graphql-js's English). Undefined when no field is named.
 */
function fieldErrors(errors: GraphQLFailure['graphQLErrors'], detail: unknown): Record<string, string> | undefined {
  const found: Record<string, string> = {};
  for (const issue of Array.isArray(detail) ? (detail as ValidationIssue[]) : []) {
    // `loc` starts where the value was (the body, or the query's arguments), then its field.
    const field = issue.loc.length > 1 ? issue.loc[1] : issue.loc[0];
    if (typeof field === 'string' && typeof issue.msg === 'string') found[field] ??= issue.msg;
  }
  for (const error of errors ?? []) {
    const variable = REFUSED_VARIABLE.exec(error.message)?.[1];
    if (variable) found[variable] ??= 'Valor em formato que o gateway não aceita: confira o que foi digitado';
  }
  return Object.keys(found).length ? found : undefined;
}

/**
 * react-admin's errors carry the gateway's status, `detail` and `code` (`UNAUTHENTICATED` for a session that can no
 * longer be used, `FORBIDDEN` for a refusal...), so checkError can tell an expired session from a refusal, and
 * notifications can show the server's text.
 */
export function toHttpError(error: unknown): HttpError {
  const body = (error as { body?: GraphQLFailure } | undefined)?.body ?? (error as GraphQLFailure);
  const graphQLErrors = body?.graphQLErrors?.length ? body.graphQLErrors : body?.networkError?.result?.errors;
  const graphQLError = graphQLErrors?.[0];
  const status =
    graphQLError?.extensions?.status ??
    body?.networkError?.statusCode ??
    (error as { status?: number } | undefined)?.status ??
    500;
  // An ApiError (api.ts: a call made without the GraphQL client) carries them itself.
  const own = error as { detail?: string | ValidationIssue[]; code?: string; message?: string } | undefined;
  const detail = graphQLError?.extensions?.detail ?? graphQLError?.message ?? own?.detail ?? own?.message;
  const message = Array.isArray(detail) ? (detail[0]?.msg ?? 'Validation Error') : (detail ?? 'Something went wrong.');
  const code = graphQLError?.extensions?.code ?? (typeof own?.code === 'string' ? own.code : undefined);
  const errors = fieldErrors(graphQLErrors, detail);
  return new HttpError(message, status, errors ? { detail, code, errors } : { detail, code });
}

const call =
  (method: Method) =>
  async (...args: unknown[]) => {
    const provider = await loadProvider();
    try {
      return await (provider[method] as (...a: unknown[]) => Promise<any>)(...args);
    } catch (error) {
      throw toHttpError(error);
    }
  };

const deleteOne = call('delete');

export const dataProvider = {
  /**
   * A list page: the one the start asked for, or a plain `fetch` of the list operation (load.ts), as the start makes
   * it. Apollo adds nothing to a read whose answer react-admin keeps, and its first call (loading it, preparing the
   * document) would be a long task on the main thread just after the rows appear (the next page's prefetch).
   */
  async getList(resource: string, params: ListParams) {
    try {
      return await (claimPrefetched(resource, params) ?? fetchListPage(resource, params));
    } catch (error) {
      throw toHttpError(error);
    }
  },
  getOne: call('getOne'),
  getMany: call('getMany'),
  getManyReference: call('getManyReference'),
  create: call('create'),
  update: call('update'),
  delete: deleteOne,
  updateMany: () => Promise.reject(new Error('Not supported')),
  /** Bulk delete: the gateway deletes one record per call, so each selected id is deleted in turn. */
  async deleteMany(resource: string, params: { ids: (string | number)[]; meta?: unknown }) {
    for (const id of params.ids) await deleteOne(resource, { id, meta: params.meta });
    return { data: params.ids };
  },
} as unknown as DataProvider;
