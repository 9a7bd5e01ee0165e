import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from './config';
import { AuthService } from './users/auth.service';
import { PasswordHasher } from './auth/passwords';
import { RateLimits } from './auth/rate-limits';
import { TokenIssuer } from './auth/tokens';
import { CallbackService } from './callback/callback.service';
import { PlainRows } from './database/plain-rows';
import { SearchLimits } from './database/search-limits';
import { Mailer } from './email/mailer';
import type { JobQueue } from './queue/queue';
import { queueDefinitions } from './jobs/workers';
import type { QueueDefinition } from './queue/queue';
import { UserService } from './users/user.service';
import { SyncService } from './sync/sync.service';
import { StoreLife } from './webhooks/store-life';
import { StoreUnhook } from './webhooks/store-unhook';
import { WebhookService } from './webhooks/webhook.service';
import { declaredResources, genericResources } from './resources';
import { AuditLog } from './audit/audit-log';
import { entityFor } from './kit/entity';
import { ResourceService, type ResourceOperations } from './kit/service';
import { NuvemshopClient } from './platforms/nuvemshop.client';
import { recordMissingScope } from './clients/store-connection';
import { OrderSweep } from './orders/order-intake';
import { OrderSender } from './orders/order-sender';
import { OrderService } from './orders/order.service';
import { OrderStatus } from './orders/order-status';
import { OrderWatch } from './orders/order-watch';
import { LocationReader } from './locations/location-reader';
import { LocationService } from './locations/location.service';
import { locationResource } from './locations/location.resource';
import { HealthCheck } from './health/health-check';
import { HealthAlerts } from './health/health-alerts';
import { DailyActivity } from './health/daily-activity';

/** The one service layer both adapters (REST routes and GraphQL resolvers) call. */
export interface Services {
  auth: AuthService;
  users: UserService;
  /** The service of each declared resource (gateway/resources), by its GraphQL name. */
  resources: Record<string, ResourceOperations>;
  callback: CallbackService;
  /** Starts store synchronisation runs. */
  sync: SyncService;
  /** What staff do with store orders. */
  orders: OrderService;
  /** What staff do with a client's stock locations beyond reading them: read them from the store, order, default. */
  locations: LocationService;
  webhooks: WebhookService;
  /** Every client's health, worked out again on a schedule (or when asked). */
  health: HealthCheck;
  /** The alerts, recoveries and digests the clients' health calls for. */
  healthAlerts: HealthAlerts;
  /** What happened per day: the dashboard's and a client's charts. */
  activity: DailyActivity;
  mailer: Mailer;
  jobs: JobQueue;
  /** Every queue with its handler, for the workers this process (or `npm run worker`) starts. */
  queues: QueueDefinition[];
  /** The audit log: every write a person made, for superusers. */
  audit: AuditLog;
}

export function createServices(orm: MikroORM, config: Config, log: Logger, jobs: JobQueue): Services {
  const passwords = new PasswordHasher(config.BCRYPT_COST);
  const tokens = new TokenIssuer(
    config.SECRET_KEY,
    config.ACCESS_TOKEN_EXPIRE_MINUTES,
    config.RESET_TOKEN_EXPIRE_HOURS,
  );
  const limits = new RateLimits(orm.em, config);
  const mailer = new Mailer(config, log);
  const rows = new PlainRows(orm);
  const searches = new SearchLimits(config);
  const users = new UserService(orm, rows, searches, passwords, limits, config.USERS_OPEN_REGISTRATION, jobs);
  const auth = new AuthService(orm, rows, config, tokens, passwords, users, limits, jobs);
  const sync = new SyncService(orm, jobs, limits);
  // One per process: a store's bucket is shared by its synchronisation and its orders.
  const nuvemshop = NuvemshopClient.fromConfig(config, {
    onPermissionMissing: (storeId, scope) => recordMissingScope(rows, storeId, scope),
  });
  const orderSender = new OrderSender(orm, config, nuvemshop, jobs, log);
  const orderSweep = new OrderSweep(orm, jobs, nuvemshop, config, log);
  const resources: Record<string, ResourceOperations> = Object.fromEntries(
    genericResources().map((resource) => [
      resource.name,
      new ResourceService(resource, entityFor(resource), orm, rows, searches, jobs),
    ]),
  );
  const locations = new LocationService(orm, jobs, nuvemshop, resources[locationResource.name]);
  // A location's Hiper key is checked against its client's other locations before the declared update.
  resources[locationResource.name] = locations.operations();
  const healthCheck = new HealthCheck(orm, config);
  const healthAlerts = new HealthAlerts(orm, config, jobs);
  const audit = new AuditLog(orm, () =>
    declaredResources()
      .map((resource) => resource.name)
      .concat('User'),
  );
  return {
    auth,
    users,
    resources,
    audit,
    callback: new CallbackService(orm, rows, config, limits, jobs),
    sync,
    orders: new OrderService(orm, jobs, orderSender, orderSweep, config),
    locations,
    webhooks: new WebhookService(orm, rows, jobs, limits, config),
    health: healthCheck,
    healthAlerts,
    activity: new DailyActivity(orm),
    mailer,
    jobs,
    queues: queueDefinitions({
      orm,
      config,
      auth,
      mailer,
      log,
      sync,
      jobs,
      nuvemshop,
      orderSender,
      orderSweep,
      orderStatus: new OrderStatus(orm, config, nuvemshop, log),
      orderWatch: new OrderWatch(orm, jobs, orderSender.answers, config, log),
      storeLife: new StoreLife(orm, jobs, config, log),
      storeUnhook: new StoreUnhook(orm, nuvemshop, config),
      locationReader: new LocationReader(orm, nuvemshop, config, log),
      healthCheck,
      healthAlerts,
    }),
  };
}
