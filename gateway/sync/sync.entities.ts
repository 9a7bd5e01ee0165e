import { randomUUID } from 'node:crypto';
import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { EncryptedText } from '../database/token-cipher';

/**
 * Where a client's synchronisation stands between runs: the two Hiper cursors (each moved only after the batch it
 * covers is written) and the lease that keeps two processes from syncing the client at once.
 */
@Entity({ tableName: 'sync_clients' })
export class SyncClient {
  @ManyToOne({ entity: () => 'Client', primary: true, deleteRule: 'cascade', updateRule: 'cascade' })
  client!: { id: string };

  @Property({ type: 'bigint', default: 0 })
  catalogueCursor: string = '0';

  @Property({ type: 'bigint', default: 0 })
  stockCursor: string = '0';

  /** The job holding the client, until `leaseUntil` (a crashed holder's lease simply runs out). */
  @Property({ type: 'uuid', nullable: true })
  leaseOwner?: string | null;

  @Property({ type: 'datetime', nullable: true })
  leaseUntil?: Date | null;

  /**
   * The Hiper bearer token every run of the client shares, in every process, with the hash of the key it was minted
   * from (JSON, encrypted like the other tokens); renewed from `hiperBearerRenewAt`, shortly before its `exp`.
   */
  @Property({ type: EncryptedText, nullable: true, lazy: true })
  hiperBearer?: string | null;

  @Property({ type: 'datetime', nullable: true })
  hiperBearerRenewAt?: Date | null;
}

/** What was last written to the store for one variant, to write only what differs. */
export interface WrittenVariant {
  hiperId: string;
  variantId: number;
  sku: string;
  barcode: string | null;
  price: number;
  stock: number;
  values: string[];
  dimensions?: { weight?: number; height?: number; width?: number; depth?: number };
  /** What the store holds at each location (our location row's id), as last written: a client with locations only. */
  levels?: Record<string, number>;
  /** Units held back by orders in the value last written, by location (`store` for a client without locations). */
  held?: Record<string, number>;
  /** An inactive variation (0 at every location), as its last catalogue read said. */
  off?: boolean;
}

/** What was last written to the store for one product. */
export interface WrittenProduct {
  name: string;
  description: string;
  brand: string | null;
  published: boolean;
  attributes: string[];
  variants: WrittenVariant[];
}

/**
 * One Hiper product (a grade counts once) and the Nuvemshop product it became. `creatingSince` is written before the
 * `POST /products` that creates it: a creation found marked and unanswered is looked up by SKU, never sent twice.
 */
@Entity({ tableName: 'sync_products' })
@Unique({ name: 'sync_products_client_hiper_id_unique', properties: ['client', 'hiperId'] })
export class SyncProduct {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne({ entity: () => 'Client', deleteRule: 'cascade', updateRule: 'cascade', index: false })
  client!: { id: string };

  @Property({ type: 'string', length: 64 })
  hiperId!: string;

  @Property({ type: 'string', length: 64 })
  sku!: string;

  @Property({ type: 'bigint', nullable: true })
  nuvemshopProductId?: string | null;

  @Property({ type: 'datetime', nullable: true })
  creatingSince?: Date | null;

  @Property({ type: 'json', nullable: true })
  written?: WrittenProduct | null;
}

/** One image of a Hiper product (its source address) and the Nuvemshop image it was uploaded as, once. */
@Entity({ tableName: 'sync_images' })
@Unique({ name: 'sync_images_client_hiper_id_source_unique', properties: ['client', 'hiperId', 'source'] })
export class SyncImage {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne({ entity: () => 'Client', deleteRule: 'cascade', updateRule: 'cascade', index: false })
  client!: { id: string };

  @Property({ type: 'string', length: 64 })
  hiperId!: string;

  @Property({ type: 'text' })
  source!: string;

  @Property({ type: 'bigint' })
  nuvemshopProductId!: string;

  @Property({ type: 'bigint' })
  nuvemshopImageId!: string;
}
