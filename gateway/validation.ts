import { z } from 'zod';
import { ValidationFailed, type ValidationIssue } from './errors';

export type Location = 'body' | 'query' | 'path';

/**
 * Fields whose values are never echoed back in a validation error, whatever the body: the sign-in's, the password
 * change's and recovery's, the authorization callback's. A resource's own secrets are its to name (`validate`).
 */
const BODY_SECRETS: ReadonlySet<string> = new Set(['password', 'new_password', 'current_password', 'token', 'code']);

const NO_SECRETS: ReadonlySet<string> = new Set();

/** Whether the field at the end of `path` is one whose value an error must not echo. */
const isSecret = (field: PropertyKey | undefined, secrets: ReadonlySet<string>) =>
  typeof field === 'string' && (BODY_SECRETS.has(field) || secrets.has(field));
const MAX_ECHO = 200;

function echo(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_ECHO ? `${value.slice(0, MAX_ECHO)}…` : value;
  if (value === null || typeof value !== 'object') return value;
  // Objects and arrays are echoed only when small, so a hostile body is not reflected whole.
  try {
    const text = JSON.stringify(value);
    return text.length > MAX_ECHO ? undefined : value;
  } catch {
    return undefined; // nested too deeply to print: not echoed either
  }
}

/** The value the client sent at `path`. */
function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let value = data;
  for (const key of path)
    value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value;
}

function characters(n: number): string {
  return n === 1 ? '1 character' : `${n} characters`;
}

/** Speak the FastAPI/pydantic dialect existing clients expect: `type` and `msg` as pydantic writes them. */
function toIssue(
  issue: z.core.$ZodIssue,
  root: Location,
  data: unknown,
  secrets: ReadonlySet<string>,
): ValidationIssue {
  const loc = [root, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
  const field = issue.path[issue.path.length - 1];
  // A query parameter coerced to a number arrives as NaN when it is not one: echo what the client sent.
  const input = 'input' in issue ? (Number.isNaN(issue.input) ? valueAt(data, issue.path) : issue.input) : undefined;
  const base = { loc, input: isSecret(field, secrets) ? undefined : echo(input) };
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return { type: 'missing', msg: 'Field required', ...base, input: echo(data) };
      const expected = issue.expected;
      if (expected === 'string') return { type: 'string_type', msg: 'Input should be a valid string', ...base };
      if (expected === 'number' || expected === 'int' || expected === 'bigint') {
        return { type: 'int_parsing', msg: 'Input should be a valid integer', ...base };
      }
      if (expected === 'boolean') return { type: 'bool_type', msg: 'Input should be a valid boolean', ...base };
      if (expected === 'object') {
        return {
          type: 'model_attributes_type',
          msg: 'Input should be a valid dictionary or object to extract fields from',
          ...base,
        };
      }
      return { type: `${expected}_type`, msg: `Input should be a valid ${expected}`, ...base };
    }
    case 'too_small':
      if (issue.origin === 'string') {
        return {
          type: 'string_too_short',
          msg: `String should have at least ${characters(Number(issue.minimum))}`,
          ...base,
          ctx: { min_length: Number(issue.minimum) },
        };
      }
      return {
        type: 'greater_than_equal',
        msg: `Input should be greater than or equal to ${issue.minimum}`,
        ...base,
        ctx: { ge: Number(issue.minimum) },
      };
    case 'too_big':
      if (issue.origin === 'string') {
        return {
          type: 'string_too_long',
          msg: `String should have at most ${characters(Number(issue.maximum))}`,
          ...base,
          ctx: { max_length: Number(issue.maximum) },
        };
      }
      return {
        type: 'less_than_equal',
        msg: `Input should be less than or equal to ${issue.maximum}`,
        ...base,
        ctx: { le: Number(issue.maximum) },
      };
    case 'invalid_format':
      if (issue.format === 'email') return { type: 'value_error', msg: 'value is not a valid email address', ...base };
      if (issue.format === 'url') return { ...urlIssue(input), ...base };
      if (issue.format === 'guid' || issue.format === 'uuid') {
        return { type: 'uuid_parsing', msg: 'Input should be a valid UUID', ...base };
      }
      return { type: 'string_pattern_mismatch', msg: issue.message, ...base };
    case 'custom': {
      // A rule of our own that names its pydantic type (an unknown body field: `extra_forbidden`).
      const type = (issue.params as { type?: unknown } | undefined)?.type;
      return { type: typeof type === 'string' ? type : 'value_error', msg: issue.message, ...base };
    }
    default:
      return { type: 'value_error', msg: issue.message, ...base };
  }
}

/** Why a text is not an http(s) address, as pydantic's HttpUrl says it. */
function urlIssue(input: unknown): { type: string; msg: string } {
  const text = typeof input === 'string' ? input.trim() : '';
  const scheme = /^([a-z][a-z\d+.-]*):/i.exec(text)?.[1];
  if (!scheme) return { type: 'url_parsing', msg: 'Input should be a valid URL, relative URL without a base' };
  if (!/^https?$/i.test(scheme)) return { type: 'url_scheme', msg: "URL scheme should be 'http' or 'https'" };
  if (!/^https?:\/\/[^/?#\s]/i.test(text))
    return { type: 'url_parsing', msg: 'Input should be a valid URL, empty host' };
  return { type: 'url_parsing', msg: 'Input should be a valid URL' };
}

function issuesOf(error: z.ZodError, root: Location, data: unknown, secrets: ReadonlySet<string>): ValidationIssue[] {
  // One entry per problem, as pydantic reports it: zod can report one bound twice (`.int()`'s safe range and an
  // explicit `.max()`), and still checks a length after a wrong type, where only the wrong type is the problem.
  const wrongType = new Set(error.issues.filter((i) => i.code === 'invalid_type').map((i) => JSON.stringify(i.path)));
  const seen = new Set<string>();
  return error.issues
    .filter((i) => i.code === 'invalid_type' || !wrongType.has(JSON.stringify(i.path)))
    .map((i) => toIssue(i, root, data, secrets))
    .filter((issue) => {
      const key = JSON.stringify([issue.type, issue.loc, issue.msg]);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** A UTF-16 surrogate without its pair: no Unicode character, so UTF-8 (PostgreSQL's, bcrypt's) cannot hold it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A value met in a walk, with the way back to the root: a path is spelled out only for a value reported. */
interface Step {
  value: unknown;
  key: PropertyKey;
  parent: Step | undefined;
}

/**
 * The deepest a caller's value may nest, arrays and objects counted alike: no input the API takes comes near it, and
 * a deeper one is refused before any schema or walk reads it, whichever field holds it.
 */
export const MAX_NESTING = 32;

/**
 * Whether `value` nests more than `levels` arrays and objects: recursive, but never deeper than `levels`, and
 * without allocating, as it runs on every input.
 */
function deeperThan(value: unknown, levels: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (deeperThan(item, levels - 1)) return true;
    return false;
  }
  for (const key in value) if (deeperThan((value as Record<string, unknown>)[key], levels - 1)) return true;
  return false;
}

function pathOf(step: Step): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Step | undefined = step; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * Where in a parsed value a text holds a lone surrogate, which would be stored as U+FFFD instead of as sent. A walk
 * with a stack of its own, in document order, so that no value's depth can exhaust the call stack.
 */
function loneSurrogates(data: unknown): PropertyKey[][] {
  const found: PropertyKey[][] = [];
  const stack: Step[] = [{ value: data, key: '', parent: undefined }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const { value } = step;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) found.push(pathOf(step));
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: step });
    } else if (Object.getPrototypeOf(value) === Object.prototype) {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--)
        stack.push({ value: entries[i][1], key: entries[i][0], parent: step });
    }
  }
  return found;
}

const locOf = (root: Location, path: PropertyKey[]) => [
  root,
  ...path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
];

/**
 * Parse `data` with `schema`, or throw a 422 listing every problem under `root`. Every text a caller sends passes
 * here, through every door, so this is where a text that cannot be kept as sent is refused: what the schema keeps
 * is searched, so a field the schema ignores is ignored here too.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  data: unknown,
  root: Location,
  /** The fields of this body whose values an error never echoes (a resource's secrets), beside BODY_SECRETS. */
  secrets: ReadonlySet<string> = NO_SECRETS,
): z.output<S> {
  if (deeperThan(data, MAX_NESTING)) {
    throw new ValidationFailed([
      {
        type: 'json_invalid',
        loc: [root],
        msg: `JSON nested too deeply: at most ${MAX_NESTING} levels of arrays and objects`,
      },
    ]);
  }
  const result = schema.safeParse(data, { reportInput: true });
  if (!result.success) throw new ValidationFailed(issuesOf(result.error, root, data, secrets));
  const broken = loneSurrogates(result.data);
  if (broken.length > 0) {
    throw new ValidationFailed(
      broken.map((path) => {
        const field = path[path.length - 1];
        return {
          type: 'string_unicode',
          loc: locOf(root, path),
          msg: 'Input should be a valid string, unable to parse raw data as a unicode string',
          input: isSecret(field, secrets) ? undefined : echo(valueAt(data, path)),
        };
      }),
    );
  }
  return result.data;
}

// Shared rules outside resource declarations (gateway/fields): an email, a record id, list bounds.
export const Email = z
  .email()
  .max(255)
  .transform((v) => v.toLowerCase());
/** An http or https address (`https://loja.example.com`): nothing else a browser could open as a store's site. */
export const HttpUrl = z.url({ protocol: /^https?$/ });
/** PostgreSQL text cannot hold the NUL character: such input is refused here instead of failing in the database. */
export const noNul = (v: string) => !v.includes('\u0000');
export const NUL_MESSAGE = 'String should not contain the NUL character';
export const Id = z.guid();
export const MAX_LIMIT = 1000;

export const ListQuery = z.object({
  skip: z.coerce.number().int().min(0).max(2_147_483_647).default(0),
  limit: z.coerce.number().int().min(0).max(MAX_LIMIT).default(100),
});
export type ListQuery = z.output<typeof ListQuery>;
export const IdParams = z.object({ id: Id });
/** A record id as a caller gave it (in a path or an argument): a UUID, or a 422 before the database is asked. */
export const recordId = (id: string): string => validate(IdParams, { id }, 'path').id;

export const Message = z.object({ message: z.string() }).meta({ id: 'Message' });
export const listOf = <T extends z.ZodType>(item: T, id: string) =>
  z.object({ data: z.array(item), count: z.number().int() }).meta({ id });
