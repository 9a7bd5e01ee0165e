import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface';
import {
  execute,
  getVariableValues,
  GraphQLError,
  printSchema,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';

/**
 * The most the largest operation the limits let through may hold once compiled, its document included: the bound
 * `GRAPHQL_COMPILED_OPERATIONS` multiplies. tests/gateway/graphql-memory.test.ts says when a wider type outgrows it.
 */
export const COMPILED_OPERATION_BYTES = 512 * 1024;

/**
 * Execution only, through Apollo's `gateway` option, so every request still passes Apollo's whole pipeline. An
 * operation runs on graphql-js the first time and compiled by graphql-jit from its second run on, so a text sent once
 * (as an attack's distinct texts are) never pays for compiling.
 *
 * Operations are told apart by their node in Apollo's document, which Apollo hands again for the same text while its
 * document store keeps it. Run counts are kept weakly with the document; compiled operations for the `maxCompiled`
 * last used, each holding its document alive (bounded as `COMPILED_OPERATION_BYTES` says).
 */
export function compiledExecution(
  schema: GraphQLSchema,
  maxCompiled: number,
): GatewayInterface & { compiled(): number } {
  const runs = new WeakMap<OperationDefinitionNode, number>();
  const compiled = new LRUCache<OperationDefinitionNode, CompiledQuery>({ max: maxCompiled });

  const run = async (
    document: DocumentNode,
    operation: OperationDefinitionNode,
    variableValues: Record<string, unknown>,
    contextValue: unknown,
  ) => {
    let query = compiled.get(operation);
    if (!query) {
      const times = (runs.get(operation) ?? 0) + 1;
      runs.set(operation, times);
      const result = times > 1 ? compileQuery(schema, document, operation.name?.value) : undefined;
      if (result && isCompiledQuery(result)) compiled.set(operation, (query = result));
    }
    if (!query)
      return execute({ schema, document, operationName: operation.name?.value, variableValues, contextValue });
    // graphql-js's check of the variables, as its execute makes it: its errors point at the variable's definition,
    // which is how Apollo tells bad input (400, BAD_USER_INPUT) from a failure.
    if (operation.variableDefinitions?.length) {
      const { errors } = getVariableValues(schema, operation.variableDefinitions, variableValues, { maxErrors: 50 });
      if (errors) return { errors };
    }
    return asGraphQLErrors(await query.query(undefined, contextValue, variableValues));
  };

  const executor: GatewayExecutor = async ({ document, operation, request, context }) => {
    // Refused earlier by the operation-resolution plugin; kept so this function never reads an absent operation.
    if (!operation) return { errors: [new GraphQLError('Must provide an operation.')] };
    return run(document, operation, request.variables ?? {}, context);
  };

  return {
    /** How many compiled operations are kept. */
    compiled: () => compiled.size,
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
