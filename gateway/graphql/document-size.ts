import {
  GraphQLError,
  visit,
  type ASTVisitor,
  type DocumentNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/**
 * The selections a document holds as written: its fields, inline fragments and fragment spreads, in every operation
 * and fragment, each counted once where it is written.
 */
export function selectionsIn(document: DocumentNode): number {
  let count = 0;
  visit(document, {
    Field: () => void count++,
    InlineFragment: () => void count++,
    FragmentSpread: () => void count++,
  });
  return count;
}

/**
 * Refuses a document with more than `maxSelections` selections, and stops its validation there (graphql-js adds its
 * own "Validation aborted." error after this one): what a document seen for the first time costs to validate is
 * then bounded, whoever sends it.
 *
 * Validation's cost grows faster than a document's text (graphql-js compares a selection set's fields and fragments in
 * pairs to see whether they merge); the document is entered before any of its selection sets, so this linear count
 * comes before those pairs.
 */
export function documentSizeRule(maxSelections: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    Document(document) {
      const selections = selectionsIn(document);
      if (selections <= maxSelections) return;
      context.reportError(
        new GraphQLError(
          `The query has ${selections} selections (fields and fragments, as written); at most ${maxSelections} are accepted`,
          { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } },
        ),
      );
      // graphql-js's own way out of a validation that would cost too much: it ends the walk, keeping the errors.
      context.spendFragmentWork(Infinity);
    },
  });
}
