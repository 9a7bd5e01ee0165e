import { Args, ArgsType, Authorized, Ctx, Field, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../graphql/context';
import { countOf, listPage } from '../graphql/list';
import { IdArgs, ItemType, ListArgs, ListMetadata } from '../graphql/types';
import { IdParams, validate } from '../validation';
import { ItemCreate, ItemUpdate } from './item.schemas';

@ArgsType()
class CreateItemArgs {
  @Field() title!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
}

@ArgsType()
class UpdateItemArgs {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) title?: string;
  @Field(() => String, { nullable: true }) description?: string | null;
}

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
    return ctx.services.items.get(await ctx.user(), validate(IdParams, { id }, 'path').id);
  }

  @Authorized()
  @Mutation(() => ItemType)
  async createItem(@Args() { title, description }: CreateItemArgs, @Ctx() ctx: Context) {
    return ctx.services.items.create(await ctx.user(), validate(ItemCreate, { title, description }, 'body'));
  }

  @Authorized()
  @Mutation(() => ItemType)
  async updateItem(@Args() { id, ...fields }: UpdateItemArgs, @Ctx() ctx: Context) {
    const params = validate(IdParams, { id }, 'path');
    return ctx.services.items.update(await ctx.user(), params.id, validate(ItemUpdate, fields, 'body'));
  }

  @Authorized()
  @Mutation(() => ItemType, { description: 'Deletes an item and answers the deleted record' })
  async deleteItem(@Args() { id }: IdArgs, @Ctx() ctx: Context) {
    return ctx.services.items.delete(await ctx.user(), validate(IdParams, { id }, 'path').id);
  }
}
