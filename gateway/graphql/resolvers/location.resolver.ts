import { Args, ArgsType, Authorized, Ctx, Field, ID, Mutation, Resolver } from 'type-graphql';
import { clientResource } from '../../clients/client.resource';
import { locationResource } from '../../locations/location.resource';
import type { Context } from '../context';
import { objectTypeOf } from '../derived-types';

@ArgsType()
class RecordIdArgs {
  @Field(() => ID) id!: string;
}

@ArgsType()
class LocationPrioritiesArgs {
  @Field(() => ID, { description: 'The client' }) id!: string;
  @Field(() => [ID], { description: 'Every live location of the client (our row ids), once each, first = priority 0' })
  location_ids!: string[];
}

/** What staff do with a client's locations beyond the declared operations: the same service as the REST routes. */
@Resolver()
export class LocationResolver {
  @Authorized()
  @Mutation(() => objectTypeOf(clientResource), {
    description:
      'Ler estoques da loja: a read of the store’s locations queued for the client (new ones added, names, priorities ' +
      'and the default refreshed, those the store no longer lists marked deleted); answers the client',
  })
  async readStoreLocations(@Args() { id }: RecordIdArgs, @Ctx() ctx: Context) {
    const user = await ctx.user();
    return ctx.services.audit.action(user, { action: 'read_locations', resource: 'Client', recordId: id }, (within) =>
      ctx.services.locations.requestRead(user, id, within),
    );
  }

  @Authorized()
  @Mutation(() => [objectTypeOf(locationResource)], {
    description:
      'A new order of the client’s locations, sent to the store and mirrored once it took it (422 with its reason ' +
      'otherwise); answers the client’s locations in their order',
  })
  async setLocationPriorities(@Args() { id, location_ids }: LocationPrioritiesArgs, @Ctx() ctx: Context) {
    const entry = {
      action: 'priorities',
      resource: 'Client',
      recordId: id,
      changes: { location_ids: { after: location_ids } },
    } as const;
    return ctx.services.audit.action(await ctx.user(), entry, (within) =>
      ctx.services.locations.setPriorities(id, location_ids, within),
    );
  }

  @Authorized()
  @Mutation(() => objectTypeOf(locationResource), {
    description:
      'Tornar padrão: the location made the store’s default, and its client’s only default once the store took it',
  })
  async setDefaultLocation(@Args() { id }: RecordIdArgs, @Ctx() ctx: Context) {
    return ctx.services.audit.action(
      await ctx.user(),
      { action: 'default_location', resource: 'Location', recordId: id },
      (within) => ctx.services.locations.setDefault(id, within),
    );
  }
}
