import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { clientResource } from '../../clients/client.resource';
import type { Context } from '../context';
import { argumentsOf, inputOf, objectTypeOf } from '../derived-types';
import { countOf, listPage } from '../list';
import { IdArgs, ListArgs, ListMetadata } from '../types';

export const ClientType = objectTypeOf(clientResource);
const CreateClientArgs = argumentsOf(clientResource.create);
const UpdateClientArgs = argumentsOf(clientResource.update, { id: true });

@Resolver(() => ClientType)
export class ClientResolver {
  @Authorized()
  @Query(() => [ClientType])
  async allClients(@Args() args: ListArgs, @Ctx() ctx: Context) {
    return (await listPage(ctx, 'clients', args, (u, o) => ctx.services.clients.list(u, o))).data;
  }

  @Authorized()
  @Query(() => ListMetadata)
  _allClientsMeta(@Args() args: ListArgs, @Ctx() ctx: Context) {
    return countOf(ctx, 'clients', args, (u, o) => ctx.services.clients.list(u, o));
  }

  @Authorized()
  @Query(() => ClientType)
  async Client(@Args() { id }: IdArgs, @Ctx() ctx: Context) {
    return ctx.services.clients.get(await ctx.user(), id);
  }

  @Authorized()
  @Mutation(() => ClientType)
  async createClient(@Args(() => CreateClientArgs) args: object, @Ctx() ctx: Context) {
    return ctx.services.clients.create(await ctx.user(), inputOf(clientResource.create, args));
  }

  @Authorized()
  @Mutation(() => ClientType)
  async updateClient(@Args(() => UpdateClientArgs) args: { id: string }, @Ctx() ctx: Context) {
    return ctx.services.clients.update(await ctx.user(), args.id, inputOf(clientResource.update, args));
  }

  @Authorized()
  @Mutation(() => ClientType, { description: 'Deletes a client and answers the deleted record' })
  async deleteClient(@Args() { id }: IdArgs, @Ctx() ctx: Context) {
    return ctx.services.clients.delete(await ctx.user(), id);
  }
}
