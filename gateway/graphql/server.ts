import { ApolloServer, HeaderMap, type ApolloServerPlugin, type GraphQLRequestListener } from '@apollo/server';
import type { GatewayInterface } from '@apollo/server-gateway-interface';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import {
  GraphQLError,
  type DocumentNode,
  type Token,
  type GraphQLFormattedError,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { ApiError, codeForStatus, databaseUnavailable, ValidationFailed } from '../errors';
import { isDatabaseUnavailable } from '../database/unavailable';
import { documentSizeRule } from './document-size';
import { refuseTooManyRows } from './rows-limit';
import { searchCostRule } from './search-cost';
import type { Context } from './context';
import { messages } from '../messages';

/** The error a resolver threw, under the GraphQLError wrappers graphql-js and Apollo put around it. */
function rootCause(error: unknown): unknown {
  let current = error;
  for (
    let depth = 0;
    depth < 5 && current instanceof Error && 'originalError' in current && current.originalError;
    depth++
  ) {
    current = current.originalError;
  }
  return current;
}

/** Errors carry the REST `detail` as their message and a code (and the HTTP status) in `extensions`. */
function formatError(log: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const cause = rootCause(error);
    // An unreachable database is answered like its REST twin: the same 503 text and Retry-After.
    const original = isDatabaseUnavailable(cause) ? databaseUnavailable() : cause;
    const base = { locations: formatted.locations, path: formatted.path };
    if (original instanceof ApiError) {
      return {
        ...base,
        message: original.detail,
        extensions: {
          code: original.code ?? codeForStatus(original.status),
          status: original.status,
          ...retryAfter(original),
        },
      };
    }
    if (original instanceof ValidationFailed) {
      return {
        ...base,
        message: original.message,
        extensions: { code: 'BAD_USER_INPUT', status: 422, detail: original.issues },
      };
    }
    const code = formatted.extensions?.code;
    // Apollo refuses some requests (a persisted query whose hash does not match its text) with an HTTP 4xx but no
    // code: they are the caller's mistake, answered as such and not logged as an error.
    const status = error instanceof GraphQLError ? (error.extensions?.http as { status?: number })?.status : undefined;
    if (status !== undefined && status >= 400 && status < 500 && (!code || code === 'INTERNAL_SERVER_ERROR')) {
      return { ...base, message: formatted.message, extensions: { code: 'BAD_REQUEST' } };
    }
    if (code && code !== 'INTERNAL_SERVER_ERROR') {
      // Parse, validation and variable errors from GraphQL itself: keep their text, drop any stack trace.
      return { ...base, message: formatted.message, extensions: { code } };
    }
    log.error({ err: original }, 'unhandled GraphQL error');
    return { ...base, message: messages.internalError, extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 } };
  };
}

function retryAfter(error: ApiError): Record<string, number> {
  const seconds = Number(error.headers['Retry-After']);
  return Number.isFinite(seconds) ? { retryAfter: seconds } : {};
}

/**
 * What each request needs beyond Apollo's own pipeline, in one plugin (one more set of hooks per request is a cost):
 * - a document with no operation the request can run (an `operationName` naming none of them, or several operations
 *   and no name) is the caller's mistake: refused with graphql-js's own words and a 400 before execution, which has
 *   nothing to run;
 * - a rate-limited call carries the same Retry-After header as its REST twin.
 */
function requestRules(maxRows: number): ApolloServerPlugin<Context> {
  // The same hooks for every request: nothing of theirs is per request.
  const hooks: GraphQLRequestListener<Context> = {
    async didResolveOperation({ operation, document, request, schema }) {
      if (!operation) {
        const message = request.operationName
          ? `Unknown operation named "${request.operationName}".`
          : 'Must provide operation name if query contains multiple operations.';
        throw new GraphQLError(message, {
          extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400, headers: new HeaderMap() } },
        });
      }
      refuseTooManyRows(maxRows, schema, document, operation, request.variables ?? {});
    },
    async willSendResponse({ response, errors }) {
      if (response.body.kind !== 'single' || !errors?.length) return;
      const retry = errors
        .map(rootCause)
        .map((e) => (e instanceof ApiError ? e.headers['Retry-After'] : undefined))
        .find(Boolean);
      if (retry) response.http.headers.set('Retry-After', retry);
    },
  };
  return { requestDidStart: async () => hooks };
}

/**
 * What a parsed document holds in memory, per token of its text, measured (tests/gateway/graphql-memory.test.ts):
 * graphql-js keeps every token of the text, linked, behind the document's locations, beside the syntax nodes.
 */
export const DOCUMENT_BYTES_PER_TOKEN = 640;

/** The tokens of a parsed document's text, counted along the list graphql-js keeps. */
function tokens(document: DocumentNode): number {
  let count = 0;
  for (let token: Token | null | undefined = document.loc?.startToken; token; token = token.next) count++;
  return count;
}

/**
 * Parsed and validated documents are kept so a repeated query skips parsing and validation, in at most `maxBytes` as
 * measured: a document's tokens and nodes (DOCUMENT_BYTES_PER_TOKEN each) and its source text, comments included.
 */
export function documentCache(maxBytes: number): InMemoryLRUCache<DocumentNode> {
  return new InMemoryLRUCache<DocumentNode>({
    maxSize: maxBytes,
    sizeCalculation: (document) =>
      tokens(document) * DOCUMENT_BYTES_PER_TOKEN + 2 * (document.loc?.source.body.length ?? 0),
  });
}

/** A refusal in GraphQL's shape: `errors` with the message, a code and the HTTP status. */
export interface GraphqlRefusal {
  status: number;
  body: { errors: { message: string; extensions: { code: string; status: number } }[] };
}
const refusal = (status: number, message: string, code: string): GraphqlRefusal => ({
  status,
  body: { errors: [{ message, extensions: { code, status } }] },
});

/**
 * A query text longer than GRAPHQL_MAX_QUERY_LENGTH is refused before Apollo reads it: neither parsed, nor hashed,
 * nor kept as a persisted query.
 */
export function queryTooLong(body: unknown, config: Config): GraphqlRefusal | undefined {
  const query = typeof body === 'string' ? body : (body as { query?: unknown } | undefined)?.query;
  const max = config.GRAPHQL_MAX_QUERY_LENGTH;
  if (typeof query !== 'string' || query.length <= max) return undefined;
  return refusal(413, `The query is ${query.length} characters long; at most ${max} are accepted`, 'PAYLOAD_TOO_LARGE');
}

/**
 * The limit rules throw by default, which Apollo answers as a 500. Reported as validation errors instead, a query
 * past a limit is refused with a 400 and its message before any resolver runs.
 */
const reportRejection = {
  propagateOnRejection: false,
  onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
};

/** The size, depth, alias, cost and search limits, as validation rules. */
export function limitRules(config: Config): ValidationRule[] {
  return [
    documentSizeRule(config.GRAPHQL_MAX_SELECTIONS),
    maxDepthRule({ n: config.GRAPHQL_MAX_DEPTH, exposeLimits: true, flattenFragments: true, ...reportRejection }),
    maxAliasesRule({ n: config.GRAPHQL_MAX_ALIASES, exposeLimits: true, ...reportRejection }),
    costLimitRule({ maxCost: config.GRAPHQL_MAX_COST, exposeLimits: true, ...reportRejection }),
    searchCostRule({ maxSearches: config.GRAPHQL_MAX_SEARCHES }),
  ];
}

export function createApolloServer(
  config: Config,
  log: Logger,
  execution: GatewayInterface,
  /** Plugins beyond the gateway's own. */
  plugins: ApolloServerPlugin<Context>[] = [],
): ApolloServer<Context> {
  return new ApolloServer<Context>({
    gateway: execution,
    introspection: config.NODE_ENV !== 'production',
    // Like introspection, "Did you mean …?" suggestions describe the schema to whoever asks: not in production.
    hideSchemaDetailsFromClientErrors: config.NODE_ENV === 'production',
    documentStore: documentCache(config.GRAPHQL_DOCUMENT_CACHE_BYTES),
    // Automatic persisted queries keep query texts, each at most GRAPHQL_MAX_QUERY_LENGTH, two bytes a character.
    persistedQueries: {
      cache: new InMemoryLRUCache<string>({
        maxSize: config.GRAPHQL_DOCUMENT_CACHE_BYTES,
        sizeCalculation: (text) => 2 * text.length,
      }),
    },
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    csrfPrevention: true,
    formatError: formatError(log),
    // Bounds the parser too: a deeply nested or huge document is refused before validation walks it.
    parseOptions: { maxTokens: config.GRAPHQL_MAX_TOKENS },
    validationRules: limitRules(config),
    // Our own explorer is served at GET /graphql; Apollo's landing page would load from a CDN. No answer carries
    // cache hints, so the cache-control plugin, which wraps every field's resolver to collect them, is left out.
    // This is no federated subgraph: the inline tracing plugin (and the protobuf code it loads) is left out too.
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginInlineTraceDisabled(),
      requestRules(config.GRAPHQL_MAX_ROWS),
      ...plugins,
    ],
  });
}

/** A body the JSON parser refused, answered the GraphQL way (undefined: not a refusal of the body). */
export function graphqlBodyRefusal(error: unknown): GraphqlRefusal | undefined {
  const { type } = error as { type?: string };
  if (type === 'entity.too.large') return refusal(413, 'Request body is too large', 'PAYLOAD_TOO_LARGE');
  if (type === 'entity.parse.failed') return refusal(400, 'Malformed JSON in the request body', 'BAD_REQUEST');
  return undefined;
}
