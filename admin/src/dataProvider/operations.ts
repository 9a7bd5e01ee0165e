import { graphql } from '../api';
import { fieldsOf, operationNames, queryOf, type OperationDescription, type TypeName } from '../crud/description';
import { typeOfResource } from './resourceTypes';

/**
 * The text of every reading operation on a type, written from the schema's description, and the requests the data
 * provider reads with: an operation's text, its variables and how its answer becomes what react-admin expects. Plain
 * strings, with no GraphQL library: ra-data-graphql parses them (buildQuery.ts), and a start runs the same request
 * for the opened list's first page before that library has loaded (load.ts).
 */

export interface ListParams {
  pagination?: { page: number; perPage: number };
  sort?: { field: string; order: string };
  filter?: Record<string, unknown>;
  ids?: string[];
}

export interface RequestParams extends ListParams {
  id?: string;
  data?: Record<string, unknown>;
  previousData?: Record<string, unknown>;
}

export interface ListAnswer {
  data: Record<string, unknown>[];
  total?: number;
}

/** A resource's reading operations: its list (a page and its total) and one record. */
export interface OperationTexts {
  list: string;
  one: string;
}

function required(description: OperationDescription | undefined, name: string): OperationDescription {
  if (!description) throw new Error(`The schema has no operation ${name}`);
  return description;
}

/** The selection set of a type: every field the schema gives it (scalars and enums, which is all ours have). */
export const selection = (type: TypeName) => Object.keys(fieldsOf(type)).join(' ');

export const variableList = (args: OperationDescription['args']) =>
  Object.entries(args)
    .map(([name, arg]) => `$${name}: ${arg.sdl}`)
    .join(', ');

export const argumentList = (args: OperationDescription['args']) =>
  Object.keys(args)
    .map((name) => `${name}: $${name}`)
    .join(', ');

export const parens = (text: string) => (text ? `(${text})` : '');

const cache = new Map<TypeName, OperationTexts>();

/**
 * The type's reading operations: list (the page and its total in one operation) and one. Its writes are in
 * writeOperations.ts, with the mutations' description, which a list's first screen does not need.
 */
export function operationsOf(type: TypeName): OperationTexts {
  const cached = cache.get(type);
  if (cached) return cached;
  const names = operationNames(type);
  const fields = selection(type);
  const list = required(queryOf(names.list), names.list);
  const count = required(queryOf(names.count), names.count);
  const one = required(queryOf(names.one), names.one);
  const texts: OperationTexts = {
    // Both fields read the same variables.
    list:
      `query ${names.list}${parens(variableList({ ...count.args, ...list.args }))} {` +
      ` data: ${names.list}${parens(argumentList(list.args))} { ${fields} }` +
      ` total: ${names.count}${parens(argumentList(count.args))} { count } }`,
    one: `query ${names.one}${parens(variableList(one.args))} { data: ${names.one}${parens(argumentList(one.args))} { ${fields} } }`,
  };
  cache.set(type, texts);
  return texts;
}

/**
 * A list's variables from react-admin's parameters: the page counted from 0, the search (`q`), an exact value of each
 * field the schema marks @filterable, and the ids (for getMany, or a link to some records). Only a field the schema
 * marks @sortable orders the list; anything else keeps the gateway's order.
 */
const DATE_RANGE = { since: true, until: true };

export function listVariables(type: TypeName, params: ListParams, many = false): Record<string, unknown> {
  const { page = 1, perPage = 5 } = params.pagination ?? {};
  const filter: Record<string, unknown> = {};
  if (many) filter.ids = params.ids;
  const given = params.filter ?? {};
  if (typeof given.q === 'string' && given.q) filter.q = given.q;
  if (!many && Array.isArray(given.ids)) filter.ids = given.ids;
  const fields = fieldsOf(type);
  for (const [name, value] of Object.entries(given)) {
    // `since` and `until`: the date range a list of events takes (the Auditoria's), beside its fields.
    if (!fields[name]?.filterable && !(name in DATE_RANGE)) continue;
    if ((typeof value === 'string' && value) || typeof value === 'boolean') filter[name] = value;
  }
  const variables: Record<string, unknown> = {
    page: many ? 0 : page - 1,
    perPage: many ? (params.ids?.length ?? 0) : perPage,
    filter,
  };
  const sortField = params.sort?.field;
  if (sortField && fieldsOf(type)[sortField]?.sortable) {
    variables.sortField = sortField;
    variables.sortOrder = params.sort?.order === 'DESC' ? 'DESC' : 'ASC';
  }
  return variables;
}

/** A record as react-admin keeps it: without the `__typename` a GraphQL client may have asked for. */
export const withoutTypename = (record: unknown) => {
  if (!record || typeof record !== 'object') return record;
  const { __typename, ...rest } = record as Record<string, unknown>;
  return rest;
};

/** A list operation's data (`data` and `total`) as react-admin's getList (or getMany, without the total) answers. */
export function listAnswer(data: Record<string, unknown>, many = false): ListAnswer {
  const records = (data.data as unknown[]).map(withoutTypename) as Record<string, unknown>[];
  return many ? { data: records } : { data: records, total: (data.total as { count: number }).count };
}

/**
 * One of the data provider's operations before any GraphQL library has it: the text sent, its variables, and the one
 * place its answer (the operation's `data`) becomes what react-admin expects.
 */
export interface ProviderRequest<Answer = unknown> {
  text: string;
  variables: Record<string, unknown>;
  parseResponse: (response: { data: Record<string, unknown> }) => Answer;
}

/** The answer of an operation that gives one record, aliased `data`. */
export const oneRecord = (response: { data: Record<string, unknown> }) => ({
  data: withoutTypename(response.data.data),
});

export type ReadType = 'GET_LIST' | 'GET_MANY' | 'GET_MANY_REFERENCE' | 'GET_ONE';

export const isRead = (fetchType: string): fetchType is ReadType =>
  fetchType === 'GET_LIST' || fetchType === 'GET_MANY' || fetchType === 'GET_MANY_REFERENCE' || fetchType === 'GET_ONE';

/** The request of a read (ra-data-graphql's GET_LIST, GET_MANY, GET_MANY_REFERENCE or GET_ONE) of a resource. */
export function readRequest(fetchType: ReadType, resource: string, params: RequestParams): ProviderRequest {
  const type = typeOfResource(resource);
  const texts = operationsOf(type);
  if (fetchType === 'GET_ONE') return { text: texts.one, variables: { id: params.id }, parseResponse: oneRecord };
  const many = fetchType === 'GET_MANY';
  return {
    text: texts.list,
    variables: listVariables(type, params, many),
    parseResponse: (response) => listAnswer(response.data, many),
  };
}

/**
 * Sends a request over the admin's one GraphQL transport (api.ts) and answers as react-admin expects: what the client
 * given to ra-data-graphql and its parseResponse do, in one call, for a read that cannot wait for that library.
 */
export const runRequest = async <Answer>(request: ProviderRequest<Answer>, signal?: AbortSignal): Promise<Answer> =>
  request.parseResponse({
    data: await graphql<Record<string, unknown>, Record<string, unknown>>(request.text, request.variables, signal),
  });
