import { parse, type DocumentNode } from 'graphql';
import type { OperationDescription, TypeName } from '../crud/description';
import { listAnswer, listVariables, operationsOf, withoutTypename, type ListParams } from './operations';
import { typeOfResource } from './resourceTypes';
import { writeOperationsOf } from './writeOperations';

interface Params extends ListParams {
  id?: string;
  data?: Record<string, unknown>;
  previousData?: Record<string, unknown>;
}

export interface BuiltQuery {
  query: DocumentNode;
  variables: Record<string, unknown>;
  parseResponse: (response: { data: Record<string, unknown> }) => unknown;
}

type Documents = Record<'list' | 'one', DocumentNode> & Partial<Record<'create' | 'update' | 'delete', DocumentNode>>;

const cache = new Map<TypeName, Documents>();

/** The type's operations (operations.ts) as documents, parsed once. */
function documentsOf(type: TypeName): Documents {
  const cached = cache.get(type);
  if (cached) return cached;
  const texts = { ...operationsOf(type), ...writeOperationsOf(type) };
  const documents: Documents = {
    list: parse(texts.list),
    one: parse(texts.one),
    create: texts.create ? parse(texts.create) : undefined,
    update: texts.update ? parse(texts.update) : undefined,
    delete: texts.delete ? parse(texts.delete) : undefined,
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

/** ra-data-graphql's buildQuery over the gateway's allX / _allXMeta / X / createX / updateX / deleteX. */
export const buildQuery =
  () =>
  (fetchType: string, resource: string, params: Params): BuiltQuery => {
    const type = typeOfResource(resource);
    const documents = documentsOf(type);
    const single = (response: { data: Record<string, unknown> }) => ({ data: withoutTypename(response.data.data) });
    /** A write the resource does not offer (a history's) is refused before anything is sent. */
    const write = (document: DocumentNode | undefined) => {
      if (!document) throw new Error(`${fetchType} is not offered by ${resource}`);
      return document;
    };

    switch (fetchType) {
      case 'GET_LIST':
      case 'GET_MANY':
      case 'GET_MANY_REFERENCE': {
        const many = fetchType === 'GET_MANY';
        return {
          query: documents.list,
          variables: listVariables(type, params, many),
          parseResponse: (response) => listAnswer(response.data, many),
        };
      }
      case 'GET_ONE':
        return { query: documents.one, variables: { id: params.id }, parseResponse: single };
      case 'CREATE':
        return {
          query: write(documents.create),
          variables: argumentsOf(writeOperationsOf(type).createArgs, params.data ?? {}),
          parseResponse: single,
        };
      case 'UPDATE':
        return {
          query: write(documents.update),
          variables: { ...argumentsOf(writeOperationsOf(type).updateArgs, params.data ?? {}), id: params.id },
          parseResponse: single,
        };
      case 'DELETE':
        return { query: write(documents.delete), variables: { id: params.id }, parseResponse: single };
      default:
        throw new Error(`${fetchType} is not supported for ${resource}`);
    }
  };
