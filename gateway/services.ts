import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from './config';
import { AuthService } from './auth/auth.service';
import { PasswordHasher } from './auth/passwords';
import { RateLimits } from './auth/rate-limits';
import { TokenIssuer } from './auth/tokens';
import { CallbackService } from './callback/callback.service';
import { ClientService } from './clients/client.service';
import { PlainRows } from './database/plain-rows';
import { Mailer } from './email/mailer';
import { ItemService } from './items/item.service';
import { MailJobService } from './jobs/mail-job.service';
import type { JobQueue } from './jobs/queue';
import { queueDefinitions } from './jobs/workers';
import type { QueueDefinition } from './jobs/queue';
import { UserService } from './users/user.service';

/** The one service layer both adapters (REST routes and GraphQL resolvers) call. */
export interface Services {
  auth: AuthService;
  users: UserService;
  items: ItemService;
  clients: ClientService;
  callback: CallbackService;
  mailer: Mailer;
  mailJobs: MailJobService;
  jobs: JobQueue;
  /** Every queue with its handler, for the workers this process (or `npm run worker`) starts. */
  queues: QueueDefinition[];
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
  const users = new UserService(orm, rows, passwords, limits, config.USERS_OPEN_REGISTRATION, jobs);
  const clients = new ClientService(orm, rows);
  const auth = new AuthService(orm, rows, config, tokens, passwords, users, limits, jobs);
  return {
    auth,
    users,
    items: new ItemService(orm, rows),
    clients,
    callback: new CallbackService(orm, rows, config, clients, limits),
    mailer,
    mailJobs: new MailJobService(rows),
    jobs,
    queues: queueDefinitions({ orm, config, auth, mailer, log }),
  };
}
