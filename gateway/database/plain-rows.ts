import type { EntitySchema, Platform } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import { PostgreSqlReadsDriver } from './reads-driver';

/** An entity's table and the quoted column of each of its properties, for conditions and sorting. */
export interface Shape {
  table: string;
  column: Record<string, string>;
}

/** Some of an entity's properties: the columns a `select` lists, and how a row becomes those properties. */
export interface Selection {
  columns: string;
  toEntity(row: Record<string, unknown>): Record<string, unknown>;
}

/** A selection as kept: with the statement reading one row by each property it was asked by. */
interface Made extends Selection {
  byOne: Map<string, string>;
}

interface Field {
  prop: string;
  column: string;
  convert?: (value: unknown) => unknown;
}

/** An entity class, or the schema of an entity derived from a declaration: its name keys the ORM's metadata. */
export type EntityClass<T> = (abstract new (...args: never[]) => T) | EntitySchema<T>;

/** The name an entity's metadata is kept under. */
const nameOf = <T>(entity: EntityClass<T>): string =>
  typeof entity === 'function' ? entity.name : entity.meta.className;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Reads rows straight through a `pg` connection of the reads' pool (database/reads-driver.ts) and shapes them like
 * the entity (plain objects with its property names and converted values: custom types such as encrypted tokens,
 * dates, `{ id }` for a many-to-one), with none of MikroORM's query building, identity map or change tracking.
 * Lists and reads by id take this path on every page and every signed-in request; writes go through the ORM's unit
 * of work.
 *
 * A read names the properties it needs (an answer's public fields, say) and gets only those, so no column is
 * sent, parsed or decrypted for nothing.
 */
export class PlainRows {
  private readonly fields = new Map<string, { shape: Shape; fields: Map<string, Field> }>();
  /** The selections last used: a GraphQL read selects the fields its query names, so callers choose how many. */
  private readonly selections = new LRUCache<string, Selection>({ max: 256 });

  private readonly driver: PostgreSqlReadsDriver;

  constructor(private readonly orm: MikroORM) {
    const driver = orm.em.getDriver();
    if (!(driver instanceof PostgreSqlReadsDriver)) throw new Error('PlainRows needs the ORM opened by ormOptions');
    this.driver = driver;
  }

  /** Rows of one statement, on a connection of the reads' pool (made as the ORM's are: same size and timeouts). */
  async query(text: string, values: readonly unknown[]): Promise<Record<string, unknown>[]> {
    const result = await this.driver.reads().query<Record<string, unknown>>(text, values as unknown[]);
    return result.rows;
  }

  /** The `props` of each row of a statement that selects `select(entity, props).columns`. */
  async find<T, K extends keyof T & string>(
    entity: EntityClass<T>,
    props: readonly K[],
    text: string,
    values: readonly unknown[],
  ): Promise<Pick<T, K>[]> {
    const { toEntity } = this.select(entity, props);
    const rows = await this.query(text, values);
    return rows.map((row) => toEntity(row) as Pick<T, K>);
  }

  /** The row whose `by` property equals `value` (its id unless told), if there is one. */
  async findOne<T, K extends keyof T & string>(
    entity: EntityClass<T>,
    props: readonly K[],
    value: unknown,
    by: keyof T & string = 'id' as keyof T & string,
  ): Promise<Pick<T, K> | undefined> {
    // One selection for the statement and its row: selections are looked up by a key made of every property name.
    const selection = this.select(entity, props) as Made;
    let text = selection.byOne.get(by);
    if (text === undefined) {
      const { table, column } = this.shape(entity);
      text = `select ${selection.columns} from ${table} where ${column[by]} = $1 limit 1`;
      selection.byOne.set(by, text);
    }
    const [row] = await this.query(text, [value]);
    return row && (selection.toEntity(row) as Pick<T, K>);
  }

  shape<T>(entity: EntityClass<T>): Shape {
    return this.entityFields(entity).shape;
  }

  select<T>(entity: EntityClass<T>, props: readonly string[]): Selection {
    const key = `${nameOf(entity)}:${props.join(',')}`;
    let selection = this.selections.get(key);
    if (!selection) {
      const all = this.entityFields(entity).fields;
      const fields = props.map((prop) => {
        const field = all.get(prop);
        if (!field) throw new Error(`${nameOf(entity)} has no column for property ${prop}`);
        return field;
      });
      const made: Made = {
        columns: fields.map((f) => quote(f.column)).join(', '),
        // Properties are always added in the same order, so every row of a selection shares one hidden class.
        toEntity: (row) => {
          const result: Record<string, unknown> = {};
          for (const f of fields) result[f.prop] = f.convert ? f.convert(row[f.column]) : row[f.column];
          return result;
        },
        byOne: new Map(),
      };
      selection = made;
      this.selections.set(key, selection);
    }
    return selection;
  }

  private entityFields<T>(entity: EntityClass<T>) {
    const name = nameOf(entity);
    let found = this.fields.get(name);
    if (!found) {
      const meta = this.orm.getMetadata().get(name);
      const props = meta.props.filter((p) => p.persist !== false && (p.kind === 'scalar' || p.kind === 'm:1'));
      const fields = buildFields(props, this.orm.em.getPlatform());
      found = {
        shape: {
          // A virtual entity (a resource over a query) is read from its query, named as the entity.
          table:
            typeof meta.expression === 'string'
              ? `(${meta.expression}) as ${quote(meta.className)}`
              : quote(meta.tableName),
          column: Object.fromEntries(fields.map((f) => [f.prop, quote(f.column)])),
        },
        fields: new Map(fields.map((f) => [f.prop, f])),
      };
      this.fields.set(name, found);
    }
    return found;
  }
}

type Prop = {
  name: string;
  kind: string;
  fieldNames: string[];
  runtimeType: string;
  customType?: { convertToJSValue(value: unknown, platform: Platform): unknown };
};

function buildFields(props: Prop[], platform: Platform): Field[] {
  return props.map((p) => {
    const column = p.fieldNames[0];
    if (p.kind === 'm:1') return { prop: p.name, column, convert: (v) => (v == null ? v : { id: v }) };
    const custom = p.customType;
    if (custom) return { prop: p.name, column, convert: (v) => (v == null ? v : custom.convertToJSValue(v, platform)) };
    if (p.runtimeType === 'Date') {
      return { prop: p.name, column, convert: (v) => (typeof v === 'string' ? platform.parseDate(v) : v) };
    }
    return { prop: p.name, column };
  });
}
