import { screenOfType, typeOfResource } from '../dataProvider/resourceTypes';
import { mutationOf } from './mutations';
import {
  fieldsOf,
  isNumeric,
  operationNames,
  type ArgumentDescription,
  type Constraint,
  type DisplayItem,
} from './description';

export type FormMode = 'create' | 'edit';
export type InputKind =
  'text' | 'email' | 'url' | 'password' | 'number' | 'boolean' | 'choice' | 'reference' | 'datetime' | 'date' | 'map';

/** One input of a create or edit form, as the schema describes the mutation's argument. */
export interface InputDescription {
  source: string;
  kind: InputKind;
  required: boolean;
  /** The create argument's default: a create form's starting value, and what an emptied number stands for. */
  defaultValue?: unknown;
  constraint: Constraint;
  secret: boolean;
  /** For numbers: the GraphQL type (Int, SafeInt, Float). */
  type: string;
  /** For a choice (a state): its values, in order. */
  values?: readonly string[];
  /** For a reference: the screen of the resource whose record it names. */
  reference?: string;
  /** For a map (`@display(as: "map")`): its keys' and values' parts, bounded. */
  items?: readonly DisplayItem[];
}

function kindOf(arg: ArgumentDescription, reference: string | undefined, display: string | undefined): InputKind {
  if (reference) return 'reference';
  if (display === 'map') return 'map';
  if (arg.type === 'DateTime') return 'datetime';
  if (arg.type === 'Date') return 'date';
  if (arg.type === 'Boolean') return 'boolean';
  if (arg.values) return 'choice';
  if (isNumeric(arg.type)) return 'number';
  if (arg.constraint?.format === 'password') return 'password';
  if (arg.constraint?.format === 'email') return 'email';
  if (arg.constraint?.format === 'url') return 'url';
  return 'text';
}

// Without an order from the screen: what must be filled on create first, then texts, numbers and switches; the same
// order on edit.
const KINDS: InputKind[] = [
  'email',
  'url',
  'text',
  'password',
  'reference',
  'number',
  'datetime',
  'date',
  'choice',
  'boolean',
];
// A map is edited as rows of texts: it keeps a text's place.
const rank = (input: InputDescription, requiredOnCreate: boolean) =>
  (requiredOnCreate ? 0 : 10) + KINDS.indexOf(input.kind === 'map' ? 'text' : input.kind);

/**
 * The inputs of a resource's create form (the create mutation's arguments) or edit form (the update mutation's,
 * without the id). Both forms show the same inputs in the same order with the same required marks: what must be given
 * on create (a non-null argument without default) must stay filled on edit, but for a write-only value (a password),
 * which an edit leaves as it is when empty.
 */
export function formInputs(resource: string, mode: FormMode): InputDescription[] {
  const type = typeOfResource(resource);
  const names = operationNames(type);
  const create = mutationOf(names.create);
  const operation = mode === 'create' ? create : mutationOf(names.update);
  if (!operation) return [];
  const fields = fieldsOf(type);
  const ranks = new Map<InputDescription, number>();
  const inputs = Object.entries(operation.args)
    .filter(([source]) => source !== 'id')
    .map(([source, arg]): InputDescription => {
      const field = fields[source];
      const reference = field?.references ? screenOfType(field.references) : undefined;
      const kind = kindOf(arg, reference, field?.display);
      const onCreate = create?.args[source];
      const input: InputDescription = {
        source,
        kind,
        // A state that cannot be empty is always one of its values: a choice with nothing to leave blank.
        required:
          (kind === 'choice' && field !== undefined && !field.nullable) ||
          (mode === 'create'
            ? arg.required
            : onCreate
              ? onCreate.required && kind !== 'password'
              : kind !== 'boolean' && field !== undefined && !field.nullable),
        defaultValue: onCreate?.default,
        constraint: arg.constraint ?? {},
        secret: !!arg.secret,
        type: arg.type,
        ...(arg.values ? { values: arg.values } : {}),
        ...(reference ? { reference } : {}),
        ...(kind === 'map' && field?.items ? { items: field.items } : {}),
      };
      ranks.set(input, rank(input, (onCreate ?? arg).required));
      return input;
    });
  return inputs.sort((a, b) => ranks.get(a)! - ranks.get(b)!);
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

/** A number typed as text becomes a number; an empty one is its default, or else left out (the value stays). */
function toValue(input: InputDescription | undefined, value: unknown): unknown {
  if (input?.kind === 'number') {
    const text = value == null ? '' : String(value).trim();
    return text === '' ? input.defaultValue : Number(text);
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

// A map is an object: the same when its entries are.
const same = (a: unknown, b: unknown) =>
  (a ?? null) === (b ?? null) ||
  (typeof a === 'object' || typeof b === 'object'
    ? JSON.stringify(a ?? null) === JSON.stringify(b ?? null)
    : String(a ?? '') === String(b ?? ''));

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
