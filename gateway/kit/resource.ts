import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { Email, HttpUrl, noNul, NUL_MESSAGE } from '../validation';
import {
  isAnswered,
  isFilter,
  isWritable,
  MAP_ENTRIES,
  propertyOf,
  type CreateOf,
  type Field,
  type Fields,
  type PublicOf,
  type UpdateOf,
} from './field';
import type { EntityOfFields } from './entity-type';

/** The fixed run a masked secret starts with; a real token never contains `•`. */
export const MASK = '••••••••';

/**
 * A secret as someone other than a superuser reads it: the run and its last 4 characters (none of a short one, so
 * that never more than a third of it shows).
 */
export const maskSecret = (value: string): string => MASK + (value.length >= 12 ? value.slice(-4) : '');

/** A secret sent back as it was shown masked: the caller did not change it. */
export const isMasked = (value: unknown): boolean => typeof value === 'string' && value.startsWith(MASK);

/** Whether the input is for a new record (required fields, defaults) or a change (every field optional). */
export type InputMode = 'create' | 'update';

/** The body of one operation: its fields (a resource's, maybe narrowed) and the zod schema that reads them. */
export interface InputShape<S extends z.ZodType = z.ZodType> {
  /** The OpenAPI component name. */
  id: string;
  mode: InputMode;
  fields: Fields;
  schema: S;
  /** Its secret and password fields: a validation error never echoes their values. */
  secrets: ReadonlySet<string>;
}

/** The fields of `fields` whose values are never shown back: secrets and passwords. */
const secretsOf = (fields: Fields): ReadonlySet<string> =>
  new Set(Object.entries(fields).flatMap(([n, f]) => (f.secret || f.kind === 'password' ? [n] : [])));

/** The rule for a value of the field, before required-ness, defaults and null are applied. */
function valueRule(field: Field): z.ZodType {
  switch (field.kind) {
    case 'id':
    case 'reference':
      return z.guid();
    case 'datetime':
      // GraphQL's DateTime scalar hands over a Date: read as the instant it is.
      return z.preprocess(
        (v) => (v instanceof Date && !Number.isNaN(v.getTime()) ? v.toISOString() : v),
        z.iso.datetime({ offset: true }),
      );
    case 'date':
      // GraphQL's Date scalar hands over a Date at midnight UTC: read as its day.
      return z.preprocess(
        (v) => (v instanceof Date && !Number.isNaN(v.getTime()) ? v.toISOString().slice(0, 10) : v),
        z.iso.date(),
      );
    case 'state':
      return z.enum(field.values as [string, ...string[]]);
    case 'email':
      return Email;
    case 'password':
      return z
        .string()
        .min(field.min ?? 8)
        .max(field.max ?? 128);
    case 'boolean':
      return z.boolean();
    case 'json':
      return z.unknown();
    case 'map':
      return mapRule(field);
    case 'int': {
      let number = z.number().int();
      if (field.min !== undefined) number = number.min(field.min);
      if (field.max !== undefined) number = number.max(field.max);
      // A number may also come as text of digits, as pydantic reads it (the screens send text).
      return z.preprocess((v) => (typeof v === 'string' && /^\s*-?\d{1,16}\s*$/.test(v) ? Number(v) : v), number);
    }
    case 'text':
      return textRule(field);
    case 'url':
      // Its length first, as any text; then its form.
      return textRule(field).pipe(HttpUrl);
  }
}

function textRule(field: Field) {
  let text = field.required ? z.string().trim().min(1) : z.string();
  if (field.min !== undefined && field.min > 1) text = text.min(field.min);
  if (field.max !== undefined) text = text.max(field.max);
  if (field.pattern !== undefined) text = text.regex(new RegExp(`^(?:${field.pattern})$`));
  // PostgreSQL text cannot hold NUL; a secret is stored encrypted, so it can.
  return field.secret ? text : text.refine(noNul, NUL_MESSAGE);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A JSON object whose keys and values are bounded as `items.key` and `items.value` say (a client's payment map:
 * `{"pix": 12}`), of at most `max` entries. A bad entry is refused at its key (`['body', 'orders_payment_ids', 'pix']`),
 * as its key's or its value's rule says; the entries are counted before any is read.
 */
function mapRule(field: Field) {
  const { key, value } = field.items ?? {};
  if (key?.kind !== 'text' || !value) throw new Error('A map declares its items: a text key and a value');
  const most = field.max ?? MAP_ENTRIES;
  const keyError = `Invalid key: ${key.description ?? 'not a valid key'}`;
  const entries = z.record(valueRule(key) as z.ZodType<string>, valueRule(value), {
    error: (issue) => (issue.code === 'invalid_key' ? keyError : undefined),
  });
  return z
    .preprocess((given, context) => {
      // A map sent as JSON text in a string (the payment map's shape before it was an object) is told so.
      if (!isPlainObject(given))
        context.addIssue({
          code: 'custom',
          message:
            typeof given === 'string'
              ? 'Input should be a valid dictionary: a JSON object, not JSON text in a string'
              : 'Input should be a valid dictionary',
          params: { type: 'dict_type' },
          input: given,
        });
      else if (Object.keys(given).length > most)
        context.addIssue({
          code: 'custom',
          message: `Dictionary should have at most ${most} entries, not ${Object.keys(given).length}`,
          params: { type: 'too_long' },
          input: undefined,
        });
      return given;
    }, entries)
    .meta({ maxProperties: most });
}

/** The rule with what the OpenAPI document says of the field: its description, example and format. */
function documented(rule: z.ZodType, field: Field) {
  const format =
    field.kind === 'url' ? 'uri' : field.kind === 'datetime' ? 'date-time' : field.kind === 'date' ? 'date' : undefined;
  return field.description || field.example !== undefined || format
    ? rule.meta({ description: field.description, example: field.example, format })
    : rule;
}

function inputRule(field: Field, mode: InputMode): z.ZodType {
  const rule = documented(valueRule(field), field);
  if (mode === 'create' && field.required) return rule;
  if (mode === 'create' && field.default !== undefined) return rule.default(field.default);
  return field.nullable ? rule.nullable().optional() : rule.optional();
}

function outputRule(field: Field): z.ZodType {
  const rule =
    field.kind === 'id' || field.kind === 'reference'
      ? z.guid()
      : field.kind === 'int'
        ? z.number().int()
        : field.kind === 'boolean'
          ? z.boolean()
          : field.kind === 'state'
            ? z.enum(field.values as [string, ...string[]])
            : field.kind === 'map'
              ? z.record(z.string(), outputRule(field.items!.value)).meta({ maxProperties: field.max ?? MAP_ENTRIES })
              : field.kind === 'json'
                ? field.items
                  ? z.array(
                      z.object(Object.fromEntries(Object.entries(field.items).map(([n, f]) => [n, outputRule(f)]))),
                    )
                  : z.unknown()
                : z.string();
  return documented(field.nullable ? rule.nullable() : rule, field);
}

type Row = Record<string, unknown>;

/** Some of a resource's answered fields: the entity properties a read of them selects, and their answer. */
export interface Reading {
  /** The fields' names, told apart from another reading's (`*`: every answered field). */
  readonly key: string;
  readonly props: readonly string[];
  /** A row read with `props` as the API answers those fields; secrets in clear only when `reveal`. */
  toPublic(row: object, reveal?: boolean): Row;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function compileMapper(fields: Fields): (row: object, reveal: boolean, mask: (value: string) => string) => Row {
  const entries = Object.entries(fields).filter(([, field]) => isAnswered(field));
  const parts = entries.map(([name, field]) => {
    const property = propertyOf(name, field);
    if (!IDENTIFIER.test(name) || !IDENTIFIER.test(property))
      throw new Error(`Field names must be identifiers: ${name}`);
    const value = `row.${property}`;
    if (field.kind === 'reference') return `${name}: ${value} == null ? null : ${value}.id`;
    if (field.kind === 'datetime') return `${name}: ${value} == null ? null : new Date(${value}).toISOString()`;
    if (field.kind === 'date') return `${name}: ${value} == null ? null : day(${value})`;
    const shown =
      field.secret === 'always' ? `mask(${value})` : field.secret ? `(reveal ? ${value} : mask(${value}))` : value;
    return field.nullable ? `${name}: ${value} == null ? null : ${shown}` : `${name}: ${shown}`;
  });
  // The names are the declaration's own identifiers, checked above: nothing from a request reaches this source.
  const run = new Function('row', 'reveal', 'mask', 'day', `return { ${parts.join(', ')} };`);
  return (row, reveal, mask) => run(row, reveal, mask, day) as Row;
}

/** A day as stored (text from the driver, or a Date at midnight UTC) as ISO 8601: `2025-03-10`. */
const day = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));

/** The body of an operation over declared fields that belong to no resource (a password change, a reset). */
export function inputShape<F extends Fields>(
  id: string,
  mode: 'create',
  fields: F,
): InputShape<z.ZodType<CreateOf<F, keyof F>>>;
export function inputShape(id: string, mode: InputMode, fields: Fields): InputShape;
export function inputShape(id: string, mode: InputMode, fields: Fields): InputShape {
  const schema = z
    .object(Object.fromEntries(Object.entries(fields).map(([n, f]) => [n, inputRule(f, mode)])))
    .meta({ id });
  return { id, mode, fields, schema, secrets: secretsOf(fields) };
}

type WritableName<F> = {
  [K in keyof F]: F[K] extends { kind: 'id' } ? never : F[K] extends { readOnly: true } ? never : K;
}[keyof F] &
  string;

/** What a resource offers: reading (a list and one record) and, unless it is read-only, writing. */
export type Operation = 'list' | 'get' | 'create' | 'update' | 'delete';
export const ALL_OPERATIONS: readonly Operation[] = ['list', 'get', 'create', 'update', 'delete'];

/** Who may: anyone signed in and active, or superusers only. */
export type Audience = 'user' | 'superuser';

/**
 * An action on one record beyond editing and deleting it (a client's "sync now"): a GraphQL mutation taking the
 * record's `id`. The admin offers it in the record's row menu and edit dialog, worded by `actions.<name>` in the
 * screen's labels.
 */
export interface RecordAction {
  /** The action's key in the screen's labels (`actions.sync.label`). */
  name: string;
  /** The mutation it calls with `{ id }` (the gateway checks at start that it exists and takes an `id`). */
  mutation: string;
  /**
   * The fields a record must have set for the action to work (a client's sync: both credentials and the store): the
   * service refuses it naming the missing ones, and the admin names them where it does not offer it.
   */
  needs?: readonly string[];
  /** A state field and its values in which the action is not offered (a client not connected, or its store suspended). */
  unavailable?: { field: string; values: readonly string[] };
  /**
   * A state field and the only values in which the action is offered (an order's "Reenviar": held, rejected or
   * uncertain): the service refuses it in any other with a 409, and the admin does not offer it there.
   */
  only?: { field: string; values: readonly string[] };
  /** The admin asks first, naming what the action does (`actions.<name>.confirm`): an action that cannot be undone. */
  confirm?: boolean;
}

/** A job a write queues: its queue's name (gateway/queue/payloads.ts), its data, and one queued at a time per key. */
export interface QueuedWork {
  queue: string;
  data: object;
  singletonKey?: string;
}

/**
 * Everything about a resource beyond its fields. Only `name` is required; the rest have the defaults given. `E` is
 * the resource's entity as the ORM holds it, which its hooks are given.
 */
export interface ResourceOptions<E = EntityOfFields<Fields>> {
  /** The table (default: the name in snake_case, plural: `SyncRun` → `sync_runs`). */
  table?: string;
  /**
   * A read-only resource over a query rather than a table: a `select` whose columns are the fields' names (and
   * `created_at`). It has no migration; its total is a count of the query.
   */
  source?: string;
  /** The REST path under /api/v1 (default: the table with hyphens: `/sync-runs/`). */
  path?: string;
  /** The admin screen's path (default: the REST path). */
  screen?: string;
  /** How messages name one record (default: the name in lower-case words: `SyncRun` → `sync run`). */
  noun?: string;
  /** Default: every one; a history or a log is `['list', 'get']`. */
  operations?: readonly Operation[];
  /** Who may read it (default `user`). */
  read?: Audience;
  /** Who may create, change and delete (default `user`). */
  write?: Audience;
  /** A reference field naming the record's owner: anyone but a superuser sees and changes only their own. */
  owner?: string;
  /**
   * Totals per owner kept by triggers in this table (owner id → total), for owners' unfiltered lists; without it,
   * an owner's total is counted.
   */
  ownerTotals?: string;
  /** The field that names a record in the admin (its row menu, the delete confirmation, a phone's list). */
  title?: string;
  /** The field shown beside the title (`Loja da Maria (https://loja.example)`), and in its place when it is empty. */
  subtitle?: string;
  /** Its place in the admin's sidebar (lower first); 0 keeps it out of the sidebar. */
  menu?: number;
  /** A Material icon's name for its sidebar entry (see admin/src/layout/icons.ts). */
  icon?: string;
  /** Actions on one record beyond edit and delete, each a mutation taking its `id` (see RecordAction). */
  actions?: readonly RecordAction[];
  // The hooks are methods so that a resource's own options (typed by its entity) still count as any resource's.
  /**
   * Brings a record's derived columns in line with what it holds, before a create or an update is written; given the
   * record as it was (null on create).
   */
  settle?(row: E, before: E | null): void;
  /**
   * The work a create or an update queues, given the record as written and as it was (null on create): queued in the
   * write's own transaction, so the change and its work are saved together or not at all (a client's orders turned
   * on: their webhooks registered at once).
   */
  queues?(row: E, before: E | null): readonly QueuedWork[];
  /** Served by code of its own rather than the generic REST routes and GraphQL operations (users). */
  ownAdapters?: boolean;
  /**
   * Deleting archives the record instead of removing it (a client: its orders and runs are the retailer's history).
   * `field` is a nullable, read-only `datetime` a delete sets. An archived record is left out of lists and pickers
   * (a lookup by `ids` still finds it, so the history naming it shows its name), answered by id, refused a change, and
   * shares its unique values with no live record (their indexes leave it out). A superuser restores it, or purges it:
   * the rows of `history` (each table and its column naming the record) are deleted with it, in one transaction.
   */
  archive?: { field: string; history: readonly { table: string; column: string }[] };
  /**
   * The order of a list that asks for none, as fields and directions (default: newest first): a health list, worst
   * first.
   */
  order?: readonly (readonly [field: string, direction: 'asc' | 'desc'])[];
  /** Sets of fields no two records share together (`[['client_id', 'nuvemshop_order_id']]`): a unique index each. */
  unique?: readonly (readonly string[])[];
  description?: string;
}

/** `SyncRun` → `sync_run`. */
const snakeCase = (name: string) => name.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();

/**
 * A resource declared once: its GraphQL and OpenAPI name, its fields in API spelling, and its options. What it
 * derives: the public shape (zod, for the OpenAPI document), the entity properties a read selects, the mapping of a
 * row to the public shape (secrets masked unless revealed), the bodies of create and update, the mapping of a body
 * to the entity, what lists may sort by, search and filter by, and its messages. Its entity (gateway/resources/
 * entity.ts), REST routes, GraphQL type and operations and admin screen are derived from it in turn.
 */
export class Resource<F extends Fields = Fields> {
  /** The public shape: every answered field. */
  readonly public: z.ZodType<PublicOf<F>>;
  /** Every answered field, read with the id's and the owner's properties: what REST answers. */
  readonly full: Reading;
  /** API field name → entity property, for the fields lists may sort by (and `created_at`). */
  readonly sortable: Record<string, string>;
  /** Entity properties `q` searches. */
  readonly searched: string[];
  /** API field name → entity property, for the fields lists filter by an exact value of. */
  readonly filters: Record<string, string>;
  /** The fields no two records share. */
  readonly unique: string[];
  /**
   * Its secret and password fields: masked in answers to anyone but a superuser (to superusers too when `always`), never
   * echoed by an error.
   */
  readonly secrets: ReadonlySet<string>;
  readonly create: InputShape<z.ZodType<CreateOf<F, WritableName<F>>>>;
  readonly update: InputShape<z.ZodType<UpdateOf<F, WritableName<F>>>>;
  readonly table: string;
  readonly path: string;
  readonly screen: string;
  readonly noun: string;
  readonly operations: readonly Operation[];
  readonly read: Audience;
  readonly write: Audience;
  /** The messages its answers use, letter for letter (`Item not found`, `Client deleted successfully`). */
  readonly messages: {
    notFound: string;
    deleted: string;
    taken: string;
    /** Per unique field, the 409 naming that field alone (`A client with this url already exists`). */
    takenBy: Record<string, string>;
    notArchived: string;
    restored: string;
    purged: string;
  };

  constructor(
    /** The GraphQL type name, and the OpenAPI components' prefix. */
    readonly name: string,
    readonly fields: F,
    readonly options: ResourceOptions<EntityOfFields<F>> = {},
  ) {
    const entries = Object.entries(fields);
    const answered = entries.filter(([, f]) => isAnswered(f));
    this.public = z
      .object(Object.fromEntries(answered.map(([n, f]) => [n, outputRule(f)])))
      .meta({ id: `${name}Public` }) as z.ZodType<PublicOf<F>>;
    this.full = this.readingOf('*', answered);
    this.sortable = {
      ...Object.fromEntries(entries.flatMap(([n, f]) => (f.sortable ? [[n, propertyOf(n, f)]] : []))),
      created_at: 'createdAt',
    };
    this.searched = entries.flatMap(([n, f]) => (f.searchable ? [propertyOf(n, f)] : []));
    this.filters = Object.fromEntries(entries.flatMap(([n, f]) => (isFilter(f) ? [[n, propertyOf(n, f)]] : [])));
    this.unique = entries.flatMap(([n, f]) => (f.unique ? [n] : []));
    this.secrets = secretsOf(fields);
    this.create = this.createInput(`${name}Create`);
    this.update = this.updateInput(`${name}Update`);
    const words = snakeCase(name);
    this.table = options.table ?? `${words}s`;
    this.path = options.path ?? this.table.replace(/_/g, '-');
    this.screen = options.screen ?? this.path;
    this.noun = options.noun ?? words.replace(/_/g, ' ');
    this.operations = options.operations ?? (options.source ? ['list', 'get'] : ALL_OPERATIONS);
    this.read = options.read ?? 'user';
    this.write = options.write ?? 'user';
    const Noun = this.noun[0].toUpperCase() + this.noun.slice(1);
    this.messages = {
      notFound: `${Noun} not found`,
      deleted: `${Noun} deleted successfully`,
      taken: `A ${this.noun} with this ${this.unique.join(' or ')} already exists`,
      takenBy: Object.fromEntries(this.unique.map((n) => [n, `A ${this.noun} with this ${n} already exists`])),
      notArchived: `${Noun} is not archived`,
      restored: `${Noun} restored successfully`,
      purged: `${Noun} and its history purged successfully`,
    };
    const archive = options.archive && fields[options.archive.field];
    if (options.archive && (archive?.kind !== 'datetime' || !archive.nullable || !archive.readOnly))
      throw new Error(`${name}: its archive field (${options.archive.field}) must be a nullable, readOnly datetime`);
    // The owner is whoever created the record: taken from a body, anyone could give their records away or take others'.
    if (options.owner && !fields[options.owner]?.readOnly)
      throw new Error(`${name}: its owner (${options.owner}) must be a readOnly reference`);
    for (const [field] of options.order ?? [])
      if (!fields[field]) throw new Error(`${name}: its order names ${field}, which is not one of its fields`);
    if (options.source && this.operations.some((op) => op !== 'list' && op !== 'get'))
      throw new Error(`${name}: a resource over a query is read-only`);
    // A hidden field is the system's bookkeeping: no screen shows it, so none may ask a person for it, list it, sort
    // or filter by it. Refused here, the admin needs no case for one.
    const written = this.operations.includes('create') || this.operations.includes('update');
    for (const [field, declared] of Object.entries(fields)) {
      const offered = (written && !declared.readOnly) || declared.listed || declared.sortable || declared.filterable;
      if (declared.hidden && offered)
        throw new Error(`${name}.${field}: a hidden field must be readOnly, and not listed, sortable or filterable`);
    }
  }

  /** Whether it offers an operation. */
  offers(operation: Operation): boolean {
    return this.operations.includes(operation);
  }

  /** A create body over some writable fields (all unless picked); `bounds` narrows a field for it alone. */
  createInput<P extends WritableName<F> = WritableName<F>>(
    id: string,
    pick?: readonly P[],
    bounds: Partial<Record<P, Partial<Field>>> = {},
  ): InputShape<z.ZodType<CreateOf<F, P>>> {
    return this.input(id, 'create', pick, bounds) as InputShape<z.ZodType<CreateOf<F, P>>>;
  }

  /** An update body over some writable fields (all unless picked), each optional. */
  updateInput<P extends WritableName<F> = WritableName<F>>(
    id: string,
    pick?: readonly P[],
    bounds: Partial<Record<P, Partial<Field>>> = {},
  ): InputShape<z.ZodType<UpdateOf<F, P>>> {
    return this.input(id, 'update', pick, bounds) as InputShape<z.ZodType<UpdateOf<F, P>>>;
  }

  private input(id: string, mode: InputMode, pick: readonly string[] | undefined, bounds: object): InputShape {
    const names = pick ?? Object.entries(this.fields).flatMap(([n, f]) => (isWritable(f) ? [n] : []));
    const narrowed = bounds as Record<string, Partial<Field>>;
    return inputShape(id, mode, Object.fromEntries(names.map((n) => [n, { ...this.fields[n], ...narrowed[n] }])));
  }

  /** A row read with `props` (or the entity) as the API answers it; secrets in clear only when `reveal`. */
  toPublic(row: object, reveal = false): PublicOf<F> {
    return this.full.toPublic(row, reveal) as PublicOf<F>;
  }

  /** The readings last asked for: a caller naming ever new sets of fields makes them compiled anew, not kept. */
  private readonly readings = new LRUCache<string, Reading>({ max: 64 });

  /**
   * What a read of some answered fields (API names) selects and answers: those fields' properties, the id's and the
   * owner's (which a read of one record is checked by), and an answer of those fields alone. A name that is no
   * answered field reads every field. The sets last asked for are kept, each compiled once.
   */
  reading(names: Iterable<string>): Reading {
    const asked = new Set(names);
    for (const name of asked) if (!Object.hasOwn(this.fields, name) || !isAnswered(this.fields[name])) return this.full;
    const picked = Object.entries(this.fields).filter(([n, f]) => isAnswered(f) && asked.has(n));
    const key = picked.map(([n]) => n).join(',');
    let reading = this.readings.get(key);
    if (!reading) this.readings.set(key, (reading = this.readingOf(key, picked)));
    return reading;
  }

  /**
   * The reading of some answered fields: their properties with the id's and the owner's (whom one record's reader is
   * checked against), and their row → answer mapping, compiled into one object literal: every answer has the same
   * shape, built without a loop or a lookup per field (lists map up to 1,000 rows per request).
   */
  private readingOf(key: string, picked: [string, Field][]): Reading {
    const props = picked.map(([n, f]) => propertyOf(n, f));
    for (const name of ['id', this.options.owner]) {
      const prop = name && this.fields[name] ? propertyOf(name, this.fields[name]) : undefined;
      if (prop && !props.includes(prop)) props.push(prop);
    }
    const mapper = compileMapper(Object.fromEntries(picked));
    return { key, props, toPublic: (row, reveal = false) => mapper(row, reveal, maskSecret) };
  }

  /**
   * The entity values a body sets: fields not sent are left out, and a masked secret is not a value (nothing to
   * keep on create, the stored one kept on update). Passwords are the service's to hash.
   */
  toEntity(input: object, mode: InputMode): Row {
    const out: Row = {};
    const given = input as Row;
    for (const [name, field] of Object.entries(this.fields)) {
      const value = given[name];
      if (value === undefined || !isWritable(field) || field.kind === 'password') continue;
      if (field.secret && isMasked(value)) {
        if (mode === 'create') out[propertyOf(name, field)] = null;
        continue;
      }
      out[propertyOf(name, field)] = value;
    }
    return out;
  }
}
