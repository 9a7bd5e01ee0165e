import { HttpError, type DataProvider } from 'react-admin';
import type { ValidationIssue } from '../api';

type Method = 'getList' | 'getOne' | 'getMany' | 'getManyReference' | 'create' | 'update' | 'delete';

interface GraphQLFailure {
  graphQLErrors?: { message: string; extensions?: { status?: number; detail?: ValidationIssue[] } }[];
  networkError?: { statusCode?: number; result?: { errors?: GraphQLFailure['graphQLErrors'] } };
}

/**
 * react-admin's errors carry the gateway's status and `detail`, so checkError can tell an expired session
 * from a refusal, and notifications can show the server's text.
 */
export function toHttpError(error: unknown): HttpError {
  const body = (error as { body?: GraphQLFailure } | undefined)?.body ?? (error as GraphQLFailure);
  const graphQLError = body?.graphQLErrors?.[0] ?? body?.networkError?.result?.errors?.[0];
  const status =
    graphQLError?.extensions?.status ??
    body?.networkError?.statusCode ??
    (error as { status?: number } | undefined)?.status ??
    500;
  const detail = graphQLError?.extensions?.detail ?? graphQLError?.message ?? (error as Error | undefined)?.message;
  const message = Array.isArray(detail) ? (detail[0]?.msg ?? 'Validation Error') : (detail ?? 'Something went wrong.');
  return new HttpError(message, status, { detail });
}

// Apollo, graphql and the schema load with the first data call, not with the login page.
const load = () => import('./graphqlProvider').then((module) => module.graphqlProvider);

/** Starts fetching the data layer ahead of the first call (a signed-in start will make one at once). */
export const preloadDataProvider = () => load().catch(() => undefined);

const call =
  (method: Method) =>
  async (...args: unknown[]) => {
    const provider = await load();
    try {
      return await (provider[method] as (...a: unknown[]) => Promise<any>)(...args);
    } catch (error) {
      throw toHttpError(error);
    }
  };

export const dataProvider = {
  getList: call('getList'),
  getOne: call('getOne'),
  getMany: call('getMany'),
  getManyReference: call('getManyReference'),
  create: call('create'),
  update: call('update'),
  delete: call('delete'),
  updateMany: () => Promise.reject(new Error('Not supported')),
  deleteMany: () => Promise.reject(new Error('Not supported')),
} as unknown as DataProvider;
