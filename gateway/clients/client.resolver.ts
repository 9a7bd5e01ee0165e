import { SafeIntResolver } from 'graphql-scalars';
import { Args, ArgsType, Authorized, Ctx, Field, ID, Mutation, Query, Resolver } from 'type-graphql';
import { argsToBody } from '../graphql/arguments';
import type { Context } from '../graphql/context';
import { countOf, listPage } from '../graphql/list';
import { ClientType, IdArgs, ListArgs, ListMetadata } from '../graphql/types';
import { IdParams, validate } from '../validation';
import { ClientCreate, ClientUpdate } from './client.schemas';

@ArgsType()
class ClientFields {
  @Field(() => String, { nullable: true }) hiper_token?: string | null;
  @Field(() => String, { nullable: true }) nuvemshop_token?: string | null;
  @Field(() => SafeIntResolver, { nullable: true }) nuvemshop_store_id?: number;
  @Field(() => Boolean, { nullable: true }) hiper_sync_update_image?: boolean;
  @Field(() => Boolean, { nullable: true }) hiper_sync_update_dimensions?: boolean;
}

@ArgsType()
class CreateClientArgs extends ClientFields {
  @Field() url!: string;
}

@ArgsType()
class UpdateClientArgs extends ClientFields {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) url?: string;
}

// Only the tokens can be cleared: a null url, store id or flag means "leave it as it is".
const NULL_MEANS_UNSENT = ['url', 'nuvemshop_store_id', 'hiper_sync_update_image', 'hiper_sync_update_dimensions'];

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
    return ctx.services.clients.get(await ctx.user(), validate(IdParams, { id }, 'path').id);
  }

  @Authorized()
  @Mutation(() => ClientType)
  async createClient(@Args() args: CreateClientArgs, @Ctx() ctx: Context) {
    return ctx.services.clients.create(
      await ctx.user(),
      validate(ClientCreate, argsToBody(args, NULL_MEANS_UNSENT), 'body'),
    );
  }

  @Authorized()
  @Mutation(() => ClientType)
  async updateClient(@Args() args: UpdateClientArgs, @Ctx() ctx: Context) {
    const { id } = validate(IdParams, { id: args.id }, 'path');
    return ctx.services.clients.update(
      await ctx.user(),
      id,
      validate(ClientUpdate, argsToBody(args, NULL_MEANS_UNSENT), 'body'),
    );
  }

  @Authorized()
  @Mutation(() => ClientType, { description: 'Deletes a client and answers the deleted record' })
  async deleteClient(@Args() { id }: IdArgs, @Ctx() ctx: Context) {
    return ctx.services.clients.delete(await ctx.user(), validate(IdParams, { id }, 'path').id);
  }
}
