import { types } from '../../../schema/generated/description';
import { fieldsOf, operationNames, type OperationDescription, type TypeName } from '../crud/description';
import { mutationOf } from '../crud/mutations';
import {
  argumentList,
  oneRecord,
  parens,
  selection,
  variableList,
  type ProviderRequest,
  type RequestParams,
} from './operations';
import { typeOfResource } from './resourceTypes';

/** A resource's writing operations; a read-only one (a history) has none. */
export interface WriteTexts {
  create?: string;
  update?: string;
  delete?: string;
  createArgs: OperationDescription['args'];
  updateArgs: OperationDescription['args'];
}

const cache = new Map<TypeName, WriteTexts>();

/** The type's create, update and delete, each answering the record, from the mutations' description. */
export function writeOperationsOf(type: TypeName): WriteTexts {
  const cached = cache.get(type);
  if (cached) return cached;
  const names = operationNames(type);
  const fields = selection(type);
  const mutation = (name: string) => {
    const operation = mutationOf(name);
    return operation
      ? `mutation ${name}${parens(variableList(operation.args))} { data: ${name}${parens(argumentList(operation.args))} { ${fields} } }`
      : undefined;
  };
  const texts: WriteTexts = {
    create: mutation(names.create),
    update: mutation(names.update),
    delete: mutation(names.delete),
    createArgs: mutationOf(names.create)?.args ?? {},
    updateArgs: mutationOf(names.update)?.args ?? {},
  };
  cache.set(type, texts);
  return texts;
}

/** Keeps only the values the mutation declares as arguments. */
function argumentsOf(args: OperationDescription['args'], values: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(values).filter(([name, value]) => Object.hasOwn(args, name) && value !== undefined),
  );
}

export type WriteType = 'CREATE' | 'UPDATE' | 'DELETE';

export const isWrite = (fetchType: string): fetchType is WriteType =>
  fetchType === 'CREATE' || fetchType === 'UPDATE' || fetchType === 'DELETE';

/** The request of a write (ra-data-graphql's CREATE, UPDATE or DELETE); one the resource does not offer is refused. */
export function writeRequest(fetchType: WriteType, resource: string, params: RequestParams): ProviderRequest {
  const texts = writeOperationsOf(typeOfResource(resource));
  const text = { CREATE: texts.create, UPDATE: texts.update, DELETE: texts.delete }[fetchType];
  if (!text) throw new Error(`${fetchType} is not offered by ${resource}`);
  const variables =
    fetchType === 'CREATE'
      ? argumentsOf(texts.createArgs, params.data ?? {})
      : fetchType === 'UPDATE'
        ? { ...argumentsOf(texts.updateArgs, params.data ?? {}), id: params.id }
        : { id: params.id };
  return { text, variables, parseResponse: oneRecord };
}

const SCALARS = new Set(['ID', 'String', 'Int', 'Float', 'Boolean', 'JSON', 'DateTime', 'SafeInt']);

/** The type a mutation answers with, when it is a record the admin knows (a sync run). */
export function answerType(mutation: string): TypeName | undefined {
  const returns = mutationOf(mutation)?.returns ?? '';
  return returns in types ? (returns as TypeName) : undefined;
}

/**
 * The state an answer is told by: the field its lists filter by (a run's `state`, not its `kind`), else its first
 * state field.
 */
export function stateField(type: TypeName): string | undefined {
  const fields = fieldsOf(type);
  const states = Object.keys(fields).filter((name) => fields[name].values);
  return states.find((name) => fields[name].filterable) ?? states[0];
}

/** A record action (`@resource(actions: ...)`): its mutation, the record's id, and what a prompt asked for. */
export interface ActionParams {
  id: string;
  mutation: string;
  variables?: Record<string, unknown>;
}

/**
 * The request of a record action: its mutation called with the record's id (and the arguments a prompt asked for,
 * typed as the schema types them), asking for what the answer is told by. An answer that is a record the admin knows
 * gives its id and its state; another object, its type name. It answers `{ data }`, the mutation's answer.
 */
export function actionRequest({ id, mutation, variables = {} }: ActionParams): ProviderRequest<{ data: unknown }> {
  const type = answerType(mutation);
  const described = mutationOf(mutation);
  const returns = described?.returns ?? '';
  const state = type && stateField(type);
  const fields = type ? ` { id${state ? ` ${state}` : ''} }` : SCALARS.has(returns) ? '' : ' { __typename }';
  const names = Object.keys(variables);
  const declared = names.map((name) => `, $${name}: ${described?.args?.[name]?.sdl ?? 'String'}`).join('');
  const passed = names.map((name) => `, ${name}: $${name}`).join('');
  return {
    text: `mutation RecordAction($id: ID!${declared}) { data: ${mutation}(id: $id${passed})${fields} }`,
    variables: { ...variables, id },
    parseResponse: (response) => ({ data: response.data.data }),
  };
}
