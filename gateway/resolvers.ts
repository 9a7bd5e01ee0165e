import { CallbackResolver } from './graphql/resolvers/callback.resolver';
import { ClientResolver } from './graphql/resolvers/client.resolver';
import { ItemResolver } from './graphql/resolvers/item.resolver';
import { MailJobResolver } from './graphql/resolvers/mail-job.resolver';
import { UserResolver } from './graphql/resolvers/user.resolver';

/** Every GraphQL resolver: the schema at /graphql and in schema/schema.graphql is built from these. */
export const resolvers: [typeof UserResolver, ...(new () => object)[]] = [
  UserResolver,
  ItemResolver,
  ClientResolver,
  CallbackResolver,
  MailJobResolver,
];
