import { queries, types } from '../../../schema/generated/description';

/** A value's bounds, from `@constraint` (see /schema/schema.graphql). */
export interface Constraint {
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly min?: number;
  readonly max?: number;
  /** A map's most entries. */
  readonly maxEntries?: number;
  readonly format?: string;
}

/**
 * How a state's value is coloured, as its declaration says (`@tones`): what went wrong, what is done, what waits on a
 * person, what is under way; a value the declaration gives no tone is neutral.
 */
export type Tone = 'info' | 'success' | 'warning' | 'error';

/** Each value's tone, where it has one. */
export type Tones = Readonly<Record<string, Tone>>;

/** An output field: its type, whether it may be null, and what the schema's directives say of it. */
export interface FieldDescription {
  readonly type: string;
  readonly nullable?: boolean;
  readonly list?: boolean;
  readonly secret?: boolean;
  readonly listed?: boolean;
  /**
   * The API's internal bookkeeping (`@hidden`), shown on no screen. The gateway lets no such field be listed, filtered
   * or written, so the record's dialog, which shows every other field, is the one place that leaves it out.
   */
  readonly hidden?: boolean;
  readonly sortable?: boolean;
  readonly searchable?: boolean;
  /** Lists take an exact value of it as a filter. */
  readonly filterable?: boolean;
  /** The type whose record it names (a reference). */
  readonly references?: string;
  /** A state's values (an enum), in order. */
  readonly values?: readonly string[];
  /** A state's values' tones (`@tones`). */
  readonly tones?: Tones;
  /** How screens show it beyond its type (`@display`): money, a table, a timeline, a map edited as rows. */
  readonly display?: 'money' | 'table' | 'timeline' | 'map';
  /** The parts of each entry of a table, timeline or map. */
  readonly items?: readonly DisplayItem[];
}

/** One part of each entry of a value shown as a table, a timeline or a map (`@display(items: ...)`). */
export interface DisplayItem {
  readonly name: string;
  readonly kind: string;
  readonly nullable?: boolean;
  readonly display?: string;
  readonly min?: number;
  readonly max?: number;
  readonly pattern?: string;
  /** A state part's values' tones. */
  readonly tones?: Tones;
}

/** An operation's argument: its type, whether it must be given, its default and its bounds. */
export interface ArgumentDescription {
  readonly type: string;
  readonly list: boolean;
  readonly sdl: string;
  readonly required: boolean;
  readonly default?: unknown;
  readonly constraint?: Constraint;
  readonly secret?: boolean;
  /** An enum's values (a state), in order. */
  readonly values?: readonly string[];
}

export interface OperationDescription {
  readonly args: Readonly<Record<string, ArgumentDescription>>;
  /** The type a mutation answers with (the mutations' description names it). */
  readonly returns?: string;
}

export type TypeName = keyof typeof types;
export type FieldName<T extends TypeName> = keyof (typeof types)[T]['fields'] & string;

export const fieldsOf = (type: TypeName): Readonly<Record<string, FieldDescription>> => types[type].fields;

export function queryOf(name: string): OperationDescription | undefined {
  return (queries as Record<string, OperationDescription>)[name];
}

/** The gateway's operation names for a type, as react-admin's GraphQL convention spells them. */
export const operationNames = (type: TypeName) => ({
  list: `all${type}s`,
  count: `_all${type}sMeta`,
  one: type,
  create: `create${type}`,
  update: `update${type}`,
  delete: `delete${type}`,
});

const NUMBERS = new Set(['Int', 'SafeInt', 'Float']);
export const isNumeric = (type: string) => NUMBERS.has(type);
