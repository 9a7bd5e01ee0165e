import { AuthorizationCode } from './callback/authorization-code.entity';
import { Client } from './clients/client.entity';
import { Item } from './items/item.entity';
import { RateLimitCounter } from './auth/rate-limit.entity';
import { DeletedUser, User } from './users/user.entity';
import { OwnerItemCount, RowCount } from './database/row-count.entity';

export const entities = [
  User,
  DeletedUser,
  Item,
  Client,
  AuthorizationCode,
  RateLimitCounter,
  RowCount,
  OwnerItemCount,
];
