import * as clientes from './clients';
import * as items from './items';
import * as admin from './users';

/**
 * The screens backed by a gateway resource, under the name react-admin and the data provider know each by (also
 * its path), in menu order: `default` is the resource's definition.
 */
export const resources = { items, clientes, admin };
