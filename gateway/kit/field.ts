/**
 * A resource field, declared once: its kind, bounds, default and abilities. Everything else a field needs (REST
 * validation, the OpenAPI document, the GraphQL type and arguments, the public shape and the mapping to and from the
 * entity) is derived from this declaration, in gateway/fields/resource.ts and gateway/graphql/derived-types.ts.
 */
export type FieldKind =
  /** The record's UUID: answered, never written. */
  | 'id'
  /**
   * A UUID naming a record of another resource (`to`) through a many-to-one property (`client` → `client_id`):
   * written as the id, which must name an existing record (else a 422 `Client not found`), unless `readOnly`;
   * with `filterable`, lists take it as a filter (`?client_id=`, `filter: {client_id}`).
   */
  | 'reference'
  /** A moment: ISO 8601 with an offset when written, in UTC when answered (REST); `DateTime` in GraphQL. */
  | 'datetime'
  /** A day without a time: `2025-03-10` (ISO 8601) in REST, `Date` in GraphQL. */
  | 'date'
  /** One of a closed set of `values` (a GraphQL enum); with `filterable`, lists take it as a filter. */
  | 'state'
  | 'text'
  | 'email'
  /** An http or https address. */
  | 'url'
  /** Write-only text: never answered. */
  | 'password'
  | 'int'
  | 'boolean'
  /** Any JSON value, answered as stored: REST any JSON, GraphQL the `JSON` scalar, stored as jsonb. */
  | 'json'
  /**
   * A JSON object of keys to values, each bounded as `items.key` and `items.value` say (a client's payment map:
   * `{"pix": 12}`), of at most `max` entries: REST an object, GraphQL the `JSON` scalar, stored as jsonb; screens edit
   * it as rows of a key and a value.
   */
  | 'map';

export interface Field {
  kind: FieldKind;
  /** The entity property behind it, when not the field's name in camelCase (`full_name` → `fullName`). */
  property?: string;
  /** The value may be null, and a null sent on update clears it. */
  nullable?: boolean;
  /** Must be given on create; a text must also be non-empty once trimmed. */
  required?: boolean;
  /** The value on create when not given. */
  default?: string | number | boolean;
  /** Text: fewest characters. Numbers: smallest value. */
  min?: number;
  /** Text: most characters. Numbers: largest value. Maps: most entries. */
  max?: number;
  /**
   * Superusers read it in clear; anyone else reads it masked, and a masked value sent back changes nothing. `always`:
   * masked for superusers too (a key nobody needs to read back, only to replace).
   */
  secret?: boolean | 'always';
  /** No two records share a value (0 excepted for numbers): a clash is a 409 naming the field. */
  unique?: boolean;
  /** Text: a regular expression (its source) the whole value must match. */
  pattern?: string;
  /** Lists show it as a column. */
  listed?: boolean;
  /**
   * Answered by the API, never shown on the admin's screens: internal bookkeeping (a search text, a lease, a cursor).
   * It must be `readOnly`, and neither `listed`, `sortable` nor `filterable`; `q` still searches it when `searchable`.
   */
  hidden?: boolean;
  /** Lists can be ordered by it. */
  sortable?: boolean;
  /** The list filter `q` searches it. */
  searchable?: boolean;
  /** Lists take an exact value of it as a filter (references, states, booleans and texts). */
  filterable?: boolean;
  /** Answered, never taken from a body: the system sets it (a sync's state, when it last ran). */
  readOnly?: boolean;
  /** A reference: the GraphQL type name of the resource it names. */
  to?: string;
  /**
   * A reference: what deleting the record it names does to this one (default `cascade`, `set null` when nullable).
   * `restrict` keeps history: the named record cannot be deleted while this one names it.
   */
  onDelete?: 'cascade' | 'set null' | 'restrict';
  /** A state: its values, in the order they are shown. */
  values?: readonly string[];
  /** A state: each value's tone, the colour screens show it in (a value not named is `neutral`). */
  tones?: Readonly<Record<string, Tone>>;
  /**
   * How screens show the value beyond its kind: `money` (a decimal text, `99.90`, as an amount in reais: R$ 99,90);
   * `table` or `timeline` (a JSON list of records whose fields `items` declares: a row each, or a dated step each, its
   * moment in the first `datetime` item). The value itself is answered and taken as its kind says.
   */
  display?: 'money' | 'table' | 'timeline';
  /** The parts of a `table` or `timeline` value, or a map's `key` and `value`: each a field of its own kind and bounds. */
  items?: Record<string, Field>;
  description?: string;
  example?: unknown;
}

/**
 * How screens colour a state's value, as atomic-crm declares a status's colour beside its value: `error` for what went
 * wrong, `success` for what is done, `warning` for what waits on a person or half worked, `info` for what is under
 * way, `neutral` for the rest.
 */
export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'error';
export const TONES = ['neutral', 'info', 'success', 'warning', 'error'] as const satisfies readonly Tone[];

type Options = Omit<Field, 'kind'>;

// Each builder keeps the literal options it is given, so the declaration's TypeScript types (below) know which
// fields are nullable, required or defaulted.
/** The field builders a declaration is written with: `url: text({ required: true, max: 255, listed: true })`. */
export const id = <const O extends Options>(options = {} as O) => ({ kind: 'id' as const, ...options });
export const reference = <const P extends string, const O extends Options>(
  property: P,
  to: string,
  options = {} as O,
) => ({
  kind: 'reference' as const,
  property,
  to,
  ...options,
});
export const datetime = <const O extends Options>(options = {} as O) => ({ kind: 'datetime' as const, ...options });
export const date = <const O extends Options>(options = {} as O) => ({ kind: 'date' as const, ...options });
/**
 * A state of the `values` given, in their order; `tones` names every value's colour on screens, so that a new value
 * is given its colour where it is declared: `state(['open', 'closed'], { tones: { open: 'info', closed: 'neutral' } })`.
 */
export const state = <
  const V extends readonly string[],
  const O extends Omit<Options, 'tones'> & { tones?: Readonly<Record<V[number], Tone>> },
>(
  values: V,
  options = {} as O,
) => ({
  kind: 'state' as const,
  values,
  ...options,
});
export const text = <const O extends Options>(options = {} as O) => ({ kind: 'text' as const, ...options });
export const email = <const O extends Options>(options = {} as O) => ({ kind: 'email' as const, max: 255, ...options });
export const url = <const O extends Options>(options = {} as O) => ({ kind: 'url' as const, ...options });
export const password = <const O extends Options>(options = {} as O) => ({
  kind: 'password' as const,
  min: 8,
  max: 128,
  ...options,
});
export const int = <const O extends Options>(options = {} as O) => ({ kind: 'int' as const, ...options });
export const boolean = <const O extends Options>(options = {} as O) => ({ kind: 'boolean' as const, ...options });
export const json = <const O extends Options>(options = {} as O) => ({ kind: 'json' as const, ...options });
/** The entries a map holds at most unless its declaration says otherwise. */
export const MAP_ENTRIES = 50;
/** A map of `key` (a text field) to `value` (a field of any scalar kind): `map({ key: text(...), value: int(...) })`. */
export const map = <const K extends Field, const V extends Field, const O extends Omit<Options, 'items'>>(
  items: { key: K; value: V },
  options = {} as O,
) => ({ kind: 'map' as const, max: MAP_ENTRIES, ...options, items });

export type Fields = Record<string, Field>;

/** Answered in the public shape. */
export const isAnswered = (field: Field) => field.kind !== 'password';
/** Taken from a create or update body. */
export const isWritable = (field: Field) => field.kind !== 'id' && !field.readOnly;
/** Lists filter by an exact value of it. */
export const isFilter = (field: Field) =>
  !!field.filterable &&
  (field.kind === 'reference' || field.kind === 'state' || field.kind === 'boolean' || field.kind === 'text');

/** `full_name` → `fullName`. */
export const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
export const propertyOf = (name: string, field: Field) => field.property ?? camelCase(name);

// The TypeScript types a declaration stands for.
export type Base<F> = F extends { kind: 'int' }
  ? number
  : F extends { kind: 'map'; items: { value: infer V } }
    ? Record<string, Base<V>>
    : F extends { kind: 'json' }
      ? unknown
      : F extends { kind: 'boolean' }
        ? boolean
        : F extends { values: readonly (infer V)[] }
          ? V
          : string;
// Any field at all (a resource not known by its declaration) holds any value.
type Value<F> = Field extends F ? unknown : F extends { nullable: true } ? Base<F> | null : Base<F>;
type Writable<FS> = {
  [K in keyof FS]: FS[K] extends { kind: 'id' } ? never : FS[K] extends { readOnly: true } ? never : K;
}[keyof FS];
type Answered<FS> = { [K in keyof FS]: FS[K] extends { kind: 'password' } ? never : K }[keyof FS];
/** Given on create: required, or filled in by a default. */
type Given<FS> = {
  [K in keyof FS]: FS[K] extends { required: true } ? K : FS[K] extends { default: unknown } ? K : never;
}[keyof FS];

/** The public shape of a record. */
export type PublicOf<FS> = { [K in Answered<FS>]: Value<FS[K]> };
/** A create body over the fields `P` (all writable ones unless narrowed), once validated. */
export type CreateOf<FS, P extends keyof FS = Writable<FS>> = { [K in Extract<P, Given<FS>>]: Value<FS[K]> } & {
  [K in Exclude<P, Given<FS>>]?: Value<FS[K]>;
};
/** An update body over the fields `P`: each optional, left as it is when not sent. */
export type UpdateOf<FS, P extends keyof FS = Writable<FS>> = { [K in P]?: Value<FS[K]> };
