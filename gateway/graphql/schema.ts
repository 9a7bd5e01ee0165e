import 'reflect-metadata';
import { buildSchemaSync, type BuildSchemaOptions } from 'type-graphql';
import { specifiedDirectives, type GraphQLSchema } from 'graphql';
import { authChecker } from './context';
import { fieldDirectives } from './derived-types';

type Resolvers = BuildSchemaOptions['resolvers'];
const built = new Map<Resolvers, GraphQLSchema>();

/** The GraphQL schema, built once from the resolvers (validation is done by the shared zod schemas). */
export function graphqlSchema(resolvers: Resolvers): GraphQLSchema {
  let schema = built.get(resolvers);
  if (!schema) {
    schema = buildSchemaSync({
      resolvers,
      authChecker,
      authMode: 'error',
      validate: false,
      directives: [...specifiedDirectives, ...fieldDirectives],
    });
    built.set(resolvers, schema);
  }
  return schema;
}
