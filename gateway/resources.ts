import { auditEventResource } from './audit/audit-event.resource';
import { archivedClientResource } from './clients/archived-client.resource';
import { clientResource } from './clients/client.resource';
import { clientHealthResource } from './health/client-health.resource';
import { divergenceResource } from './sync/divergence.resource';
import { mailJobResource } from './email/mail-job.resource';
import { itemResource } from './items/item.resource';
import { locationResource } from './locations/location.resource';
import { stockMovementResource } from './locations/stock-movement.resource';
import type { Resource } from './kit/resource';
import { orderResource } from './orders/order.resource';
import { productLinkResource } from './sync/product-link.resource';
import { syncRunResource } from './sync/sync-run.resource';
import { webhookDayResource } from './webhooks/webhook-day.resource';
import { webhookEventResource } from './webhooks/webhook-event.resource';

/**
 * The product's table of contents: every declared resource, in sidebar order. A new resource is its declaration
 * (in its domain's folder) and its line here; the table, REST, OpenAPI, GraphQL and the admin follow from it.
 */
const RESOURCES: readonly Resource[] = [
  clientHealthResource,
  divergenceResource,
  clientResource,
  archivedClientResource,
  locationResource,
  stockMovementResource,
  orderResource,
  syncRunResource,
  productLinkResource,
  itemResource,
  webhookEventResource,
  webhookDayResource,
  auditEventResource,
  mailJobResource,
];

/** The resources, each name, table, path and screen checked to be one resource's. */
export function checkedResources(resources: readonly Resource[]): Resource[] {
  const names = new Set<string>();
  for (const resource of resources) {
    for (const key of [
      resource.name,
      `table ${resource.table}`,
      `path ${resource.path}`,
      `screen ${resource.screen}`,
    ]) {
      if (names.has(key)) throw new Error(`Two resources declare the same ${key}`);
      names.add(key);
    }
  }
  return [...resources];
}

const declared = checkedResources(RESOURCES);

/** The declared resources, in sidebar order. */
export const declaredResources = (): Resource[] => declared;

/** The resources the generic REST routes and GraphQL operations serve. */
export const genericResources = () => declaredResources().filter((resource) => !resource.options.ownAdapters);

/** A declared resource by its GraphQL name. */
export function resourceNamed(name: string): Resource {
  const found = declaredResources().find((resource) => resource.name === name);
  if (!found) throw new Error(`No resource is named ${name}`);
  return found;
}
