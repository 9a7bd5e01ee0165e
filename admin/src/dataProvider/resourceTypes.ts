import type { TypeName } from '../crud/description';

/** react-admin's resource names (also the screens' paths) and the GraphQL type behind each. */
export const resourceTypes = { items: 'Item', clientes: 'Client', admin: 'User' } as const satisfies Record<
  string,
  TypeName
>;

export type ResourceName = keyof typeof resourceTypes;

export function typeOfResource(resource: string): TypeName {
  if (!Object.hasOwn(resourceTypes, resource)) throw new Error(`Unknown resource ${resource}`);
  return resourceTypes[resource as ResourceName];
}
