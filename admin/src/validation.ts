import { mutationOf } from './crud/mutations';

/**
 * The sign-in and account forms' rules, with the specification's exact messages. Each validator answers a message or
 * nothing. The bounds the server enforces are read from the schema (schema/schema.graphql, `@constraint`), never
 * typed here.
 */
type Values = Record<string, unknown>;
export type Validator = (value: unknown, values: Values) => string | undefined;

const text = (value: unknown) => (typeof value === 'string' ? value : value == null ? '' : String(value));

/** A bound of a mutation's argument, as the schema states it. */
export function boundOf(mutation: string, argument: string, bound: 'minLength' | 'maxLength'): number {
  const value = mutationOf(mutation)?.args[argument]?.constraint?.[bound];
  if (value === undefined) throw new Error(`The schema gives ${mutation}(${argument}) no ${bound}`);
  return value;
}

export const MIN_PASSWORD = boundOf('signup', 'password', 'minLength');
export const MAX_PASSWORD = boundOf('signup', 'password', 'maxLength');
const MAX_EMAIL = boundOf('signup', 'email', 'maxLength');
export const EMAIL_PATTERN = /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i;

export const required =
  (message: string): Validator =>
  (value) =>
    text(value).trim() ? undefined : message;

export const emailShape: Validator = (value) =>
  !text(value) || EMAIL_PATTERN.test(text(value)) ? undefined : 'Invalid email address';

export const passwordLength: Validator = (value) => {
  const length = text(value).length;
  if (!length) return undefined;
  if (length < MIN_PASSWORD) return `Password must be at least ${MIN_PASSWORD} characters`;
  if (length > MAX_PASSWORD) return `Password must be at most ${MAX_PASSWORD} characters`;
  return undefined;
};

export const matches =
  (other: string): Validator =>
  (value, values) =>
    text(value) === text(values[other]) ? undefined : 'The passwords do not match';

export const maxLength =
  (max: number, message: string): Validator =>
  (value) =>
    text(value).length > max ? message : undefined;

export const minLength =
  (min: number, message: string): Validator =>
  (value) => {
    const length = text(value).trim().length;
    return length && length < min ? message : undefined;
  };

export const emailRules = [
  required('Email is required'),
  emailShape,
  maxLength(MAX_EMAIL, `Email must be at most ${MAX_EMAIL} characters`),
];
export const newPasswordRules = [required('Password is required'), passwordLength];
