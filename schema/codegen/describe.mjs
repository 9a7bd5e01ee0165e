// @ts-check
/**
 * A @graphql-codegen plugin: the schema's object types (fields, nullability and the convention's directives) and
 * its queries and mutations (arguments, their defaults and bounds, return types) as `as const` data, so the admin
 * derives its requests, columns, inputs and validators from schema/schema.graphql at build time.
 */
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  valueFromAST,
} from 'graphql';

/** The argument values of a directive applied to a field or an argument, or undefined when it is not applied. */
function directiveArgs(schema, node, name) {
  const applied = node?.directives?.find((d) => d.name.value === name);
  if (!applied) return undefined;
  const definition = schema.getDirective(name);
  const values = {};
  for (const arg of applied.arguments ?? []) {
    const type = definition?.args.find((a) => a.name === arg.name.value)?.type;
    values[arg.name.value] = type ? valueFromAST(arg.value, type) : undefined;
  }
  return values;
}

/** The type's shape: its named type, whether it may be null, whether it is a list, and its SDL spelling. */
function shape(type) {
  const nullable = !isNonNullType(type);
  return { type: getNamedType(type).name, nullable, list: isListType(getNullableType(type)), sdl: String(type) };
}

function describeField(schema, field) {
  // Only what the admin reads: the named type, and `nullable` or `list` when they hold (the first screen carries
  // this description, so it says nothing twice).
  const { type, nullable, list } = shape(field.type);
  const description = { type };
  if (nullable) description.nullable = true;
  if (list) description.list = true;
  // Its bounds are the mutations' arguments' (mutations.ts), which the forms read.
  for (const flag of ['secret', 'listed', 'hidden', 'sortable', 'searchable', 'filterable']) {
    if (directiveArgs(schema, field.astNode, flag)) description[flag] = true;
  }
  const references = directiveArgs(schema, field.astNode, 'references');
  if (references) description.references = references.type;
  const display = directiveArgs(schema, field.astNode, 'display');
  if (display) {
    description.display = display.as;
    // Each part as its declaration gives it, without what the admin does not read (a null bound, its description).
    if (display.items)
      description.items = display.items.map((item) =>
        Object.fromEntries(
          Object.entries(item)
            .map(([key, value]) => [key, key === 'tones' ? tonesByValue(value) : value])
            .filter(([key, value]) => value != null && key !== 'description'),
        ),
      );
  }
  const named = getNamedType(field.type);
  if (isEnumType(named)) description.values = inFileOrder(named.getValues()).map((value) => value.name);
  const tones = tonesByValue(directiveArgs(schema, field.astNode, 'tones'), description.values);
  if (tones) description.tones = tones;
  return description;
}

/**
 * A state's tones (`@tones`, or a part's `tones`: its values under each tone) as each value's tone, the values in
 * their declared order when they are known; a neutral value is left out (the admin shows a value not named so), and
 * so are tones that name none but neutral ones.
 */
function tonesByValue(groups, values) {
  const tones = {};
  for (const [tone, named] of Object.entries(groups ?? {}))
    if (tone !== 'neutral') for (const value of named ?? []) tones[value] = tone;
  const ordered = values ? values.filter((value) => value in tones) : Object.keys(tones);
  return ordered.length ? Object.fromEntries(ordered.map((value) => [value, tones[value]])) : undefined;
}

function describeArgument(schema, arg) {
  const { type, nullable, list, sdl } = shape(arg.type);
  const description = { type, list, sdl, required: !nullable && arg.defaultValue === undefined };
  if (arg.defaultValue !== undefined) description.default = arg.defaultValue;
  const constraint = directiveArgs(schema, arg.astNode, 'constraint');
  if (constraint) description.constraint = constraint;
  if (directiveArgs(schema, arg.astNode, 'secret')) description.secret = true;
  const named = getNamedType(arg.type);
  if (isEnumType(named)) description.values = inFileOrder(named.getValues()).map((value) => value.name);
  return description;
}

/** Each operation's arguments and, when `returns` (the mutations), the type it answers with. */
function describeOperations(schema, type, returns = false) {
  const operations = {};
  for (const field of Object.values(type?.getFields() ?? {})) {
    const args = {};
    for (const arg of inFileOrder(field.args)) args[arg.name] = describeArgument(schema, arg);
    operations[field.name] = returns ? { args, returns: getNamedType(field.type).name } : { args };
  }
  return operations;
}

const literal = (value) => JSON.stringify(value, null, 2);

/**
 * A type's fields, an operation's arguments or an enum's values in the order schema/schema.graphql declares them,
 * which is the order the gateway declares them in (a state's lifecycle): codegen hands plugins a sorted schema, but
 * each definition keeps its place in the file.
 */
const inFileOrder = (list) => [...list].sort((a, b) => (a.astNode?.loc?.start ?? 0) - (b.astNode?.loc?.start ?? 0));

/** The resources in sidebar order (`menu`, lowest first; those without one, or out of the sidebar (0), last), then by name. */
const sortedByMenu = (resources) =>
  Object.fromEntries(
    Object.entries(resources).sort(([a, x], [b, y]) => (x.menu || 999) - (y.menu || 999) || a.localeCompare(b)),
  );

/**
 * `part: 'mutations'` (schema/generated/mutations.ts) writes the mutations alone: what the forms and the data layer
 * read, after the first screen. Otherwise (schema/generated/description.ts) the types, the resources and the queries,
 * which a list's first screen reads.
 */
export const plugin = (schema, _documents, config = {}) => {
  if (config.part === 'mutations') {
    return [
      "/** The mutations schema/schema.graphql declares, for the admin's forms and data layer. Generated by `npm run schema`. Do not edit. */",
      '',
      `export const mutations = ${literal(describeOperations(schema, schema.getMutationType(), true))} as const;`,
      '',
    ].join('\n');
  }
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  // Only the resources (the types with `@resource`) and the queries that read them: all a list's first screen needs.
  const types = {};
  const resources = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__') || roots.includes(type)) continue;
    const resource = directiveArgs(schema, type.astNode, 'resource');
    if (!resource) continue;
    const fields = {};
    for (const field of inFileOrder(Object.values(type.getFields()))) fields[field.name] = describeField(schema, field);
    types[type.name] = { fields };
    // What the admin reads of it: not its REST path, nor who may write (the gateway answers that).
    const { path: _path, write: _write, ...screen } = resource;
    resources[type.name] = screen;
  }
  const reading = new Set(Object.keys(types).flatMap((name) => [`all${name}s`, `_all${name}sMeta`, name]));
  const queries = Object.fromEntries(
    Object.entries(describeOperations(schema, schema.getQueryType())).filter(([name]) => reading.has(name)),
  );
  return [
    '/** What schema/schema.graphql declares, for the admin to derive from. Generated by `npm run schema`. Do not edit. */',
    '',
    `export const types = ${literal(types)} as const;`,
    '',
    '/** Each type the admin shows as a screen (`@resource`), by type name, in sidebar order. */',
    `export const resources = ${literal(sortedByMenu(resources))} as const;`,
    '',
    `export const queries = ${literal(queries)} as const;`,
    '',
  ].join('\n');
};
