import type { Context } from './context';
import type { ListArgs } from './types';
import { pageToList, PageArgs, type ListOptions } from '../database/pagination';
import type { SignedInUser } from '../users/user.schemas';
import { validate } from '../validation';

type Lister<T> = (caller: SignedInUser, options: ListOptions) => Promise<{ data: T[]; count: number }>;

/** Runs a service's list once per request for both `allX` and `_allXMeta` with the same arguments. */
export async function listPage<T>(ctx: Context, resource: string, args: ListArgs, list: Lister<T>) {
  const options = pageToList(validate(PageArgs, args, 'query'));
  const user = await ctx.user();
  const key = `${resource}:${JSON.stringify({ ...options })}`;
  // `_allXMeta` receives no sort: the count does not depend on it, so key it without.
  const countKey = `${resource}:${JSON.stringify({ ...options, sortField: undefined, sortOrder: undefined })}`;
  const page = ctx.once(key, () => list(user, options));
  ctx.once(countKey, () => page);
  return page;
}

export async function countOf<T>(ctx: Context, resource: string, args: ListArgs, list: Lister<T>) {
  const options = pageToList(validate(PageArgs, args, 'query'));
  const key = `${resource}:${JSON.stringify({ ...options, sortField: undefined, sortOrder: undefined })}`;
  const user = await ctx.user();
  const page = await ctx.once(key, () => list(user, options));
  return { count: page.count };
}
