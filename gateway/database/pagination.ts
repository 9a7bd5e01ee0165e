import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { EntityName } from '@mikro-orm/core';
import { z } from 'zod';
import { Id, ListQuery, MAX_LIMIT, noNul, NUL_MESSAGE } from '../validation';
import { OwnerItemCount, RowCount } from './row-count.entity';

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
  filter: z
    .object({
      q: z.string().max(255).refine(noNul, NUL_MESSAGE).optional(),
      ids: z.array(Id).max(MAX_LIMIT).optional(),
    })
    .optional(),
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
  /** The total of the unfiltered list, read from the trigger-kept counters. */
  total: Total,
): Promise<{ rows: T[]; count: number }> {
  const property = options.sortField ? sortable[options.sortField] : undefined;
  const direction = options.sortOrder === 'ASC' ? 'asc' : 'desc';
  const orderBy = property ? { [property]: direction, id: direction } : { createdAt: 'desc', id: 'desc' };
  const filter = options.ids ? { $and: [where, { id: { $in: options.ids } }] } : where;
  const findOptions = { limit: options.limit, offset: options.skip, orderBy: orderBy as never };
  if (options.q !== undefined || options.ids !== undefined) {
    const [rows, count] = await em.findAndCount(entity, filter as FilterQuery<T>, findOptions);
    return { rows, count };
  }
  const [rows, count] = await Promise.all([
    options.limit === 0 ? [] : em.find(entity, filter as FilterQuery<T>, findOptions),
    countOf(em, total),
  ]);
  return { rows, count };
}

export type Total = { table: 'users' | 'items' | 'clients' } | { itemsOwnedBy: string };

async function countOf(em: EntityManager, total: Total): Promise<number> {
  const found =
    'table' in total
      ? await em.findOne(RowCount, { tableName: total.table })
      : await em.findOne(OwnerItemCount, { ownerId: total.itemsOwnedBy });
  return Number(found?.total ?? 0);
}
