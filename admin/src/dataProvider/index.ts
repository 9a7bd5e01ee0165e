import { HttpError, type DataProvider } from 'react-admin';
import type { ValidationIssue } from '../api';
import { claimPrefetched, loadProvider, type ListParams } from './load';

type Method = 'getList' | 'getOne' | 'getMany' | 'getManyReference' | 'create' | 'update' | 'delete';

interface GraphQLFailure {
  graphQLErrors?: { message: string; extensions?: { status?: number; code?: string; detail?: ValidationIssue[] } }[];
  networkError?: { statusCode?: number; result?: { errors?: GraphQLFailure['graphQLErrors'] } };
}

/**
 * react-admin's errors carry the gateway's status, `detail` and `code` (`UNAUTHENTICATED` for a session that can no
 * longer be used, `FORBIDDEN` for a refusal...), so checkError can tell an expired session from a refusal, and
 * notifications can show the server's text.
 */
export function toHttpError(error: unknown): HttpError {
  const body = (error as { body?: GraphQLFailure } | undefined)?.body ?? (error as GraphQLFailure);
  const graphQLError = body?.graphQLErrors?.[0] ?? body?.networkError?.result?.errors?.[0];
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
  return new HttpError(message, status, { detail, code });
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

const getList = call('getList');

export const dataProvider = {
  async getList(resource: string, params: Partial<ListParams>) {
    const prefetched = claimPrefetched(resource, params);
    if (!prefetched) return getList(resource, params);
    try {
      return await prefetched;
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
