import { parse, type DocumentNode } from 'graphql';
import { isRead, readRequest, type ProviderRequest, type RequestParams } from './operations';
import { isWrite, writeRequest } from './writeOperations';

export interface BuiltQuery {
  query: DocumentNode;
  variables: Record<string, unknown>;
  parseResponse: ProviderRequest['parseResponse'];
}

const documents = new Map<string, DocumentNode>();
const texts = new WeakMap<DocumentNode, string>();

/** An operation's text as a document, parsed once. */
function documentOf(text: string): DocumentNode {
  let document = documents.get(text);
  if (!document) {
    document = parse(text);
    documents.set(text, document);
    texts.set(document, text);
  }
  return document;
}

/** The text a document was parsed from: what the transport sends, exactly as the early read sends it. */
export function textOf(document: DocumentNode): string {
  const text = texts.get(document);
  if (text === undefined) throw new Error('A document the data provider did not build');
  return text;
}

/** The request of one of ra-data-graphql's operations, before any parsing. */
export function requestOf(fetchType: string, resource: string, params: RequestParams): ProviderRequest {
  if (isRead(fetchType)) return readRequest(fetchType, resource, params);
  if (isWrite(fetchType)) return writeRequest(fetchType, resource, params);
  throw new Error(`${fetchType} is not supported for ${resource}`);
}

/** ra-data-graphql's buildQuery over the gateway's allX / _allXMeta / X / createX / updateX / deleteX. */
export const buildQuery =
  () =>
  (fetchType: string, resource: string, params: RequestParams): BuiltQuery => {
    const { text, variables, parseResponse } = requestOf(fetchType, resource, params);
    return { query: documentOf(text), variables, parseResponse };
  };
