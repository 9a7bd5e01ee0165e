import { z } from 'zod';
import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { Args, ArgsType, Authorized, Ctx, Field, Info, Mutation, Query, Resolver } from 'type-graphql';
import type { Reading, Resource } from '../kit/resource';
import { pageArgsWith, pageToListWith, type ListOptions } from '../database/pagination';
import { NUL_MESSAGE, noNul, validate } from '../validation';
import type { Context } from './context';
import { argumentsOf, filterTypeOf, inputOf, objectTypeOf } from './derived-types';
import { IdArgs, ListMetadata, PageOfListArgs } from './types';

/**
 * A filter field's rule: an id for a reference, one of its values for a state, true or false for a boolean, the exact
 * text for a text (within the field's length).
 */
const filterRule = (resource: Resource, name: string) => {
  const field = resource.fields[name];
  if (field.kind === 'boolean') return z.boolean();
  if (field.kind === 'text')
    return z
      .string()
      .max(field.max ?? 255)
      .refine(noNul, NUL_MESSAGE);
  return field.kind === 'state' ? z.enum(field.values as [string, ...string[]]) : z.guid();
};

/** The names a selection asks for, its fragments' included (whatever their directives say: a read of more is safe). */
function selectedNames(
  selectionSet: SelectionSetNode | undefined,
  info: GraphQLResolveInfo,
  names: Set<string>,
  seen: Set<string>,
): Set<string> {
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      if (!selection.name.value.startsWith('__')) names.add(selection.name.value);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      selectedNames(selection.selectionSet, info, names, seen);
    } else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      selectedNames(info.fragments[selection.name.value]?.selectionSet, info, names, seen);
    }
  }
  return names;
}

/**
 * What a list or a record is read with: only the fields the query selects of it, as PostgreSQL columns are sent,
 * parsed and converted for nothing otherwise. Kept with the query's node, which Apollo's document store and the
 * compiled operation keep for every request of the same text.
 */
function readingOf(resource: Resource) {
  const kept = new WeakMap<FieldNode, Reading>();
  return (info: GraphQLResolveInfo): Reading => {
    const node = info.fieldNodes[0];
    let reading = kept.get(node);
    if (!reading) {
      const names = new Set<string>();
      for (const field of info.fieldNodes) selectedNames(field.selectionSet, info, names, new Set());
      reading = resource.reading(names);
      kept.set(node, reading);
    }
    return reading;
  };
}

/**
 * A method decorator applied only when the resource offers what it serves: the class below declares every operation,
 * and a resource that does not offer one has no field for it.
 */
const when =
  (offered: boolean, ...decorators: MethodDecorator[]): MethodDecorator =>
  (prototype, name, descriptor) => {
    if (offered) for (const decorator of [...decorators].reverse()) decorator(prototype, name, descriptor);
  };

/** What a list holds, and for whom. */
function listDescription(resource: Resource): string {
  const plural = `${resource.noun[0].toUpperCase()}${resource.noun.slice(1)}s`;
  if (resource.options.owner) return `${plural}: all for a superuser, otherwise the caller’s own`;
  const order = resource.options.order
    ? `by ${resource.options.order.map(([field, direction]) => `${field} ${direction === 'desc' ? 'descending' : 'ascending'}`).join(', then ')}`
    : 'newest first';
  return resource.read === 'superuser' ? `${plural}, ${order} (superuser)` : `${plural}, ${order}`;
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
  const reading = readingOf(resource);
  /** A total alone reads its page's ids. */
  const idsOnly = resource.reading(['id']);
  /**
   * One page per request for `all<Type>s` and `_all<Type>sMeta` with the same arguments (the total ignores the order
   * and the fields), read with the fields a list selects (a total alone: without a page's fields).
   */
  const page = async (ctx: Context, args: object, read?: Reading) => {
    const list = options(args);
    const user = await ctx.user();
    const countKey = `${name}:${JSON.stringify({ ...list, sortField: undefined, sortOrder: undefined })}`;
    if (!read) return ctx.once(countKey, () => service(ctx).list(user, list, idsOnly));
    const loaded = ctx.once(`${name}:${read.key}:${JSON.stringify(list)}`, () => service(ctx).list(user, list, read));
    void ctx.once(countKey, () => loaded);
    return loaded;
  };

  const archived = `an archived ${resource.noun}`;
  const CreateArgs = resource.offers('create') ? argumentsOf(resource.create) : IdArgs;
  const UpdateArgs = resource.offers('update') ? argumentsOf(resource.update, { id: true }) : IdArgs;
  const archives = !!resource.options.archive;

  // type-graphql's resolvers-inheritance form: one class per resource, its operations named after it.
  @Resolver(() => Type)
  class GenericResolver {
    @when(
      resource.offers('list'),
      Authorized(),
      Query(() => [Type], { name: `all${name}s`, description: listDescription(resource) }),
    )
    async list(@Args(() => ListArgs) args: object, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
      return (await page(ctx, args, reading(info))).data;
    }

    @when(resource.offers('list'), Authorized(), Query(() => ListMetadata, { name: `_all${name}sMeta` }))
    async total(@Args(() => ListArgs) args: object, @Ctx() ctx: Context) {
      return { count: (await page(ctx, args)).count };
    }

    @when(resource.offers('get'), Authorized(), Query(() => Type, { name }))
    async one(@Args(() => IdArgs) { id }: IdArgs, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
      return service(ctx).get(await ctx.user(), id, reading(info));
    }

    @when(resource.offers('create'), Authorized(), Mutation(() => Type, { name: `create${name}` }))
    async create(@Args(() => CreateArgs) args: object, @Ctx() ctx: Context) {
      return service(ctx).create(await ctx.user(), inputOf(resource.create, args) as object);
    }

    @when(resource.offers('update'), Authorized(), Mutation(() => Type, { name: `update${name}` }))
    async update(@Args(() => UpdateArgs) args: { id: string }, @Ctx() ctx: Context) {
      return service(ctx).update(await ctx.user(), args.id, inputOf(resource.update, args) as object);
    }

    @when(
      resource.offers('delete'),
      Authorized(),
      Mutation(() => Type, {
        name: `delete${name}`,
        description: `Deletes ${/^[aeiou]/i.test(resource.noun) ? 'an' : 'a'} ${resource.noun} and answers the deleted record`,
      }),
    )
    async delete(@Args(() => IdArgs) { id }: IdArgs, @Ctx() ctx: Context) {
      return service(ctx).delete(await ctx.user(), id);
    }

    @when(
      archives,
      Authorized(),
      Mutation(() => Type, { name: `restore${name}`, description: `Restores ${archived} (superuser)` }),
    )
    async restore(@Args(() => IdArgs) { id }: IdArgs, @Ctx() ctx: Context) {
      return service(ctx).restore!(await ctx.user(), id);
    }

    @when(
      archives,
      Authorized(),
      Mutation(() => Type, {
        name: `purge${name}`,
        description: `Deletes ${archived} and its history for good (superuser); answers the purged record`,
      }),
    )
    async purge(@Args(() => IdArgs) { id }: IdArgs, @Ctx() ctx: Context) {
      return service(ctx).purge!(await ctx.user(), id);
    }
  }
  Object.defineProperty(GenericResolver, 'name', { value: `${name}Resolver` });
  return GenericResolver;
}
