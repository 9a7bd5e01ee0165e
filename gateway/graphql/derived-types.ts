import {
  DirectiveLocation,
  GraphQLBoolean,
  GraphQLDirective,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLString,
} from 'graphql';
import { DateResolver, DateTimeResolver, JSONResolver, SafeIntResolver } from 'graphql-scalars';
import type { z } from 'zod';
import { ArgsType, Directive, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { isAnswered, TONES, type Field as FieldDeclaration } from '../kit/field';
import type { InputShape, RecordAction, Resource } from '../kit/resource';
import { validate } from '../validation';

/** The state in which a record action is not offered: a state field and its values. */
const RecordActionUnavailable = new GraphQLInputObjectType({
  name: 'RecordActionUnavailable',
  description: 'A state field of the record and the values in which the action is not offered.',
  fields: {
    field: { type: new GraphQLNonNull(GraphQLString) },
    values: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))) },
  },
});

/** The only states in which a record action is offered: a state field and its values. */
const RecordActionOnly = new GraphQLInputObjectType({
  name: 'RecordActionOnly',
  description:
    'A state field of the record and the only values in which the action is offered (in any other, it is refused ' +
    'with a 409).',
  fields: {
    field: { type: new GraphQLNonNull(GraphQLString) },
    values: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))) },
  },
});

/** What `@resource(actions: ...)` says of one record action: its name (its labels' key) and the mutation it calls. */
const RecordActionInput = new GraphQLInputObjectType({
  name: 'RecordAction',
  description: "An action on one record: `mutation` is called with the record's `id`; `name` keys its labels.",
  fields: {
    name: { type: new GraphQLNonNull(GraphQLString) },
    mutation: { type: new GraphQLNonNull(GraphQLString) },
    needs: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) },
    unavailable: { type: RecordActionUnavailable },
    only: { type: RecordActionOnly },
    confirm: { type: GraphQLBoolean, description: 'Asked for a confirmation first: it cannot be undone' },
  },
});

const valueList = { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) };
/** A state's values by their tone: the five tones of `@tones`, each with its values in the order they are declared. */
const toneArgs = Object.fromEntries(TONES.map((tone) => [tone, valueList]));

/** A state part's values by their tone (`@display(items: [{..., tones: ...}])`), as `@tones` gives a field's. */
const StateTones = new GraphQLInputObjectType({
  name: 'StateTones',
  description: "A state's values by the tone screens show them in, as `@tones` gives them.",
  fields: toneArgs,
});

/** One part of a value shown as a table, a timeline or a map (`@display(items: ...)`): its name, kind and bounds. */
const DisplayItem = new GraphQLInputObjectType({
  name: 'DisplayItem',
  description:
    'One part of each entry of a value shown as a table, a timeline or a map: its `name`, its `kind` (text, int, ' +
    'datetime, state), whether it may be null, how it is shown (`display`: money) and its bounds (`min`, `max`: ' +
    'characters of a text, values of a number; `pattern`: a regular expression a text matches whole).',
  fields: {
    name: { type: new GraphQLNonNull(GraphQLString) },
    kind: { type: new GraphQLNonNull(GraphQLString) },
    nullable: { type: GraphQLBoolean },
    display: { type: GraphQLString },
    min: { type: GraphQLFloat },
    max: { type: GraphQLFloat },
    pattern: { type: GraphQLString },
    description: { type: GraphQLString },
    tones: { type: StateTones },
  },
});

/**
 * The directives schema/schema.graphql describes fields with, so that any client can build forms and lists from it
 * (the admin does, at build time). Their descriptions are the convention.
 */
export const fieldDirectives = [
  new GraphQLDirective({
    name: 'constraint',
    description:
      'Bounds of a value. Text: minLength and maxLength in characters (a required text, minLength 1, is trimmed ' +
      'first). Numbers: min and max. Maps: maxEntries, the most keys the object holds. format: "email" (an email ' +
      'address), "url" (an http or https address, such as "https://loja.example.com") or "password" (write-only ' +
      'text, typed hidden).',
    locations: [DirectiveLocation.FIELD_DEFINITION, DirectiveLocation.ARGUMENT_DEFINITION],
    args: {
      minLength: { type: GraphQLInt },
      maxLength: { type: GraphQLInt },
      min: { type: GraphQLFloat },
      max: { type: GraphQLFloat },
      maxEntries: { type: GraphQLInt },
      format: { type: GraphQLString },
    },
  }),
  new GraphQLDirective({
    name: 'secret',
    description:
      'A secret: superusers read it in clear; anyone else reads "••••••••" and its last 4 characters (nothing after ' +
      'the dots when it is shorter than 12), or null when unset. Sending the masked value back leaves the stored ' +
      'one unchanged. `always`: superusers read it masked too.',
    args: { always: { type: GraphQLBoolean } },
    locations: [DirectiveLocation.FIELD_DEFINITION, DirectiveLocation.ARGUMENT_DEFINITION],
  }),
  new GraphQLDirective({
    name: 'listed',
    description: 'Lists show this field as a column.',
    locations: [DirectiveLocation.FIELD_DEFINITION],
  }),
  new GraphQLDirective({
    name: 'hidden',
    description:
      'Answered like any other field, never shown on screens (no column, filter, input or dialog line): internal ' +
      'bookkeeping, such as a search text or a lease. Its other directives still hold (`q` searches a @searchable one).',
    locations: [DirectiveLocation.FIELD_DEFINITION],
  }),
  new GraphQLDirective({
    name: 'sortable',
    description: "Lists can be ordered by this field: the list query's `sortField` takes its name.",
    locations: [DirectiveLocation.FIELD_DEFINITION],
  }),
  new GraphQLDirective({
    name: 'filterable',
    description:
      "Lists take an exact value of this field as a filter: the list query's `filter` has a field of its name.",
    locations: [DirectiveLocation.FIELD_DEFINITION],
  }),
  new GraphQLDirective({
    name: 'tones',
    description:
      "The colour screens show a state's values in, each value under its tone: `error` (what went wrong), `success` " +
      '(what is done), `warning` (what waits on a person or half worked), `info` (what is under way), `neutral` ' +
      '(the rest, and any value not named).',
    locations: [DirectiveLocation.FIELD_DEFINITION],
    args: toneArgs,
  }),
  new GraphQLDirective({
    name: 'references',
    description: 'The value is the id of a record of the named type (its `type`).',
    locations: [DirectiveLocation.FIELD_DEFINITION],
    args: { type: { type: new GraphQLNonNull(GraphQLString) } },
  }),
  new GraphQLDirective({
    name: 'resource',
    description:
      'A resource the admin shows as a screen: its path in the admin (`screen`) and under /api/v1 (`path`), the ' +
      'operations it offers (list, get, create, update, delete), who may read and write it (`user`: anyone signed ' +
      'in; `superuser`), the field that names a record (`title`, with `subtitle` beside it or in its place), its place in the sidebar (`menu`, 0 for none), ' +
      'its icon, and the actions on one record beyond edit and delete (`actions`: each a mutation taking its `id`).',
    locations: [DirectiveLocation.OBJECT],
    args: {
      screen: { type: new GraphQLNonNull(GraphQLString) },
      path: { type: new GraphQLNonNull(GraphQLString) },
      operations: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))) },
      read: { type: new GraphQLNonNull(GraphQLString) },
      write: { type: new GraphQLNonNull(GraphQLString) },
      title: { type: GraphQLString },
      subtitle: { type: GraphQLString },
      menu: { type: GraphQLInt },
      icon: { type: GraphQLString },
      actions: { type: new GraphQLList(new GraphQLNonNull(RecordActionInput)) },
    },
  }),
  new GraphQLDirective({
    name: 'display',
    description:
      'How screens show the value beyond its type: `as` "money" (a decimal text such as "99.90", an amount in ' +
      'reais: R$ 99,90); "table" or "timeline" (a JSON list of records, each with the `items` given: a row each, or ' +
      'a dated step each); "map" (a JSON object, of the JSON scalar, whose keys are the item "key" and values the ' +
      'item "value", edited as rows).',
    locations: [DirectiveLocation.FIELD_DEFINITION],
    args: {
      as: { type: new GraphQLNonNull(GraphQLString) },
      items: { type: new GraphQLList(new GraphQLNonNull(DisplayItem)) },
    },
  }),
  new GraphQLDirective({
    name: 'searchable',
    description: "The list filter's `q` searches this field (case-insensitive, anywhere in the text).",
    locations: [DirectiveLocation.FIELD_DEFINITION],
  }),
];

const MAX_INT = 2 ** 31 - 1;

const enums = new Map<string, object>();

/** A state field's enum, `<Type><Field>` (`MailJobState`), registered once. */
function enumOf(owner: string, name: string, values: readonly string[]): object {
  const enumName = `${owner}${name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())}`;
  let found = enums.get(enumName);
  if (!found) {
    found = Object.fromEntries(values.map((value) => [value, value]));
    registerEnumType(found, { name: enumName });
    enums.set(enumName, found);
  }
  return found;
}

/**
 * The type function of a field's decorator. A state's enum is registered at once, not when the schema is built (which
 * reads the registered enums first).
 */
function typeThunk(field: FieldDeclaration, owner: string, name: string) {
  const type = graphqlType(field, owner, name);
  return () => type;
}

function graphqlType(field: FieldDeclaration, owner = '', name = '') {
  switch (field.kind) {
    case 'id':
    case 'reference':
      return ID;
    case 'datetime':
      return DateTimeResolver;
    case 'date':
      return DateResolver;
    case 'state':
      return enumOf(owner, name, field.values ?? []);
    case 'int':
      return field.max !== undefined && field.max <= MAX_INT && (field.min ?? 0) >= -MAX_INT - 1
        ? Int
        : SafeIntResolver;
    case 'boolean':
      return GraphQLBoolean;
    case 'json':
    case 'map':
      return JSONResolver;
    default:
      return GraphQLString;
  }
}

/** `@constraint(...)` for a field's bounds, as an output field (`input` false) or an argument. */
function constraint(field: FieldDeclaration, input: boolean): string | undefined {
  const args: string[] = [];
  const textual = field.kind === 'text' || field.kind === 'email' || field.kind === 'url' || field.kind === 'password';
  if (textual) {
    const trimmed = field.kind === 'text' || field.kind === 'url';
    const min = input && field.required && trimmed ? Math.max(1, field.min ?? 1) : field.min;
    if (min !== undefined) args.push(`minLength: ${min}`);
    if (field.max !== undefined) args.push(`maxLength: ${field.max}`);
  } else if (field.kind === 'int') {
    if (field.min !== undefined) args.push(`min: ${field.min}`);
    if (field.max !== undefined) args.push(`max: ${field.max}`);
  } else if (field.kind === 'map' && field.max !== undefined) args.push(`maxEntries: ${field.max}`);
  if (field.kind === 'email') args.push('format: "email"');
  if (field.kind === 'url') args.push('format: "url"');
  if (field.kind === 'password') args.push('format: "password"');
  return args.length ? `@constraint(${args.join(', ')})` : undefined;
}

// type-graphql prints a field's directives in the reverse order of their decorators: applied last to first, they
// read in the order given.
function decorate(target: object, name: string, directives: (string | false | undefined)[]) {
  for (const directive of [...directives].reverse()) if (directive) Directive(directive)(target, name);
}

/** `@secret`, or `@secret(always: true)` for a secret masked for superusers too. */
const secretDirective = (field: FieldDeclaration) =>
  field.secret === 'always' ? '@secret(always: true)' : field.secret ? '@secret' : undefined;

const named = (name: string) => ({ [name]: class {} })[name];

const quoted = (text: string) => JSON.stringify(text);

/** `@resource(...)`: what the admin needs to register the resource's screen. */
/** One record action as a GraphQL input literal. */
function actionLiteral(action: RecordAction): string {
  const parts = [`name: ${quoted(action.name)}`, `mutation: ${quoted(action.mutation)}`];
  if (action.needs?.length) parts.push(`needs: [${action.needs.map(quoted).join(', ')}]`);
  if (action.unavailable)
    parts.push(
      `unavailable: {field: ${quoted(action.unavailable.field)}, values: [${action.unavailable.values.map(quoted).join(', ')}]}`,
    );
  if (action.only)
    parts.push(`only: {field: ${quoted(action.only.field)}, values: [${action.only.values.map(quoted).join(', ')}]}`);
  if (action.confirm) parts.push('confirm: true');
  return `{${parts.join(', ')}}`;
}

/** A state's declared tones as GraphQL arguments, `warning: ["held", "uncertain"], ...`, or nothing without them. */
function tonesArguments(field: FieldDeclaration): string | undefined {
  const { tones } = field;
  if (!tones) return undefined;
  const stray = Object.keys(tones).filter((value) => !field.values?.includes(value));
  if (stray.length) throw new Error(`A tone is declared for ${stray.join(', ')}, not a value of the state`);
  const groups = TONES.flatMap((tone) => {
    const values = (field.values ?? []).filter((value) => tones[value] === tone);
    return values.length ? [`${tone}: [${values.map(quoted).join(', ')}]`] : [];
  });
  return groups.join(', ');
}

/** `@display(...)`: how screens show the field, and the parts of each entry of a table, timeline or map. */
function displayDirective(field: FieldDeclaration): string | undefined {
  // A map is shown as one by its kind: its key and value are its items.
  const display = field.kind === 'map' ? 'map' : field.display;
  if (!display) return undefined;
  const items = Object.entries(field.items ?? {}).map(([name, item]) => {
    const parts = [`name: ${quoted(name)}`, `kind: ${quoted(item.kind)}`];
    if (item.nullable) parts.push('nullable: true');
    if (item.display) parts.push(`display: ${quoted(item.display)}`);
    if (item.min !== undefined) parts.push(`min: ${item.min}`);
    if (item.max !== undefined) parts.push(`max: ${item.max}`);
    if (item.pattern !== undefined) parts.push(`pattern: ${quoted(item.pattern)}`);
    if (item.description) parts.push(`description: ${quoted(item.description)}`);
    const tones = tonesArguments(item);
    if (tones) parts.push(`tones: {${tones}}`);
    return `{${parts.join(', ')}}`;
  });
  return `@display(as: ${quoted(display)}${items.length ? `, items: [${items.join(', ')}]` : ''})`;
}

function resourceDirective(resource: Resource): string {
  const { options } = resource;
  const args = [
    `screen: ${quoted(resource.screen)}`,
    `path: ${quoted(resource.path)}`,
    `operations: [${resource.operations.map(quoted).join(', ')}]`,
    `read: ${quoted(resource.read)}`,
    `write: ${quoted(resource.write)}`,
    options.title && `title: ${quoted(options.title)}`,
    options.subtitle && `subtitle: ${quoted(options.subtitle)}`,
    options.menu !== undefined && `menu: ${options.menu}`,
    options.icon && `icon: ${quoted(options.icon)}`,
    options.actions?.length && `actions: [${options.actions.map(actionLiteral).join(', ')}]`,
  ];
  return `@resource(${args.filter(Boolean).join(', ')})`;
}

const objectTypes = new Map<Resource, new () => object>();

/**
 * The GraphQL object type of a resource: its answered fields, with their bounds and abilities as directives, and the
 * resource itself as `@resource` for the admin. Built once per resource.
 */
export function objectTypeOf(resource: Resource): new () => object {
  const built = objectTypes.get(resource);
  if (built) return built;
  const type = named(`${resource.name}Type`);
  for (const [name, field] of Object.entries(resource.fields)) {
    if (!isAnswered(field)) continue;
    Field(typeThunk(field, resource.name, name), {
      nullable: !!field.nullable,
      description: field.description,
    })(type.prototype, name);
    decorate(type.prototype, name, [
      constraint(field, false),
      secretDirective(field),
      field.listed && '@listed',
      field.hidden && '@hidden',
      field.sortable && '@sortable',
      field.searchable && '@searchable',
      field.filterable && '@filterable',
      field.kind === 'state' && !!field.tones && `@tones(${tonesArguments(field)})`,
      field.kind === 'reference' && field.to && `@references(type: ${quoted(field.to)})`,
      displayDirective(field),
    ]);
  }
  Directive(resourceDirective(resource))(type);
  // Plain data with no field middleware: GraphQL's own property reads (which graphql-jit inlines).
  ObjectType(resource.name, { simpleResolvers: true, description: resource.options.description })(type);
  objectTypes.set(resource, type);
  return type;
}

/**
 * A resource's list filter: `q` when a field is searchable, `ids`, and an exact value for each filter field (an id
 * for a reference, a value of its enum for a state).
 */
export function filterTypeOf(resource: Resource): new () => object {
  const filter = named(`${resource.name}Filter`);
  if (resource.searched.length) Field(() => String, { nullable: true })(filter.prototype, 'q');
  Field(() => [ID], { nullable: true })(filter.prototype, 'ids');
  for (const name of Object.keys(resource.filters)) {
    const field = resource.fields[name];
    Field(typeThunk(field, resource.name, name), { nullable: true })(filter.prototype, name);
  }
  const parts = [resource.searched.length && '`q` searches its searchable fields', '`ids` picks records'];
  InputType(`${resource.name}Filter`, {
    description: `${resource.name} list filter: ${parts.filter(Boolean).join(', ')}`,
  })(filter);
  return filter;
}

/**
 * The arguments of a create or update mutation over an input shape (and the record's `id` for an update): required
 * on create when the field is, with its default, bounds and secrecy.
 */
export function argumentsOf(shape: InputShape, options: { id?: boolean } = {}): new () => object {
  const args = named(`${shape.id}Args`);
  if (options.id) Field(() => ID)(args.prototype, 'id');
  for (const [name, field] of Object.entries(shape.fields)) {
    const required = shape.mode === 'create' && !!field.required;
    const defaultValue = shape.mode === 'create' ? field.default : undefined;
    const owner = shape.id.replace(/(Create|Update)$/, '');
    Field(typeThunk(field, owner, name), { nullable: !required, defaultValue, description: field.description })(
      args.prototype,
      name,
    );
    decorate(args.prototype, name, [constraint(field, true), secretDirective(field)]);
  }
  ArgsType()(args);
  return args;
}

/**
 * A mutation's arguments read with the same rules as a REST body: the `id` travels apart, an argument not given is
 * not sent, and so is a null for a field that cannot be cleared.
 */
export function inputOf<T>(shape: InputShape<z.ZodType<T>>, args: object): T {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    const field = shape.fields[name];
    if (!field || value === undefined || (value === null && !field.nullable)) continue;
    body[name] = value;
  }
  return validate(shape.schema, body, 'body', shape.secrets);
}

/** Arguments read as a body with the same schema REST uses: an argument not given is not sent. */
export function bodyOf<T>(schema: z.ZodType<T>, args: object): T {
  return validate(schema, Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)), 'body');
}
