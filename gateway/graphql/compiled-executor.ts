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
 * Compiled operations are kept per operation of a parsed document: Apollo hands the same document object for the
 * same query text while it stays in its bounded document cache, and a WeakMap lets the compiled form go with it.
 *
 * They are also kept by query text and operation name (at most `maxBytes`, counting each text twice and a
 * compiled operation as 8 KiB), for `runPrepared`: a text that has passed Apollo's parsing, validation and operation
 * resolution once passes them again the same way, so a repeated request can run its compiled operation at once
 * (the lane does, for a JSON POST), and needs Apollo only to answer errors.
 */
export function compiledExecution(schema: GraphQLSchema, maxBytes: number): CompiledExecution {
  const compiled = new WeakMap<OperationDefinitionNode, CompiledQuery>();
  // Query text → operation name ('' for none) → its compiled operation.
  const byText = new LRUCache<string, Map<string, Prepared>>({
    maxSize: maxBytes,
    sizeCalculation: (operations, text) => 2 * text.length + 8192 * operations.size,
  });

  const executor: GatewayExecutor = async ({ document, operation, operationName, request, context }) => {
    // Already run by `runPrepared`, which ran into errors: Apollo answers them (formatError, status, headers).
    const executed = (context as Context).executed;
    if (executed) return asGraphQLErrors(executed);
    // Refused earlier by the operation-resolution plugin; kept so this function never reads an absent operation.
    if (!operation) return { errors: [new GraphQLError('Must provide an operation.')] };
    // Variables are checked by graphql-js first, as its execute would: its errors point at the variable's
    // definition, which is how Apollo tells bad input (400, BAD_USER_INPUT) from a failure.
    const variables = request.variables ?? {};
    if (operation.variableDefinitions?.length) {
      const coerced = getVariableValues(schema, operation.variableDefinitions, variables, { maxErrors: 50 });
      if (coerced.errors) return { errors: coerced.errors };
    }
    let query = compiled.get(operation);
    if (!query) {
      const result = compileQuery(schema, document, operationName ?? undefined);
      // What graphql-js would refuse to execute is answered with its own errors.
      if (!isCompiledQuery(result)) return result;
      query = result;
      compiled.set(operation, query);
    }
    // Kept under the name the request gave (Apollo's `operationName` is the resolved operation's own name).
    if (typeof request.query === 'string') {
      const name = request.operationName ?? '';
      const operations = byText.get(request.query) ?? new Map<string, Prepared>();
      if (!operations.has(name)) {
        operations.set(name, { operation, query });
        byText.set(request.query, operations);
      }
    }
    return asGraphQLErrors(await query.query(undefined, context, variables));
  };

  return {
    runPrepared({ query, operationName, variables }, context) {
      const prepared = byText.get(query)?.get(operationName ?? '');
      if (!prepared) return undefined;
      // graphql-js's check of the variables, as the executor above makes: its errors are the ones Apollo answers.
      if (prepared.operation.variableDefinitions?.length) {
        const coerced = getVariableValues(schema, prepared.operation.variableDefinitions, variables ?? {}, {
          maxErrors: 50,
        });
        if (coerced.errors) return undefined;
      }
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
