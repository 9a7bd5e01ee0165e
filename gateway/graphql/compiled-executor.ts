import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import {
  getVariableValues,
  GraphQLError,
  printSchema,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import type { Context } from './context';

/** A query text Apollo has parsed, validated and resolved to one operation, compiled. */
interface Prepared {
  operation: OperationDefinitionNode;
  query: CompiledQuery;
}

/** What `prepared` reads of a request: the POST body's fields, as Apollo reads them. */
export interface PreparedRequest {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

export interface CompiledExecution extends GatewayInterface {
  /**
   * Runs a request whose query text (with that operation name) Apollo has already parsed, validated and compiled
   * here: `undefined` when it has not, or when the variables do not fit the operation (both are Apollo's to
   * answer). A result with errors is for Apollo to answer too: see `Context.executed`.
   */
  runPrepared(request: PreparedRequest, context: Context): Promise<ExecutionResult> | undefined;
}

/**
 * Apollo Server runs parsing, validation (with the depth, alias and cost limits), errors and plugins as usual;
 * only execution is handed to graphql-jit, which compiles each operation once into plain functions instead of
 * walking the document for every field of every row. A list page of 100 clients resolves 700 fields, and
 * graphql-js spends more on that walk than on the resolvers. Apollo Server 4 takes a custom executor through
 * its `gateway` option (its migration guide's place for what was the `executor` option), so this is a gateway
 * serving our own schema.
 *
 * Compiled operations are kept by query text and the operation name the request gave (at most `maxBytes`, counting
 * each text twice and a compiled operation as 8 KiB). Only the executor adds to them, and Apollo calls it once a text
 * has passed its parsing, validation and operation resolution; that text and name pass them again the same way, so
 * `runPrepared` can run a repeated request's compiled operation at once (the lane does, for a JSON POST), leaving
 * Apollo only its errors to answer.
 */
export function compiledExecution(schema: GraphQLSchema, maxBytes: number): CompiledExecution {
  // Query text → operation name ('' for none) → its compiled operation.
  const byText = new LRUCache<string, Map<string, Prepared>>({
    maxSize: maxBytes,
    sizeCalculation: (operations, text) => 2 * text.length + 8192 * operations.size,
  });

  // graphql-js's check of the variables, as its execute would make it: its errors point at the variable's
  // definition, which is how Apollo tells bad input (400, BAD_USER_INPUT) from a failure.
  const variableErrors = (operation: OperationDefinitionNode, variables: Record<string, unknown>) =>
    operation.variableDefinitions?.length
      ? getVariableValues(schema, operation.variableDefinitions, variables, { maxErrors: 50 }).errors
      : undefined;

  const executor: GatewayExecutor = async ({ document, operation, request, context }) => {
    // Already run by `runPrepared`, which ran into errors: Apollo answers them (formatError, status, headers).
    const executed = (context as Context).executed;
    if (executed) return asGraphQLErrors(executed);
    // Refused earlier by the operation-resolution plugin; kept so this function never reads an absent operation.
    if (!operation) return { errors: [new GraphQLError('Must provide an operation.')] };
    const variables = request.variables ?? {};
    const refused = variableErrors(operation, variables);
    if (refused) return { errors: refused };
    // Kept under the name the request gave (Apollo's `operationName` is the resolved operation's own name).
    const name = request.operationName ?? '';
    const operations = (typeof request.query === 'string' && byText.get(request.query)) || new Map<string, Prepared>();
    let prepared = operations.get(name);
    if (!prepared) {
      const result = compileQuery(schema, document, request.operationName ?? undefined);
      // What graphql-js would refuse to execute is answered with its own errors.
      if (!isCompiledQuery(result)) return result;
      prepared = { operation, query: result };
      operations.set(name, prepared);
      if (typeof request.query === 'string') byText.set(request.query, operations);
    }
    return asGraphQLErrors(await prepared.query.query(undefined, context, variables));
  };

  return {
    runPrepared({ query, operationName, variables }, context) {
      const prepared = byText.get(query)?.get(operationName ?? '');
      // Variables that do not fit are Apollo's to refuse, with the same errors.
      if (!prepared || variableErrors(prepared.operation, variables ?? {})) return undefined;
      return Promise.resolve(prepared.query.query(undefined, context, variables ?? {}));
    },
    async load() {
      return { executor };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => undefined;
    },
    async stop() {},
  };
}

/**
 * graphql-jit reports errors with its own GraphQLError look-alike, whose `extensions` is missing when the cause has
 * none; Apollo reads `extensions.code` and formatError reads `originalError`, so each becomes graphql-js's own.
 */
function asGraphQLErrors(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((e) => {
    const error = new GraphQLError(e.message, {
      path: e.path,
      originalError: e.originalError ?? undefined,
      extensions: e.extensions ?? undefined,
    });
    Object.assign(error, { locations: e.locations });
    return error;
  });
  return { ...result, errors };
}
