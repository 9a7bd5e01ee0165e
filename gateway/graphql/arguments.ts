/**
 * The REST body a GraphQL call stands for, so both adapters validate the same thing with the same schema:
 * arguments not given are left out, the record `id` travels separately, and for the fields named in
 * `nullMeansUnsent` an explicit null is read as "not sent" (fields that cannot be cleared).
 */
export function argsToBody(args: object, nullMeansUnsent: readonly string[] = []): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).filter(
      ([key, value]) => key !== 'id' && value !== undefined && !(value === null && nullMeansUnsent.includes(key)),
    ),
  );
}
