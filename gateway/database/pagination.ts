import { z } from 'zod';
import { searchTimedOut } from '../errors';
import { Id, ListQuery, MAX_LIMIT, noNul, NUL_MESSAGE } from '../validation';
import type { EntityClass, PlainRows } from './plain-rows';
import { isStatementCancelled } from './unavailable';

export interface ListOptions extends ListQuery {
  sortField?: string;
  sortOrder?: 'ASC' | 'DESC';
  q?: string;
  ids?: string[];
  /** Exact values of the resource's filter fields (references, states and booleans), by API field name. */
  filter?: Record<string, unknown>;
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

/**
 * react-admin's list arguments for a resource whose lists also filter by some fields: each an exact value, checked
 * by the field's own rule (a UUID for a reference, one of the values for a state).
 */
export function pageArgsWith(filters: Record<string, z.ZodType>, searchable = true) {
  return PageArgs.extend({
    filter: z
      .object({
        ...(searchable ? { q: z.string().max(255).refine(noNul, NUL_MESSAGE).optional() } : {}),
        ids: z.array(Id).max(MAX_LIMIT).optional(),
        ...Object.fromEntries(Object.entries(filters).map(([name, rule]) => [name, rule.optional()])),
      })
      .optional(),
  });
}

/** The list options of validated list arguments, filters included. */
export function pageToListWith(args: z.output<ReturnType<typeof pageArgsWith>>): ListOptions {
  const { q, ids, ...filter } = (args.filter ?? {}) as Record<string, unknown>;
  const given = Object.fromEntries(Object.entries(filter).filter(([, value]) => value != null));
  return {
    ...pageToList({ ...args, filter: { q: q as string | undefined, ids: ids as string[] | undefined } }),
    ...(Object.keys(given).length ? { filter: given } : {}),
  };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** What a list is narrowed to before the caller's own filter: property equalities, and where `q` searches. */
export interface ListScope {
  equal?: Record<string, unknown>;
  /** Properties searched for `q` (case-insensitive, anywhere in the text). */
  search: string[];
  /** API field name → property, for the filters `options.filter` may give. */
  filters?: Record<string, string>;
  /** Properties that must be null (an archive's: archived records are left out; the kept total counts the rest). */
  absent?: string[];
  /** The order of a list that asks for none, as properties and directions (default: newest first). */
  order?: readonly (readonly [property: string, direction: 'asc' | 'desc'])[];
}

/**
 * Where the total of an unnarrowed list comes from: the counters triggers keep per table (`row_counts`, counted
 * when the table has none), the counters per owner a table of its own keeps, or a count of the rows (a query).
 */
export type Total = { table: string } | { ownerTotals: string; owner: string } | { count: true };

/**
 * One page and the total, newest first (or in the scope's `order`) unless a known field is asked for.
 * `sortable` maps API field names to entity properties; anything else falls back to the default order.
 * Two statements, run at once: the page, and the total (from the trigger-kept counters when nothing narrows the
 * list beyond `total`, else a count with the same conditions). `q` is matched with `ilike` on each searched column
 * as it is, which the columns' trigram indexes serve; a search still cancelled by the statement timeout is answered
 * 503 with advice to narrow it.
 */
export async function findPage<T, K extends keyof T & string>(
  rows: PlainRows,
  entity: EntityClass<T>,
  /** The properties each row of the page is read with. */
  props: readonly K[],
  scope: ListScope,
  options: ListOptions,
  sortable: Record<string, string>,
  /** The total of the list without `q` or `ids`, read from the trigger-kept counters. */
  total: Total,
): Promise<{ rows: Pick<T, K>[]; count: number }> {
  const shape = rows.shape(entity);
  const { columns } = rows.select(entity, props);
  const values: unknown[] = [];
  const conditions: string[] = [];
  const bind = (value: unknown) => `$${values.push(value)}`;
  for (const [prop, value] of Object.entries(scope.equal ?? {}))
    conditions.push(`${shape.column[prop]} = ${bind(value)}`);
  for (const prop of scope.absent ?? []) conditions.push(`${shape.column[prop]} is null`);
  if (options.q !== undefined) {
    const pattern = bind(`%${escapeLike(options.q)}%`);
    conditions.push(`(${scope.search.map((prop) => `${shape.column[prop]} ilike ${pattern}`).join(' or ')})`);
  }
  if (options.ids !== undefined) conditions.push(`${shape.column.id} = any(${bind(options.ids)}::uuid[])`);
  const filtered = Object.entries(options.filter ?? {}).filter(([name]) => Object.hasOwn(scope.filters ?? {}, name));
  for (const [name, value] of filtered) conditions.push(`${shape.column[scope.filters![name]]} = ${bind(value)}`);
  const where = conditions.length ? ` where ${conditions.join(' and ')}` : '';

  // Own keys only: `constructor` or `__proto__` must fall back to the default order like any other unknown field.
  const property =
    options.sortField && Object.hasOwn(sortable, options.sortField) ? sortable[options.sortField] : undefined;
  const direction = options.sortOrder === 'ASC' ? 'asc' : 'desc';
  const order = property
    ? `${shape.column[property]} ${direction}, ${shape.column.id} ${direction}`
    : scope.order?.length
      ? [...scope.order.map(([prop, dir]) => `${shape.column[prop]} ${dir}`), `${shape.column.id} asc`].join(', ')
      : `${shape.column.createdAt} desc, ${shape.column.id} desc`;
  const pageValues = [...values, options.limit, options.skip];
  const n = values.length;
  const page =
    options.limit === 0
      ? Promise.resolve([])
      : rows.find(
          entity,
          props,
          `select ${columns} from ${shape.table}${where} order by ${order} limit $${n + 1} offset $${n + 2}`,
          pageValues,
        );
  const narrowed = options.q !== undefined || options.ids !== undefined || filtered.length > 0;
  const counted = () =>
    rows.query(`select count(*) as total from ${shape.table}${where}`, values).then(([row]) => row?.total);
  const count = narrowed || 'count' in total ? counted() : keptTotal(rows, total).then((kept) => kept ?? counted());
  try {
    const [found, counted] = await Promise.all([page, count]);
    return { rows: found, count: Number(counted ?? 0) };
  } catch (error) {
    if (options.q !== undefined && isStatementCancelled(error)) throw searchTimedOut();
    throw error;
  }
}

/**
 * A total kept by triggers: the table's row in `row_counts` (undefined when the table has no counter, and is then
 * counted), or an owner's row in the resource's counters per owner (0 when it has none: an owner of no rows).
 */
async function keptTotal(rows: PlainRows, total: Exclude<Total, { count: true }>): Promise<unknown> {
  if ('table' in total) {
    const [kept] = await rows.query('select total from row_counts where table_name = $1', [total.table]);
    return kept?.total;
  }
  const [kept] = await rows.query(`select total from "${total.ownerTotals}" where owner_id = $1`, [total.owner]);
  return kept?.total ?? 0;
}
