/** The form rules of the specification, with its exact messages. Each validator answers a message or nothing. */
type Values = Record<string, unknown>;
export type Validator = (value: unknown, values: Values) => string | undefined;

const text = (value: unknown) => (typeof value === 'string' ? value : value == null ? '' : String(value));

export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 128;
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
  if (length < MIN_PASSWORD) return 'Password must be at least 8 characters';
  if (length > MAX_PASSWORD) return 'Password must be at most 128 characters';
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
  maxLength(255, 'Email must be at most 255 characters'),
];
export const newPasswordRules = [required('Password is required'), passwordLength];
