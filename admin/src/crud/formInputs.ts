import { typeOfResource } from '../dataProvider/resourceTypes';
import {
  fieldsOf,
  isNumeric,
  mutationOf,
  operationNames,
  type ArgumentDescription,
  type Constraint,
} from './description';

export type FormMode = 'create' | 'edit';
export type InputKind = 'text' | 'email' | 'url' | 'password' | 'number' | 'boolean';

/** One input of a create or edit form, as the schema describes the mutation's argument. */
export interface InputDescription {
  source: string;
  kind: InputKind;
  required: boolean;
  defaultValue?: unknown;
  constraint: Constraint;
  secret: boolean;
  /** For numbers: the GraphQL type (Int, SafeInt, Float). */
  type: string;
}

function kindOf(arg: ArgumentDescription): InputKind {
  if (arg.type === 'Boolean') return 'boolean';
  if (isNumeric(arg.type)) return 'number';
  if (arg.constraint?.format === 'password') return 'password';
  if (arg.constraint?.format === 'email') return 'email';
  if (arg.constraint?.format === 'url') return 'url';
  return 'text';
}

// Without an order from the screen: what must be filled first, then texts, numbers and switches.
const rank = (input: InputDescription) =>
  (input.required ? 0 : 10) + ['email', 'url', 'text', 'password', 'number', 'boolean'].indexOf(input.kind);

/**
 * The inputs of a resource's create form (the create mutation's arguments) or edit form (the update mutation's,
 * without the id). Required on create: a non-null argument without default. Required on edit: a text or number the
 * record cannot be without (a non-null field of the type), as leaving it empty could not be saved.
 */
export function formInputs(resource: string, mode: FormMode): InputDescription[] {
  const type = typeOfResource(resource);
  const names = operationNames(type);
  const operation = mutationOf(mode === 'create' ? names.create : names.update);
  if (!operation) return [];
  const fields = fieldsOf(type);
  const inputs = Object.entries(operation.args)
    .filter(([source]) => source !== 'id')
    .map(([source, arg]): InputDescription => {
      const kind = kindOf(arg);
      const field = fields[source];
      return {
        source,
        kind,
        required: mode === 'create' ? arg.required : kind !== 'boolean' && field !== undefined && !field.nullable,
        defaultValue: mode === 'create' ? arg.default : undefined,
        constraint: arg.constraint ?? {},
        secret: !!arg.secret,
        type: arg.type,
      };
    });
  return inputs.sort((a, b) => rank(a) - rank(b));
}

/** A create form's starting values: the schema's defaults, then the screen's own. */
export function createDefaults(inputs: InputDescription[], overrides: Record<string, unknown> = {}) {
  const values: Record<string, unknown> = {};
  for (const input of inputs) {
    if (input.defaultValue !== undefined) values[input.source] = input.defaultValue;
    else if (input.kind === 'boolean') values[input.source] = false;
  }
  return { ...values, ...overrides };
}

/** A number typed as text becomes a number; an empty one is left out (the server's default or value stays). */
function toValue(input: InputDescription | undefined, value: unknown): unknown {
  if (input?.kind === 'number') {
    const text = value == null ? '' : String(value).trim();
    return text === '' ? undefined : Number(text);
  }
  if (typeof value === 'string' && value === '') return null;
  return value;
}

/** The values a create form sends: every input's value (numbers as numbers) and the screen's extra fields. */
export function createData(inputs: InputDescription[], values: Record<string, unknown>) {
  const bySource = new Map(inputs.map((input) => [input.source, input]));
  const data: Record<string, unknown> = {};
  for (const [source, value] of Object.entries(values)) {
    const converted = toValue(bySource.get(source), value);
    if (converted !== undefined) data[source] = converted;
  }
  return data;
}

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null) || String(a ?? '') === String(b ?? '');

/**
 * The values an edit form sends: only the inputs whose value changed (a field not sent is left as it is), so an
 * empty write-only input (a password) is left out.
 */
export function updateData(
  inputs: InputDescription[],
  values: Record<string, unknown>,
  record: Record<string, unknown>,
) {
  const data: Record<string, unknown> = {};
  for (const input of inputs) {
    const value = values[input.source];
    if (same(value, record[input.source])) continue;
    const converted = toValue(input, value);
    if (converted !== undefined) data[input.source] = converted;
  }
  return data;
}
