import { parse, type DocumentNode } from 'graphql';
import {
  fieldsOf,
  mutationOf,
  operationNames,
  queryOf,
  type OperationDescription,
  type TypeName,
} from '../crud/description';
import { typeOfResource } from './resourceTypes';

interface Params {
  id?: string;
  ids?: string[];
  data?: Record<string, unknown>;
  previousData?: Record<string, unknown>;
  pagination?: { page: number; perPage: number };
  sort?: { field: string; order: string };
  filter?: Record<string, unknown>;
}

export interface BuiltQuery {
  query: DocumentNode;
  variables: Record<string, unknown>;
  parseResponse: (response: { data: Record<string, unknown> }) => unknown;
}

function required(description: OperationDescription | undefined, name: string): OperationDescription {
  if (!description) throw new Error(`The schema has no operation ${name}`);
  return description;
}

/** The selection set of a type: every field the schema gives it (scalars and enums, which is all ours have). */
const selection = (type: TypeName) => Object.keys(fieldsOf(type)).join(' ');

const variableList = (args: OperationDescription['args']) =>
  Object.entries(args)
    .map(([name, arg]) => `$${name}: ${arg.sdl}`)
    .join(', ');

const argumentList = (args: OperationDescription['args']) =>
  Object.keys(args)
    .map((name) => `${name}: $${name}`)
    .join(', ');

const parens = (text: string) => (text ? `(${text})` : '');

interface Documents {
  list: DocumentNode;
  one: DocumentNode;
  create: DocumentNode;
  update: DocumentNode;
  delete: DocumentNode;
  createArgs: OperationDescription['args'];
  updateArgs: OperationDescription['args'];
}

const cache = new Map<TypeName, Documents>();

/** The type's operations as documents, written from the schema's description of each. */
function documentsOf(type: TypeName): Documents {
  const cached = cache.get(type);
  if (cached) return cached;
  const names = operationNames(type);
  const fields = selection(type);
  const list = required(queryOf(names.list), names.list);
  const count = required(queryOf(names.count), names.count);
  const one = required(queryOf(names.one), names.one);
  const create = required(mutationOf(names.create), names.create);
  const update = required(mutationOf(names.update), names.update);
  const remove = required(mutationOf(names.delete), names.delete);
  const mutation = (name: string, operation: OperationDescription) =>
    parse(
      `mutation ${name}${parens(variableList(operation.args))} { data: ${name}${parens(argumentList(operation.args))} { ${fields} } }`,
    );
  // The page and its total in one operation: both fields read the same variables.
  const listDocument = parse(
    `query ${names.list}${parens(variableList({ ...count.args, ...list.args }))} {` +
      ` data: ${names.list}${parens(argumentList(list.args))} { ${fields} }` +
      ` total: ${names.count}${parens(argumentList(count.args))} { count } }`,
  );
  const documents: Documents = {
    list: listDocument,
    one: parse(
      `query ${names.one}${parens(variableList(one.args))} { data: ${names.one}${parens(argumentList(one.args))} { ${fields} } }`,
    ),
    create: mutation(names.create, create),
    update: mutation(names.update, update),
    delete: mutation(names.delete, remove),
    createArgs: create.args,
    updateArgs: update.args,
  };
  cache.set(type, documents);
  return documents;
}

/** Keeps only the values the mutation declares as arguments. */
function argumentsOf(args: OperationDescription['args'], values: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(values).filter(([name, value]) => Object.hasOwn(args, name) && value !== undefined),
  );
}

const withoutTypename = (record: unknown) => {
  if (!record || typeof record !== 'object') return record;
  const { __typename, ...rest } = record as Record<string, unknown>;
  return rest;
};

/** ra-data-graphql's buildQuery over the gateway's allX / _allXMeta / X / createX / updateX / deleteX. */
export const buildQuery =
  () =>
  (fetchType: string, resource: string, params: Params): BuiltQuery => {
    const type = typeOfResource(resource);
    const documents = documentsOf(type);
    const single = (response: { data: Record<string, unknown> }) => ({ data: withoutTypename(response.data.data) });

    switch (fetchType) {
      case 'GET_LIST':
      case 'GET_MANY':
      case 'GET_MANY_REFERENCE': {
        const many = fetchType === 'GET_MANY';
        const { page = 1, perPage = 5 } = params.pagination ?? {};
        const filter: Record<string, unknown> = {};
        if (many) filter.ids = params.ids;
        if (typeof params.filter?.q === 'string' && params.filter.q) filter.q = params.filter.q;
        const variables: Record<string, unknown> = {
          page: many ? 0 : page - 1,
          perPage: many ? (params.ids?.length ?? 0) : perPage,
          filter,
        };
        // Only a field the schema marks @sortable orders the list; anything else keeps the gateway's order.
        const sortField = params.sort?.field;
        if (sortField && fieldsOf(type)[sortField]?.sortable) {
          variables.sortField = sortField;
          variables.sortOrder = params.sort?.order === 'DESC' ? 'DESC' : 'ASC';
        }
        return {
          query: documents.list,
          variables,
          parseResponse: (response) => {
            const data = (response.data.data as unknown[]).map(withoutTypename);
            const total = (response.data.total as { count: number }).count;
            return many ? { data } : { data, total };
          },
        };
      }
      case 'GET_ONE':
        return { query: documents.one, variables: { id: params.id }, parseResponse: single };
      case 'CREATE':
        return {
          query: documents.create,
          variables: argumentsOf(documents.createArgs, params.data ?? {}),
          parseResponse: single,
        };
      case 'UPDATE':
        return {
          query: documents.update,
          variables: { ...argumentsOf(documents.updateArgs, params.data ?? {}), id: params.id },
          parseResponse: single,
        };
      case 'DELETE':
        return { query: documents.delete, variables: { id: params.id }, parseResponse: single };
      default:
        throw new Error(`${fetchType} is not supported for ${resource}`);
    }
  };
