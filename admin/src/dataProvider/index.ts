import type { DataProvider } from 'react-admin';
import { ApiError } from '../api';
import { claimPrefetched, loadProvider, type ListParams } from './load';
import type { ActionParams } from './writeOperations';

type Method = 'getList' | 'getOne' | 'getMany' | 'getManyReference' | 'create' | 'update' | 'delete';

/**
 * Every failure of the data provider in the one shape the admin reads (api.ts ApiError): the gateway's status,
 * `detail`, `code` and field messages, so checkError can tell an expired session (`UNAUTHENTICATED`) from a refusal,
 * the forms mark the fields a 422 names, and notifications show the server's text. ra-data-graphql hands a client's
 * failure on as an HttpError of status 200 whose body is that failure; a call that got no answer keeps its message.
 */
export function providerError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const body = (error as { body?: unknown } | undefined)?.body;
  if (body instanceof ApiError) return body;
  return new ApiError(500, error instanceof Error ? error.message : 'Something went wrong.');
}

const call =
  (method: Method) =>
  async (...args: unknown[]) => {
    try {
      const { graphqlProvider } = await loadProvider();
      return await (graphqlProvider[method] as (...a: unknown[]) => Promise<unknown>)(...args);
    } catch (error) {
      throw providerError(error);
    }
  };

const deleteOne = call('delete');
const getList = call('getList');

/** react-admin's data provider, and the record actions the declarations offer (`@resource(actions: ...)`). */
export interface AdminDataProvider extends DataProvider {
  /** Runs a record's action: its mutation with the record's id; answers `{ data }`, the mutation's answer. */
  recordAction(resource: string, params: ActionParams): Promise<{ data: unknown }>;
}

export const dataProvider = {
  /** A list page: the one the start already asked for with this same request (load.ts), else ra-data-graphql's. */
  async getList(resource: string, params: ListParams) {
    const early = claimPrefetched(resource, params);
    if (!early) return getList(resource, params);
    try {
      return await early;
    } catch (error) {
      throw providerError(error);
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
  async recordAction(_resource: string, params: ActionParams) {
    try {
      const { recordAction } = await loadProvider();
      return await recordAction(params);
    } catch (error) {
      throw providerError(error);
    }
  },
} as unknown as AdminDataProvider;
