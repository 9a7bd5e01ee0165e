import { Entity, ManyToOne, Property } from '@mikro-orm/core';

/**
 * Where a client's orders stand between sweeps: the moment up to which the store's orders have been read, and the
 * store token the order webhooks were last registered with (so they are registered again after a new install).
 */
@Entity({ tableName: 'order_clients' })
export class OrderClient {
  @ManyToOne({ entity: () => 'Client', primary: true, deleteRule: 'cascade', updateRule: 'cascade' })
  client!: { id: string };

  /** Orders updated up to here have been read; the next sweep reads from here less 5 minutes. */
  @Property({ type: 'datetime', nullable: true })
  sweptUntil?: Date | null;

  /** A hash of the store token and address the order webhooks were registered with. */
  @Property({ type: 'string', length: 64, nullable: true })
  webhooksFor?: string | null;
}
