import { z } from 'zod';
import { Args, ArgsType, Authorized, Ctx, Field, Mutation, Query, Resolver } from 'type-graphql';
import type { Resource } from '../fields/resource';
import { pageArgsWith, pageToListWith, type ListOptions } from '../database/pagination';
import { validate } from '../validation';
import type { Context } from './context';
import { argumentsOf, filterTypeOf, inputOf, objectTypeOf } from './derived-types';
import { IdArgs, ListMetadata, PageOfListArgs } from './types';

/** A filter field's rule: an id for a reference, one of its values for a state. */
const filterRule = (resource: Resource, name: string) => {
  const field = resource.fields[name];
  return field.kind === 'state' ? z.enum(field.values as [string, ...string[]]) : z.guid();
};

type Method = (this: unknown, ...args: never[]) => unknown;

/** Puts a method on a prototype and applies decorators to it, as `@Decorator() method() {}` would. */
type Param = (prototype: object, name: string, index: number) => void;
type Decorator = (prototype: object, name: string, descriptor: PropertyDescriptor) => void;

function method(prototype: object, name: string, body: Method, decorators: Decorator[], params: Param[]) {
  Object.defineProperty(prototype, name, { value: body, writable: true, configurable: true });
  const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
  params.forEach((decorator, index) => decorator(prototype, name, index));
  for (const decorator of [...decorators].reverse()) decorator(prototype, name, descriptor);
}

/** What a list holds, and for whom. */
function listDescription(resource: Resource): string {
  const plural = `${resource.noun[0].toUpperCase()}${resource.noun.slice(1)}s`;
  if (resource.options.owner) return `${plural}: all for a superuser, otherwise the caller’s own`;
  return resource.read === 'superuser' ? `${plural}, newest first (superuser)` : `${plural}, newest first`;
}

/**
 * The GraphQL operations of a declared resource, under react-admin's GraphQL convention: `all<Type>s` (a page),
 * `_all<Type>sMeta` (its total), `<Type>(id)`, and, when it offers them, `create<Type>`, `update<Type>` and
 * `delete<Type>` (answering the deleted record). Arguments are read with the same schemas as REST; the work is the
 * resource's service's (`ctx.services.resources[name]`), so both adapters answer alike.
 */
export function resolverOf(resource: Resource): new () => object {
  const { name } = resource;
  const Type = objectTypeOf(resource);
  const Filter = filterTypeOf(resource);
  const ListArgs = { [`${name}ListArgs`]: class extends PageOfListArgs {} }[`${name}ListArgs`];
  Field(() => String, { nullable: true })(ListArgs.prototype, 'sortField');
  Field(() => String, { nullable: true })(ListArgs.prototype, 'sortOrder');
  Field(() => Filter, { nullable: true })(ListArgs.prototype, 'filter');
  ArgsType()(ListArgs);
  const PageArgs = pageArgsWith(
    Object.fromEntries(Object.keys(resource.filters).map((field) => [field, filterRule(resource, field)])),
    resource.searched.length > 0,
  );
  const service = (ctx: Context) => ctx.services.resources[name];
  const options = (args: object): ListOptions => pageToListWith(validate(PageArgs, args, 'query'));
  /** One page per request for `all<Type>s` and `_all<Type>sMeta` with the same arguments (the total ignores the order). */
  const page = async (ctx: Context, args: object, counting: boolean) => {
    const list = options(args);
    const user = await ctx.user();
    const countKey = `${name}:${JSON.stringify({ ...list, sortField: undefined, sortOrder: undefined })}`;
    if (counting) return ctx.once(countKey, () => service(ctx).list(user, list));
    const loaded = ctx.once(`${name}:${JSON.stringify(list)}`, () => service(ctx).list(user, list));
    void ctx.once(countKey, () => loaded);
    return loaded;
  };

  const GenericResolver = { [`${name}Resolver`]: class {} }[`${name}Resolver`];
  const proto = GenericResolver.prototype;
  const signedIn = Authorized();
  if (resource.offers('list')) {
    method(
      proto,
      `all${name}s`,
      async function (args: object, ctx: Context) {
        return (await page(ctx, args, false)).data;
      } as Method,
      [signedIn, Query(() => [Type], { name: `all${name}s`, description: listDescription(resource) })],
      [Args(() => ListArgs), Ctx()],
    );
    method(
      proto,
      `_all${name}sMeta`,
      async function (args: object, ctx: Context) {
        return { count: (await page(ctx, args, true)).count };
      } as Method,
      [signedIn, Query(() => ListMetadata, { name: `_all${name}sMeta` })],
      [Args(() => ListArgs), Ctx()],
    );
  }
  if (resource.offers('get'))
    method(
      proto,
      name,
      async function ({ id }: IdArgs, ctx: Context) {
        return service(ctx).get(await ctx.user(), id);
      } as Method,
      [signedIn, Query(() => Type, { name })],
      [Args(() => IdArgs), Ctx()],
    );
  if (resource.offers('create')) {
    const CreateArgs = argumentsOf(resource.create);
    method(
      proto,
      `create${name}`,
      async function (args: object, ctx: Context) {
        return service(ctx).create(await ctx.user(), inputOf(resource.create, args) as object);
      } as Method,
      [signedIn, Mutation(() => Type, { name: `create${name}` })],
      [Args(() => CreateArgs), Ctx()],
    );
  }
  if (resource.offers('update')) {
    const UpdateArgs = argumentsOf(resource.update, { id: true });
    method(
      proto,
      `update${name}`,
      async function (args: { id: string }, ctx: Context) {
        return service(ctx).update(await ctx.user(), args.id, inputOf(resource.update, args) as object);
      } as Method,
      [signedIn, Mutation(() => Type, { name: `update${name}` })],
      [Args(() => UpdateArgs), Ctx()],
    );
  }
  if (resource.offers('delete'))
    method(
      proto,
      `delete${name}`,
      async function ({ id }: IdArgs, ctx: Context) {
        return service(ctx).delete(await ctx.user(), id);
      } as Method,
      [
        signedIn,
        Mutation(() => Type, {
          name: `delete${name}`,
          description: `Deletes ${/^[aeiou]/i.test(resource.noun) ? 'an' : 'a'} ${resource.noun} and answers the deleted record`,
        }),
      ],
      [Args(() => IdArgs), Ctx()],
    );
  Resolver(() => Type)(GenericResolver);
  return GenericResolver;
}
