import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { EncryptedText } from '../database/token-cipher';

/**
 * Where one location's stock stands between runs, beside its client's (`sync_clients`): the cursor over its own Hiper
 * account's stock, moved only after the batch it covers is written, and that account's shared bearer token.
 */
@Entity({ tableName: 'sync_locations' })
export class SyncLocation {
  @ManyToOne({ entity: () => 'Location', primary: true, deleteRule: 'cascade', updateRule: 'cascade' })
  location!: { id: string };

  @Property({ type: 'bigint', default: 0 })
  stockCursor: string = '0';

  /** As `sync_clients.hiper_bearer`: the token minted from the location's own key, with that key's hash. */
  @Property({ type: EncryptedText, nullable: true, lazy: true })
  hiperBearer?: string | null;

  @Property({ type: 'datetime', nullable: true })
  hiperBearerRenewAt?: Date | null;

  /**
   * Which account the cursor and the figures (`location_stock`) were read from: the hash of the location's own key,
   * `client` for the client's own account, `none` for no account (written 0). Another one starts them again.
   */
  @Property({ type: 'string', length: 64, nullable: true })
  stockAccount?: string | null;

  /** Every product's level at this location is to be checked by the next run (its account changed, or it is new). */
  @Property({ type: 'boolean', default: true })
  sweep: boolean = true;
}

/**
 * One SKU's stock in the Hiper account that feeds a location, in whole units as the store is given it: the figure
 * each run writes from, and whether it changed since its level was last written (`changed`).
 */
@Entity({ tableName: 'location_stock' })
export class LocationStock {
  @ManyToOne({ entity: () => 'Location', primary: true, deleteRule: 'cascade', updateRule: 'cascade' })
  location!: { id: string };

  @PrimaryKey({ type: 'string', length: 64 })
  sku!: string;

  @Property({ type: 'int' })
  stock!: number;

  @Property({ type: 'boolean', default: true })
  changed: boolean = true;
}
