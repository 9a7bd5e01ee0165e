import { callbackRoutes } from './rest/routes/callback.routes';
import { webhookRoutes } from './rest/routes/webhook.routes';
import { resourceRoutes } from './rest/resource-routes';
import { loginRoutes, userRoutes } from './rest/routes/user.routes';
import { syncRoutes } from './rest/routes/sync.routes';
import { orderRoutes } from './rest/routes/order.routes';
import { locationRoutes } from './rest/routes/location.routes';
import { activityRoutes } from './rest/routes/activity.routes';
import { auditRoutes } from './rest/routes/audit.routes';
import type { Route } from './rest/route';
import { genericResources } from './resources';
import type { Services } from './services';

/** Every REST route under /api/v1, in the order the OpenAPI document lists them. */
export function restRoutes(services: Services): Route[] {
  return [
    ...loginRoutes(services.auth),
    ...userRoutes(services.users),
    ...genericResources().flatMap((resource) => resourceRoutes(resource, services.resources[resource.name])),
    ...syncRoutes(services.sync, services.audit),
    ...orderRoutes(services.orders, services.audit),
    ...locationRoutes(services.locations, services.audit),
    ...activityRoutes(services.activity),
    ...callbackRoutes(services.callback),
    ...webhookRoutes(services.webhooks),
    ...auditRoutes(services.audit),
  ];
}
