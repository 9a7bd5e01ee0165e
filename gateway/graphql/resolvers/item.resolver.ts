import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { itemResource } from '../../items/item.resource';
import type { Context } from '../context';
import { argumentsOf, inputOf, objectTypeOf } from '../derived-types';
import { countOf, listPage } from '../list';
import { IdArgs, ListArgs, ListMetadata } from '../types';

export const ItemType = objectTypeOf(itemResource);
const CreateItemArgs = argumentsOf(itemResource.create);
const UpdateItemArgs = argumentsOf(itemResource.update, { id: true });

@Resolver(() => ItemType)
export class ItemResolver {
  @Authorized()
  @Query(() => [ItemType], { description: 'Items: all for a superuser, otherwise the caller’s own' })
  async allItems(@Args() args: ListArgs, @Ctx() ctx: Context) {
    return (await listPage(ctx, 'items', args, (u, o) => ctx.services.items.list(u, o))).data;
  }

  @Authorized()
  @Query(() => ListMetadata)
  _allItemsMeta(@Args() args: ListArgs, @Ctx() ctx: Context) {
    return countOf(ctx, 'items', args, (u, o) => ctx.services.items.list(u, o));
  }

  @Authorized()
  @Query(() => ItemType)
  async Item(@Args() { id }: IdArgs, @Ctx() ctx: Context) {
    return ctx.services.items.get(await ctx.user(), id);
  }

  @Authorized()
  @Mutation(() => ItemType)
  async createItem(@Args(() => CreateItemArgs) args: object, @Ctx() ctx: Context) {
    return ctx.services.items.create(await ctx.user(), inputOf(itemResource.create, args));
  }

  @Authorized()
  @Mutation(() => ItemType)
  async updateItem(@Args(() => UpdateItemArgs) args: { id: string }, @Ctx() ctx: Context) {
    return ctx.services.items.update(await ctx.user(), args.id, inputOf(itemResource.update, args));
  }

  @Authorized()
  @Mutation(() => ItemType, { description: 'Deletes an item and answers the deleted record' })
  async deleteItem(@Args() { id }: IdArgs, @Ctx() ctx: Context) {
    return ctx.services.items.delete(await ctx.user(), id);
  }
}
