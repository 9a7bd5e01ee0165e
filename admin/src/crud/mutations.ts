import { mutations } from '../../../schema/generated/mutations';
import type { OperationDescription } from './description';

/**
 * A mutation's arguments as the schema describes them (schema/generated/mutations.ts): the forms, the account pages
 * and the data layer read them, none of which a list's first screen needs, so they are a module of their own.
 */
export function mutationOf(name: string): OperationDescription | undefined {
  return (mutations as Record<string, OperationDescription>)[name];
}
