import { HeaderMap } from '@apollo/server';
import {
  GraphQLError,
  isListType,
  isNonNullType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type GraphQLObjectType,
  type GraphQLType,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { PageArgs } from '../database/pagination';

/** A list's page size when the request names none (PageArgs' default). */
const DEFAULT_PER_PAGE = PageArgs.shape.perPage.parse(undefined);

const isList = (type: GraphQLType): boolean => isListType(isNonNullType(type) ? type.ofType : type);

/**
 * The rows one operation asks for: the page size of each list field of the root type (`allX(perPage: …)`), aliases
 * and fragments included, the page size read from the literal or the request's variable (PageArgs' default when
 * absent). A page size that is no number is left to the page's own validation, which refuses it.
 */
export function rowsAsked(
  root: GraphQLObjectType,
  selectionSet: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  visited = new Set<string>(),
): number {
  let rows = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      rows += rowsAsked(root, selection.selectionSet, fragments, variables, visited);
    } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = fragments[selection.name.value];
      if (!fragment || visited.has(fragment.name.value)) continue;
      visited.add(fragment.name.value);
      rows += rowsAsked(root, fragment.selectionSet, fragments, variables, visited);
      visited.delete(fragment.name.value);
    } else {
      const field = root.getFields()[selection.name.value];
      if (!field || !isList(field.type) || !field.args.some((arg) => arg.name === 'perPage')) continue;
      const given = selection.arguments?.find((arg) => arg.name.value === 'perPage')?.value;
      const perPage = pageSize(given, variables);
      rows += typeof perPage === 'number' && Number.isFinite(perPage) && perPage >= 0 ? perPage : DEFAULT_PER_PAGE;
    }
  }
  return rows;
}

function pageSize(value: ValueNode | undefined, variables: Record<string, unknown>): unknown {
  if (!value || value.kind === Kind.NULL) return undefined;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.VARIABLE) return variables[value.name.value] ?? undefined;
  return undefined;
}

/**
 * One request may ask for at most `maxRows` rows in all, across its aliases and fragments: beyond that it is refused
 * with a 400 naming both numbers, before anything runs (15 aliases of a 1,000-row page would hold 15,000 rows and
 * their answer in memory at once). Called once Apollo has resolved the operation.
 */
export function refuseTooManyRows(
  maxRows: number,
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): void {
  const root = operation.operation === 'query' ? schema.getQueryType() : undefined;
  if (!root) return;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const rows = rowsAsked(root, operation.selectionSet, fragments, variables);
  if (rows <= maxRows) return;
  throw new GraphQLError(
    `The request asks for ${rows} rows; at most ${maxRows} are answered per request: ask for fewer or smaller pages`,
    { extensions: { code: 'ROWS_LIMIT_EXCEEDED', http: { status: 400, headers: new HeaderMap() } } },
  );
}
