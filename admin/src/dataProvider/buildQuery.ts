import type { IntrospectionResult } from 'ra-data-graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import {
  AllClientsDocument,
  AllItemsDocument,
  AllUsersDocument,
  CreateClientDocument,
  CreateItemDocument,
  CreateUserDocument,
  DeleteClientDocument,
  DeleteItemDocument,
  DeleteUserDocument,
  GetClientDocument,
  GetItemDocument,
  GetUserDocument,
  UpdateClientDocument,
  UpdateItemDocument,
  UpdateUserDocument,
} from '../../../schema/generated/graphql';

type AnyDocument = TypedDocumentNode<any, any>;

interface ResourceOperations {
  /** The GraphQL type behind the react-admin resource. */
  type: string;
  list: AnyDocument;
  one: AnyDocument;
  create: AnyDocument;
  update: AnyDocument;
  delete: AnyDocument;
}

/** react-admin resource names (they are also the screens' paths) and the gateway's operations for each. */
export const resourceOperations: Record<string, ResourceOperations> = {
  items: {
    type: 'Item',
    list: AllItemsDocument,
    one: GetItemDocument,
    create: CreateItemDocument,
    update: UpdateItemDocument,
    delete: DeleteItemDocument,
  },
  clientes: {
    type: 'Client',
    list: AllClientsDocument,
    one: GetClientDocument,
    create: CreateClientDocument,
    update: UpdateClientDocument,
    delete: DeleteClientDocument,
  },
  admin: {
    type: 'User',
    list: AllUsersDocument,
    one: GetUserDocument,
    create: CreateUserDocument,
    update: UpdateUserDocument,
    delete: DeleteUserDocument,
  },
};

interface Params {
  id?: string;
  ids?: string[];
  data?: Record<string, unknown>;
  previousData?: Record<string, unknown>;
  pagination?: { page: number; perPage: number };
  sort?: { field: string; order: string };
  filter?: Record<string, unknown>;
}

interface BuiltQuery {
  query: AnyDocument;
  variables: Record<string, unknown>;
  parseResponse: (response: { data: Record<string, unknown> }) => unknown;
}

/** Keeps only the values the mutation takes as arguments, as the schema declares them. */
function argumentsOf(introspection: IntrospectionResult, mutation: string, values: Record<string, unknown>) {
  const field = introspection.queries.find((q) => q.name === mutation) as { args?: { name: string }[] } | undefined;
  const names = new Set(field?.args?.map((arg) => arg.name) ?? Object.keys(values));
  return Object.fromEntries(Object.entries(values).filter(([name, value]) => names.has(name) && value !== undefined));
}

const withoutTypename = (record: unknown) => {
  if (!record || typeof record !== 'object') return record;

  const { __typename, ...rest } = record as Record<string, unknown>;
  return rest;
};

/** ra-data-graphql's buildQuery over the gateway's allX / _allXMeta / X / createX / updateX / deleteX. */
export const buildQuery =
  (introspection: IntrospectionResult) =>
  (fetchType: string, resource: string, params: Params): BuiltQuery => {
    const ops = resourceOperations[resource];
    if (!ops) throw new Error(`Unknown resource ${resource}`);
    const known = introspection.resources.some((r) => r.type.name === ops.type);
    if (!known) throw new Error(`The schema has no operations for ${ops.type}`);
    const single = (response: { data: Record<string, unknown> }) => ({ data: withoutTypename(response.data.data) });

    switch (fetchType) {
      case 'GET_LIST':
      case 'GET_MANY':
      case 'GET_MANY_REFERENCE': {
        const { page = 1, perPage = 5 } = params.pagination ?? {};
        const filter: Record<string, unknown> = {};
        if (fetchType === 'GET_MANY') filter.ids = params.ids;
        if (typeof params.filter?.q === 'string' && params.filter.q) filter.q = params.filter.q;
        const variables: Record<string, unknown> = {
          page: fetchType === 'GET_MANY' ? 0 : page - 1,
          perPage: fetchType === 'GET_MANY' ? (params.ids?.length ?? 0) : perPage,
          filter,
        };
        if (params.sort?.field && params.sort.field !== 'id') {
          variables.sortField = params.sort.field;
          variables.sortOrder = params.sort.order;
        }
        return {
          query: ops.list,
          variables,
          parseResponse: (response) => {
            const data = (response.data.data as unknown[]).map(withoutTypename);
            const total = (response.data.total as { count: number }).count;
            return fetchType === 'GET_MANY' ? { data } : { data, total };
          },
        };
      }
      case 'GET_ONE':
        return { query: ops.one, variables: { id: params.id }, parseResponse: single };
      case 'CREATE':
        return {
          query: ops.create,
          variables: argumentsOf(introspection, `create${ops.type}`, params.data ?? {}),
          parseResponse: single,
        };
      case 'UPDATE':
        return {
          query: ops.update,
          variables: { ...argumentsOf(introspection, `update${ops.type}`, params.data ?? {}), id: params.id },
          parseResponse: single,
        };
      case 'DELETE':
        return { query: ops.delete, variables: { id: params.id }, parseResponse: single };
      default:
        throw new Error(`${fetchType} is not supported for ${resource}`);
    }
  };
