import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import type { GraphQLError, GraphQLFormattedError, ValidationContext } from 'graphql';
import type { ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { ApiError, codeForStatus, databaseUnavailable, ValidationFailed } from '../errors';
import { isDatabaseUnavailable } from '../database/unavailable';
import { compiledExecution } from './compiled-executor';
import type { Context } from './context';
import { graphqlSchema } from './schema';

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
        extensions: { code: codeForStatus(original.status), status: original.status, ...retryAfter(original) },
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
    if (code && code !== 'INTERNAL_SERVER_ERROR') {
      // Parse, validation and variable errors from GraphQL itself: keep their text, drop any stack trace.
      return { ...base, message: formatted.message, extensions: { code } };
    }
    log.error({ err: original }, 'unhandled GraphQL error');
    return { ...base, message: 'Internal Server Error', extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 } };
  };
}

function retryAfter(error: ApiError): Record<string, number> {
  const seconds = Number(error.headers['Retry-After']);
  return Number.isFinite(seconds) ? { retryAfter: seconds } : {};
}

/** A rate-limited GraphQL call carries the same Retry-After header as its REST twin. */
const retryAfterPlugin: ApolloServerPlugin<Context> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response, errors }) {
        if (response.body.kind !== 'single' || !errors?.length) return;
        const retry = errors
          .map(rootCause)
          .map((e) => (e instanceof ApiError ? e.headers['Retry-After'] : undefined))
          .find(Boolean);
        if (retry) response.http.headers.set('Retry-After', retry);
      },
    };
  },
};

/**
 * The limit rules throw by default, which Apollo answers as a 500. Reported as validation errors instead, a query
 * past a limit is refused with a 400 and its message before any resolver runs.
 */
const reportRejection = {
  propagateOnRejection: false,
  onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
};

export function createApolloServer(config: Config, log: Logger): ApolloServer<Context> {
  return new ApolloServer<Context>({
    gateway: compiledExecution(graphqlSchema()),
    introspection: config.NODE_ENV !== 'production',
    includeStacktraceInErrorResponses: false,
    allowBatchedHttpRequests: false,
    csrfPrevention: true,
    formatError: formatError(log),
    // Bounds the parser too: a deeply nested or huge document is refused before validation walks it.
    parseOptions: { maxTokens: config.GRAPHQL_MAX_TOKENS },
    validationRules: [
      maxDepthRule({ n: config.GRAPHQL_MAX_DEPTH, exposeLimits: true, flattenFragments: true, ...reportRejection }),
      maxAliasesRule({ n: config.GRAPHQL_MAX_ALIASES, exposeLimits: true, ...reportRejection }),
      costLimitRule({ maxCost: config.GRAPHQL_MAX_COST, exposeLimits: true, ...reportRejection }),
    ],
    // Our own explorer is served at GET /graphql; Apollo's landing page would load from a CDN. No answer carries
    // cache hints, so the cache-control plugin, which wraps every field's resolver to collect them, is left out.
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled(), retryAfterPlugin],
  });
}

/** A body the JSON parser refused is answered the GraphQL way, never by Express's HTML page with a stack trace. */
export const graphqlBodyErrors: ErrorRequestHandler = (error, _req, res, next) => {
  const { type } = error as { type?: string };
  const refuse = (status: number, message: string, code: string) =>
    res.status(status).json({ errors: [{ message, extensions: { code, status } }] });
  if (res.headersSent) return next(error);
  if (type === 'entity.too.large') return refuse(413, 'Request body is too large', 'PAYLOAD_TOO_LARGE');
  if (type === 'entity.parse.failed') return refuse(400, 'Malformed JSON in the request body', 'BAD_REQUEST');
  return next(error);
};
