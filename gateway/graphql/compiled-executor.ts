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
 */
export function compiledExecution(schema: GraphQLSchema): GatewayInterface {
  const compiled = new WeakMap<OperationDefinitionNode, CompiledQuery>();

  const executor: GatewayExecutor = async ({ document, operation, operationName, request, context }) => {
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
    return asGraphQLErrors(await query.query(undefined, context, variables));
  };

  return {
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
