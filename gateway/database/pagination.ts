import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { EntityName } from '@mikro-orm/core';
import { z } from 'zod';
import { Id, ListQuery, MAX_LIMIT } from '../validation';

export interface ListOptions extends ListQuery {
  sortField?: string;
  sortOrder?: 'ASC' | 'DESC';
  q?: string;
  ids?: string[];
}

/** react-admin's list arguments (0-based page, perPage, sort, filter), validated with the REST bounds. */
export const PageArgs = z.object({
  page: z.number().int().min(0).max(10_000_000).default(0),
  perPage: z.number().int().min(0).max(MAX_LIMIT).default(100),
  sortField: z.string().max(64).optional(),
  sortOrder: z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(['ASC', 'DESC']))
    .optional(),
  filter: z.object({ q: z.string().max(255).optional(), ids: z.array(Id).max(MAX_LIMIT).optional() }).optional(),
});

export function pageToList(args: z.output<typeof PageArgs>): ListOptions {
  return {
    skip: args.page * args.perPage,
    limit: args.perPage,
    sortField: args.sortField,
    sortOrder: args.sortOrder,
    q: args.filter?.q,
    ids: args.filter?.ids,
  };
}

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page and the total, newest first unless a known field is asked for.
 * `sortable` maps API field names to entity properties; anything else falls back to the default order.
 */
export async function findPage<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  options: ListOptions,
  sortable: Record<string, string>,
): Promise<{ rows: T[]; count: number }> {
  const property = options.sortField ? sortable[options.sortField] : undefined;
  const direction = options.sortOrder === 'ASC' ? 'asc' : 'desc';
  const orderBy = property ? { [property]: direction, id: direction } : { createdAt: 'desc', id: 'desc' };
  const filter = options.ids ? { $and: [where, { id: { $in: options.ids } }] } : where;
  const [rows, count] = await em.findAndCount(entity, filter as FilterQuery<T>, {
    limit: options.limit,
    offset: options.skip,
    orderBy: orderBy as never,
  });
  return { rows, count };
}
