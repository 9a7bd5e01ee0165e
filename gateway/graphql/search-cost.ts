import {
  getNamedType,
  GraphQLError,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  Kind,
  type ASTVisitor,
  type FieldNode,
  type GraphQLField,
  type GraphQLNamedType,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  type ValueNode,
} from 'graphql';

export interface SearchCostOptions {
  /** Fields that search with `q` accepted in one operation (GRAPHQL_MAX_SEARCHES). */
  maxSearches: number;
}

/**
 * Refuses an operation with more searching fields than `maxSearches`, before any resolver runs. A search (`q`) is a
 * count over a whole table, however small its page: the other limits weigh it like any field, so fifteen aliased
 * searches fit in them and keep the database busy for everyone.
 *
 * A field searches when it has a `filter` argument whose input type has `q`, and the argument sets `q` to anything
 * but null, or is a variable (or `q` is): a variable's value is not known while validating, so it counts as a
 * search. Aliases, fragments and inline fragments are counted where they are spread; a fragment is counted once
 * however often it is spread (so deeply nested spreads cost nothing to count), and one that spreads itself again
 * counts nothing more (NoFragmentCyclesRule refuses it).
 */
export function searchCostRule({ maxSearches }: SearchCostOptions): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const schema = context.getSchema();
    /** Searches in each fragment; undefined while the fragment itself is being counted. */
    const inFragment = new Map<string, number | undefined>();

    const countFragment = (name: string): number => {
      if (inFragment.has(name)) return inFragment.get(name) ?? 0;
      const fragment = context.getFragment(name);
      if (!fragment) return 0;
      inFragment.set(name, undefined);
      const searches = countIn(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value));
      inFragment.set(name, searches);
      return searches;
    };

    const countIn = (selectionSet: SelectionSetNode, parent: GraphQLNamedType | undefined): number => {
      let searches = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FRAGMENT_SPREAD) searches += countFragment(selection.name.value);
        else if (selection.kind === Kind.INLINE_FRAGMENT) {
          const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
          searches += countIn(selection.selectionSet, type);
        } else {
          const field = fieldOf(parent, selection);
          if (!field) continue; // not in the schema: FieldsOnCorrectTypeRule refuses it
          if (isSearch(selection, field)) searches++;
          if (selection.selectionSet) searches += countIn(selection.selectionSet, getNamedType(field.type));
        }
      }
      return searches;
    };

    return {
      OperationDefinition(operation) {
        const searches = countIn(operation.selectionSet, schema.getRootType(operation.operation) ?? undefined);
        if (searches <= maxSearches) return;
        context.reportError(
          new GraphQLError(
            `The query searches ${searches} ${searches === 1 ? 'time' : 'times'} (fields whose filter sets q); ` +
              `at most ${maxSearches} ${maxSearches === 1 ? 'search is' : 'searches are'} accepted per request`,
            { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
          ),
        );
      },
    };
  };
}

function fieldOf(parent: GraphQLNamedType | undefined, node: FieldNode): GraphQLField<unknown, unknown> | undefined {
  if (!isObjectType(parent) && !isInterfaceType(parent)) return undefined;
  return parent.getFields()[node.name.value];
}

/** Whether the field searches: its `filter` can carry `q`, and the argument sets it. */
function isSearch(node: FieldNode, field: GraphQLField<unknown, unknown>): boolean {
  const filterType = field.args.find((arg) => arg.name === 'filter')?.type;
  const type = filterType && getNamedType(filterType);
  if (!isInputObjectType(type) || !('q' in type.getFields())) return false;
  const value = node.arguments?.find((arg) => arg.name.value === 'filter')?.value;
  return value !== undefined && setsQ(value);
}

/** Whether a filter's value sets `q`, or may: a variable could carry any value. */
function setsQ(filter: ValueNode): boolean {
  if (filter.kind === Kind.VARIABLE) return true;
  if (filter.kind !== Kind.OBJECT) return false;
  const q = filter.fields.find((field) => field.name.value === 'q');
  return q !== undefined && q.value.kind !== Kind.NULL;
}
