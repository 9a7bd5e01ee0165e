import type { Platform } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';

/** How one entity's rows are read: its table, its columns and how each becomes a property value. */
export interface Shape {
  table: string;
  /** `"column"` for every property, in metadata order: what a `select` lists. */
  columns: string;
  /** Quoted column of each property name, for conditions and sorting. */
  column: Record<string, string>;
  toEntity(row: Record<string, unknown>): Record<string, unknown>;
}

interface Field {
  prop: string;
  column: string;
  convert?: (value: unknown) => unknown;
}

/** An entity class: its name keys the ORM's metadata. */
export type EntityClass<T> = abstract new (...args: never[]) => T;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Reads rows straight through one of the pool's `pg` connections and shapes them like the entity (plain objects
 * with its property names and converted values: custom types such as encrypted tokens, dates, `{ id }` for a
 * many-to-one), with none of MikroORM's query building, identity map or change tracking. Lists and reads by id
 * take this path on every page and every signed-in request; writes go through the ORM's unit of work.
 */
export class PlainRows {
  private readonly shapes = new Map<string, Shape>();

  constructor(private readonly orm: MikroORM) {}

  /** Rows of one statement, on a connection of the ORM's pool (so both share its size and timeouts). */
  async query(text: string, values: readonly unknown[]): Promise<Record<string, unknown>[]> {
    const client = this.orm.em.getConnection().getKnex().client;
    const connection = await client.acquireConnection();
    try {
      const result = await connection.query(text, values);
      return result.rows;
    } finally {
      await client.releaseConnection(connection);
    }
  }

  /** Entity-shaped rows of a statement that selects `shape(entity).columns`. */
  async find<T>(entity: EntityClass<T>, text: string, values: readonly unknown[]): Promise<T[]> {
    const shape = this.shape(entity);
    const rows = await this.query(text, values);
    return rows.map((row) => shape.toEntity(row) as T);
  }

  async findById<T>(entity: EntityClass<T>, id: string): Promise<T | undefined> {
    const shape = this.shape(entity);
    const [found] = await this.find(entity, `select ${shape.columns} from ${shape.table} where "id" = $1 limit 1`, [
      id,
    ]);
    return found;
  }

  shape(entity: EntityClass<unknown>): Shape {
    let shape = this.shapes.get(entity.name);
    if (!shape) {
      const meta = this.orm.getMetadata().get(entity.name);
      shape = buildShape(
        meta.tableName,
        meta.props.filter((p) => p.persist !== false && (p.kind === 'scalar' || p.kind === 'm:1')),
        this.orm.em.getPlatform(),
      );
      this.shapes.set(entity.name, shape);
    }
    return shape;
  }
}

type Prop = {
  name: string;
  kind: string;
  fieldNames: string[];
  runtimeType: string;
  customType?: { convertToJSValue(value: unknown, platform: Platform): unknown };
};

function buildShape(table: string, props: Prop[], platform: Platform): Shape {
  const fields: Field[] = props.map((p) => {
    const column = p.fieldNames[0];
    if (p.kind === 'm:1') return { prop: p.name, column, convert: (v) => (v == null ? v : { id: v }) };
    const custom = p.customType;
    if (custom) return { prop: p.name, column, convert: (v) => (v == null ? v : custom.convertToJSValue(v, platform)) };
    if (p.runtimeType === 'Date') {
      return { prop: p.name, column, convert: (v) => (typeof v === 'string' ? platform.parseDate(v) : v) };
    }
    return { prop: p.name, column };
  });
  // Properties are always added in the same order, so every row of an entity shares one hidden class.
  const toEntity = (row: Record<string, unknown>) => {
    const entity: Record<string, unknown> = {};
    for (const f of fields) entity[f.prop] = f.convert ? f.convert(row[f.column]) : row[f.column];
    return entity;
  };
  return {
    table: quote(table),
    columns: fields.map((f) => quote(f.column)).join(', '),
    column: Object.fromEntries(fields.map((f) => [f.prop, quote(f.column)])),
    toEntity,
  };
}
