import { CallbackResolver } from './graphql/resolvers/callback.resolver';
import { resolverOf } from './graphql/resource-resolver';
import { UserResolver } from './graphql/resolvers/user.resolver';
import { SyncResolver } from './graphql/resolvers/sync.resolver';
import { OrderResolver } from './graphql/resolvers/order.resolver';
import { LocationResolver } from './graphql/resolvers/location.resolver';
import { ActivityResolver } from './graphql/resolvers/activity.resolver';
import { AuditResolver } from './graphql/resolvers/audit.resolver';
import { genericResources } from './resources';

type Resolvers = [typeof UserResolver, ...(new () => object)[]];
let built: Resolvers | undefined;

/**
 * Every GraphQL resolver: the schema at /graphql and in schema/schema.graphql is built from these. Each declared
 * resource's operations come from its declaration (gateway/graphql/resource-resolver.ts).
 */
export function resolvers(): Resolvers {
  return (built ??= [
    UserResolver,
    ...genericResources().map(resolverOf),
    SyncResolver,
    OrderResolver,
    LocationResolver,
    ActivityResolver,
    CallbackResolver,
    AuditResolver,
  ]);
}
