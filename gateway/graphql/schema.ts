import 'reflect-metadata';
import { buildSchemaSync, type BuildSchemaOptions } from 'type-graphql';
import { getNamedType, isObjectType, specifiedDirectives, valueFromAST, type GraphQLSchema } from 'graphql';
import { authChecker } from './context';
import { fieldDirectives } from './derived-types';

type Resolvers = BuildSchemaOptions['resolvers'];
const built = new Map<Resolvers, GraphQLSchema>();

/** The GraphQL schema, built once from the resolvers (validation is done by the shared zod schemas). */
export function graphqlSchema(resolvers: Resolvers): GraphQLSchema {
  let schema = built.get(resolvers);
  if (!schema) {
    schema = buildSchemaSync({
      resolvers,
      authChecker,
      authMode: 'error',
      validate: false,
      directives: [...specifiedDirectives, ...fieldDirectives],
    });
    checkRecordActions(schema);
    built.set(resolvers, schema);
  }
  return schema;
}

/**
 * A resource's record actions (`@resource(actions: ...)`) each name a mutation that takes the record's `id`: a
 * declaration naming another is an error at start, not a menu entry that fails when clicked.
 */
function checkRecordActions(schema: GraphQLSchema) {
  const mutations = schema.getMutationType()?.getFields() ?? {};
  const directive = schema.getDirective('resource');
  const actionsArg = directive?.args.find((arg) => arg.name === 'actions');
  if (!actionsArg) return;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    const applied = type.astNode?.directives?.find((d) => d.name.value === 'resource');
    const node = applied?.arguments?.find((arg) => arg.name.value === 'actions');
    if (!node) continue;
    const actions = (valueFromAST(node.value, actionsArg.type) ?? []) as { name: string; mutation: string }[];
    for (const { name, mutation } of actions) {
      const id = mutations[mutation]?.args.find((arg) => arg.name === 'id');
      if (!id || getNamedType(id.type).name !== 'ID')
        throw new Error(`${type.name}: the action ${name} names ${mutation}, which is not a mutation taking an id`);
    }
  }
}
