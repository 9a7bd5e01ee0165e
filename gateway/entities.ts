import { AuthorizationCode } from './callback/authorization-code.entity';
import { RateLimitCounter } from './auth/rate-limit.entity';
import { DeletedUser, User } from './users/user.entity';
import { OwnerItemCount, RowCount } from './database/row-count.entity';
import { entityFor } from './kit/entity';
import { SyncClient, SyncImage, SyncProduct } from './sync/sync.entities';
import { declaredResources } from './resources';
import { OrderClient } from './orders/order.entities';
import { LocationStock, SyncLocation } from './locations/location-sync.entity';
import { LocationCatalogueState, LocationProduct } from './locations/location-catalogue';
import { WebhookDelivery } from './webhooks/webhook-delivery.entity';
import { HealthAlert } from './health/health-alert.entity';

/** The ORM's entities: those written as classes, and one per declared resource (gateway/resources). */
export const entities = () => [
  User,
  DeletedUser,
  AuthorizationCode,
  RateLimitCounter,
  RowCount,
  OwnerItemCount,
  SyncClient,
  SyncProduct,
  SyncImage,
  SyncLocation,
  LocationStock,
  LocationProduct,
  LocationCatalogueState,
  OrderClient,
  WebhookDelivery,
  HealthAlert,
  ...declaredResources().map(entityFor),
];
