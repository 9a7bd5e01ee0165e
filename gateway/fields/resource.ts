import { z } from 'zod';
import { Email, HttpUrl, noNul, NUL_MESSAGE, secretNames } from '../validation';
import {
  isAnswered,
  isWritable,
  propertyOf,
  type CreateOf,
  type Field,
  type Fields,
  type PublicOf,
  type UpdateOf,
} from './field';

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
}

/** The rule for a value of the field, before required-ness, defaults and null are applied. */
function valueRule(field: Field): z.ZodType {
  switch (field.kind) {
    case 'id':
    case 'reference':
      return z.guid();
    case 'email':
      return Email;
    case 'password':
      return z
        .string()
        .min(field.min ?? 8)
        .max(field.max ?? 128);
    case 'boolean':
      return z.boolean();
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
  // PostgreSQL text cannot hold NUL; a secret is stored encrypted, so it can.
  return field.secret ? text : text.refine(noNul, NUL_MESSAGE);
}

/** The rule with what the OpenAPI document says of the field: its description, example and format. */
function documented(rule: z.ZodType, field: Field) {
  const format = field.kind === 'url' ? 'uri' : undefined;
  return field.description || field.example !== undefined || format
    ? rule.meta({ description: field.description, example: field.example, format })
    : rule;
}

function inputRule(field: Field, mode: InputMode): z.ZodType {
  const rule = documented(valueRule(field), field);
  if (mode === 'create' && field.required) return rule;
  if (mode === 'create' && field.default !== undefined) return rule.default(field.default as never);
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
          : z.string();
  return documented(field.nullable ? rule.nullable() : rule, field);
}

type Row = Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function compileMapper(fields: Fields): (row: object, reveal: boolean, mask: (value: string) => string) => Row {
  const entries = Object.entries(fields).filter(([, field]) => isAnswered(field));
  const parts = entries.map(([name, field]) => {
    const property = propertyOf(name, field);
    if (!IDENTIFIER.test(name) || !IDENTIFIER.test(property))
      throw new Error(`Field names must be identifiers: ${name}`);
    const value = `row.${property}`;
    if (field.kind === 'reference') return `${name}: ${value}.id`;
    const shown = field.secret ? `(reveal ? ${value} : mask(${value}))` : value;
    return field.nullable ? `${name}: ${value} == null ? null : ${shown}` : `${name}: ${shown}`;
  });
  // The names are the declaration's own identifiers, checked above: nothing from a request reaches this source.
  return new Function('row', 'reveal', 'mask', `return { ${parts.join(', ')} };`) as never;
}

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
  return { id, mode, fields, schema };
}

type WritableName<F> = { [K in keyof F]: F[K] extends { kind: 'id' | 'reference' } ? never : K }[keyof F] & string;

/**
 * A resource declared once: its GraphQL and OpenAPI name, and its fields in API spelling. What it derives: the
 * public shape (zod, for the OpenAPI document), the entity properties a read selects, the mapping of a row to the
 * public shape (secrets masked unless revealed), the bodies of create and update, the mapping of a body to the
 * entity, and what lists may sort by and search.
 */
export class Resource<F extends Fields = Fields> {
  /** The public shape: every answered field. */
  readonly public: z.ZodType<PublicOf<F>>;
  /** The entity properties a read for an answer selects. */
  readonly props: readonly string[];
  /** API field name → entity property, for the fields lists may sort by (and `created_at`). */
  readonly sortable: Record<string, string>;
  /** Entity properties `q` searches. */
  readonly searched: string[];
  /** The fields no two records share. */
  readonly unique: string[];
  readonly create: InputShape<z.ZodType<CreateOf<F, WritableName<F>>>>;
  readonly update: InputShape<z.ZodType<UpdateOf<F, WritableName<F>>>>;

  constructor(
    /** The GraphQL type name, and the OpenAPI components' prefix. */
    readonly name: string,
    readonly fields: F,
  ) {
    const entries = Object.entries(fields);
    const answered = entries.filter(([, f]) => isAnswered(f));
    this.public = z
      .object(Object.fromEntries(answered.map(([n, f]) => [n, outputRule(f)])))
      .meta({ id: `${name}Public` }) as unknown as z.ZodType<PublicOf<F>>;
    this.props = answered.map(([n, f]) => propertyOf(n, f));
    this.sortable = {
      ...Object.fromEntries(entries.flatMap(([n, f]) => (f.sortable ? [[n, propertyOf(n, f)]] : []))),
      created_at: 'createdAt',
    };
    this.searched = entries.flatMap(([n, f]) => (f.searchable ? [propertyOf(n, f)] : []));
    this.unique = entries.flatMap(([n, f]) => (f.unique ? [n] : []));
    for (const [n, f] of entries) if (f.secret || f.kind === 'password') secretNames.add(n);
    this.create = this.createInput(`${name}Create`);
    this.update = this.updateInput(`${name}Update`);
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
    return this.mapper(row, reveal, maskSecret) as PublicOf<F>;
  }

  /**
   * The row → answer mapping, compiled once from the declaration into one object literal: every answer has the same
   * shape, built without a loop or a lookup per field (lists map up to 1,000 rows per request).
   */
  private readonly mapper = compileMapper(this.fields);

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
