import 'reflect-metadata';
import { buildSchemaSync } from 'type-graphql';
import type { GraphQLSchema } from 'graphql';
import { CallbackResolver } from '../callback/callback.resolver';
import { ClientResolver } from '../clients/client.resolver';
import { ItemResolver } from '../items/item.resolver';
import { MailJobResolver } from '../jobs/mail-job.resolver';
import { UserResolver } from '../users/user.resolver';
import { authChecker } from './context';

let schema: GraphQLSchema | undefined;

/** The GraphQL schema, built once from the resolvers (validation is done by the shared zod schemas). */
export function graphqlSchema(): GraphQLSchema {
  schema ??= buildSchemaSync({
    resolvers: [UserResolver, ItemResolver, ClientResolver, CallbackResolver, MailJobResolver],
    authChecker,
    authMode: 'error',
    validate: false,
  });
  return schema;
}
