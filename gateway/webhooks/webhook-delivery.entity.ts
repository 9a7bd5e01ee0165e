import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A signed body recently seen, by its hash: a repeat within the delivery window is the same delivery and is recorded
 * once. The prune job deletes those whose window is over.
 */
@Entity({ tableName: 'webhook_deliveries' })
export class WebhookDelivery {
  /** SHA-256 (hex) of the route's event and the body as sent. */
  @PrimaryKey({ type: 'string', length: 64 })
  bodyHash!: string;

  @Index()
  @Property({ type: 'datetime' })
  seenAt!: Date;
}
