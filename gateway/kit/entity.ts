import { randomUUID } from 'node:crypto';
import { BigIntType, EntitySchema, type EntitySchemaMetadata, type EntitySchemaProperty } from '@mikro-orm/core';
import { EncryptedText } from '../database/token-cipher';
import { isAnswered, propertyOf, type Field } from './field';
import type { Resource } from './resource';
import type { EntityOfFields } from './entity-type';

/** A resource's entity as the ORM holds it: `EntityOf<typeof syncRunResource>` has `queuedAt: Date`. */
export type EntityOf<R> = R extends Resource<infer FS> ? EntityOfFields<FS> : never;

/** A row of any resource as the ORM holds it: property names in camelCase, a reference as the record it names. */
export type EntityRow = EntityOf<Resource>;

const MAX_INT = 2 ** 31 - 1;

/** Properties an entity holds beyond its declared fields (a user's password hash), stored but never answered. */
type ExtraProperties = Record<string, EntitySchemaProperty<unknown, EntityRow>>;

/** The column a field is stored in, as the ORM maps it. */
function property(field: Field): EntitySchemaProperty<unknown, EntityRow> {
  const nullable = field.nullable ? { nullable: true } : {};
  const fallback = field.default !== undefined ? { default: field.default } : {};
  switch (field.kind) {
    case 'id':
      return { type: 'uuid', primary: true, onCreate: () => randomUUID() };
    case 'reference':
      return {
        kind: 'm:1',
        entity: () => field.to!,
        deleteRule: field.onDelete ?? (field.nullable ? 'set null' : 'cascade'),
        updateRule: 'cascade',
        // The list's own index (below) starts with it.
        index: false,
        ...nullable,
      };
    case 'int':
      return {
        type: (field.max ?? 0) > MAX_INT || (field.min ?? 0) < -MAX_INT - 1 ? new BigIntType('number') : 'integer',
        ...nullable,
        ...fallback,
      };
    case 'boolean':
      return { type: 'boolean', ...nullable, ...fallback };
    case 'datetime':
      return { type: 'datetime', ...nullable };
    case 'date':
      return { type: 'date', ...nullable };
    case 'json':
    case 'map':
      return { type: 'json', ...nullable };
    case 'state':
      return { enum: true, items: [...field.values!], ...nullable, ...fallback };
    default:
      // A secret is stored encrypted (and may then be longer than its bound); other text within its bound.
      if (field.secret) return { type: EncryptedText, ...nullable };
      return {
        ...(field.max ? { type: 'string', length: field.max } : { type: 'text' }),
        ...nullable,
        ...fallback,
      };
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
 * for numbers, which means "none", and archived records), and one per filter. A resource over a query (`source`) is a virtual entity:
 * read-only, with no table.
 */
export function entityOf(resource: Resource, extra: ExtraProperties = {}): EntitySchema<EntityRow> {
  const { table, fields, options } = resource;
  const built: ExtraProperties = {};
  // Every resource declares its `id`; the timestamps are added below.
  const properties = built as NonNullable<EntitySchemaMetadata<EntityRow>['properties']>;
  for (const [name, field] of Object.entries(fields)) {
    if (field.kind === 'password' || (options.source && !isAnswered(field))) continue;
    built[propertyOf(name, field)] = property(field);
  }
  if (options.source) {
    properties.createdAt ??= { type: 'datetime' };
    // A query's `id` is only a column: the ORM never writes it.
    if (built.id) properties.id = { type: 'uuid' };
    return new EntitySchema<EntityRow>({ name: resource.name, expression: options.source, properties });
  }
  Object.assign(built, extra);
  // A resource that answers its moment of creation (a movement's `created_at`) keeps the timestamp's default.
  properties.createdAt = { ...timestamps.createdAt, ...properties.createdAt };
  properties.updatedAt ??= timestamps.updatedAt;

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
      // An archived record keeps its value without holding it: a new record may take it.
      const live = [
        ...(field.kind === 'int' ? [`"${column(name)}" <> 0`] : []),
        ...(options.archive ? [`"${column(options.archive.field)}" is null`] : []),
      ];
      if (live.length)
        indexes.push({
          name: index,
          expression: `create unique index "${index}" on "${table}" ("${column(name)}") where ${live.join(' and ')}`,
        });
      else uniques.push({ name: index, properties: [prop] });
    }
    if (isFilterIndexed(resource, name, field))
      indexes.push({ name: `${table}_${column(name)}_created_at_index`, properties: [prop, 'createdAt', 'id'] });
  }
  for (const names of options.unique ?? []) {
    const index = `${table}_${names.join('_')}_unique`;
    // A set with a nullable member counts null as a value: two rows with null there are the same row.
    if (names.some((name) => fields[name].nullable))
      indexes.push({
        name: index,
        expression: `create unique index "${index}" on "${table}" (${names.map((n) => `"${column(n)}"`).join(', ')}) nulls not distinct`,
      });
    else uniques.push({ name: index, properties: names.map((name) => propertyOf(name, fields[name])) });
  }
  return new EntitySchema<EntityRow>({
    name: resource.name,
    tableName: table,
    properties,
    indexes,
    uniques,
  });
}

/** A filter other than the owner (whose index is the owner's) is served by an index of its own, in list order. */
const isFilterIndexed = (resource: Resource, name: string, field: Field) =>
  !!field.filterable &&
  name !== resource.options.owner &&
  (field.kind === 'reference' || field.kind === 'state' || field.kind === 'text');

const built = new Map<Resource, EntitySchema<EntityRow>>();

/** The resource's entity, built once: the ORM and the resource's service share it. */
export function entityFor<R extends Resource>(resource: R): EntitySchema<EntityOf<R>> {
  let entity = built.get(resource);
  if (!entity) built.set(resource, (entity = entityOf(resource)));
  // Built from the same declaration its type is read from.
  return entity as EntitySchema<EntityOf<R>>;
}

/**
 * The entity of a resource whose rows hold more than its fields (`extra`, never answered nor taken from a body):
 * `T` is its declaration's entity with those properties (users: `EntityOf<typeof userResource>` and the hash).
 */
export function entityWith<R extends Resource, T extends EntityOf<R>>(
  resource: R,
  extra: ExtraProperties,
): EntitySchema<T> {
  let entity = built.get(resource);
  if (!entity) built.set(resource, (entity = entityOf(resource, extra)));
  // Built from the declaration its type is read from, and the properties its type adds.
  return entity as EntitySchema<T>;
}
