import { randomUUID } from 'node:crypto';
import { BigIntType, EntitySchema, type EntitySchemaProperty } from '@mikro-orm/core';
import { EncryptedText } from '../database/token-cipher';
import { isAnswered, propertyOf, type Field } from '../fields/field';
import type { Resource } from '../fields/resource';

/** A row as the ORM holds it: property names in camelCase, a reference as the record it names. */
export type EntityRow = Record<string, unknown> & { id: string };

const MAX_INT = 2 ** 31 - 1;

/** The column a field is stored in, as the ORM maps it. */
function property(field: Field): EntitySchemaProperty<unknown, EntityRow> {
  const nullable = field.nullable ? { nullable: true } : {};
  const fallback = field.default !== undefined ? { default: field.default } : {};
  switch (field.kind) {
    case 'id':
      return { type: 'uuid', primary: true, onCreate: () => randomUUID() } as never;
    case 'reference':
      return {
        kind: 'm:1',
        entity: () => field.to!,
        deleteRule: field.nullable ? 'set null' : 'cascade',
        updateRule: 'cascade',
        // The list's own index (below) starts with it.
        index: false,
        ...nullable,
      } as never;
    case 'int':
      return {
        type: (field.max ?? 0) > MAX_INT || (field.min ?? 0) < -MAX_INT - 1 ? new BigIntType('number') : 'integer',
        ...nullable,
        ...fallback,
      } as never;
    case 'boolean':
      return { type: 'boolean', ...nullable, ...fallback } as never;
    case 'datetime':
      return { type: 'datetime', ...nullable } as never;
    case 'date':
      return { type: 'date', ...nullable } as never;
    case 'json':
      return { type: 'json', ...nullable } as never;
    case 'state':
      return { enum: true, items: [...field.values!], ...nullable, ...fallback } as never;
    default:
      // A secret is stored encrypted (and may then be longer than its bound); other text within its bound.
      if (field.secret) return { type: EncryptedText, ...nullable } as never;
      return {
        ...(field.max ? { type: 'string', length: field.max } : { type: 'text' }),
        ...nullable,
        ...fallback,
      } as never;
  }
}

const timestamps = {
  createdAt: { type: 'datetime', defaultRaw: 'now()', onCreate: () => new Date() },
  updatedAt: { type: 'datetime', defaultRaw: 'now()', onCreate: () => new Date(), onUpdate: () => new Date() },
} as const;

/**
 * The ORM's entity for a resource, from its declaration alone: a property per field (its type, length, null-ness and
 * default), `createdAt` and `updatedAt`, and the indexes every list needs: its order (newest first), its owner's
 * order, a trigram index per searchable field (`q` is `ilike '%text%'`), a unique index per unique field (0 left out
 * for numbers, which means "none"), and one per filter. A resource over a query (`source`) is a virtual entity:
 * read-only, with no table.
 */
export function entityOf(resource: Resource): EntitySchema<EntityRow> {
  const { table, fields, options } = resource;
  const properties: Record<string, EntitySchemaProperty<unknown, EntityRow>> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (field.kind === 'password' || (options.source && !isAnswered(field))) continue;
    properties[propertyOf(name, field)] = property(field);
  }
  if (options.source) {
    if (!properties.createdAt) properties.createdAt = { type: 'datetime' } as never;
    // A query's `id` is only a column: the ORM never writes it.
    if (properties.id) properties.id = { type: 'uuid' } as never;
    return new EntitySchema<EntityRow>({ name: resource.name, expression: options.source, properties } as never);
  }
  properties.createdAt ??= timestamps.createdAt as never;
  properties.updatedAt ??= timestamps.updatedAt as never;

  const column = (name: string) => name; // the naming strategy stores `fullName` as `full_name`, the API's name
  const indexes: { name: string; properties?: string[]; expression?: string }[] = [
    { name: `${table}_created_at_id_index`, properties: ['createdAt', 'id'] },
  ];
  const uniques: { name: string; properties?: string[]; expression?: string }[] = [];
  const owner = options.owner && fields[options.owner];
  if (owner) {
    const prop = propertyOf(options.owner!, owner);
    indexes.push({ name: `${table}_${prop}_created_at_index`, properties: [prop, 'createdAt', 'id'] });
  }
  for (const [name, field] of Object.entries(fields)) {
    const prop = propertyOf(name, field);
    if (field.searchable) {
      const index = `${table}_${column(name)}_trgm_index`;
      indexes.push({
        name: index,
        expression: `create index "${index}" on "${table}" using gin ("${column(name)}" gin_trgm_ops)`,
      });
    }
    if (field.unique) {
      const index = `${table}_${column(name)}_unique`;
      if (field.kind === 'int')
        indexes.push({
          name: index,
          expression: `create unique index "${index}" on "${table}" ("${column(name)}") where "${column(name)}" <> 0`,
        });
      else uniques.push({ name: index, properties: [prop] });
    }
    if (isFilterIndexed(resource, name, field))
      indexes.push({ name: `${table}_${column(name)}_created_at_index`, properties: [prop, 'createdAt', 'id'] });
  }
  for (const names of options.unique ?? []) {
    uniques.push({
      name: `${table}_${names.join('_')}_unique`,
      properties: names.map((name) => propertyOf(name, fields[name])),
    });
  }
  return new EntitySchema<EntityRow>({
    name: resource.name,
    tableName: table,
    properties,
    indexes,
    uniques,
  } as never);
}

/** A filter other than the owner (whose index is the owner's) is served by an index of its own, in list order. */
const isFilterIndexed = (resource: Resource, name: string, field: Field) =>
  !!field.filterable && name !== resource.options.owner && (field.kind === 'reference' || field.kind === 'state');

const built = new Map<Resource, EntitySchema<EntityRow>>();

/** The resource's entity, built once: the ORM and the resource's service share it. */
export function entityFor(resource: Resource): EntitySchema<EntityRow> {
  let entity = built.get(resource);
  if (!entity) built.set(resource, (entity = entityOf(resource)));
  return entity;
}
