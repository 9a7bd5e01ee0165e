import { isAnswered } from '../../gateway/kit/field';
import type { Resource } from '../../gateway/kit/resource';

/** Every field a resource answers, as a GraphQL selection: what its declaration says, so tests follow it. */
export const selectionOf = (resource: Pick<Resource, 'fields'>): string =>
  Object.entries(resource.fields)
    .filter(([, field]) => isAnswered(field))
    .map(([name]) => name)
    .join(' ');
