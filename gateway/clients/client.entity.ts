import { randomUUID } from 'node:crypto';
import {
  BigIntType,
  Entity,
  Index,
  OptionalProps,
  PrimaryKey,
  Property,
  type FilterQuery,
  type RequiredEntityData,
} from '@mikro-orm/core';
import { EncryptedText } from '../database/token-cipher';

@Entity({ tableName: 'clients' })
@Index({ name: 'clients_created_at_id_index', properties: ['createdAt', 'id'] })
@Index({
  name: 'clients_nuvemshop_store_id_unique',
  expression:
    'create unique index "clients_nuvemshop_store_id_unique" on "clients" ("nuvemshop_store_id") where "nuvemshop_store_id" <> 0',
})
// For `q` (`ilike '%text%'`, gateway/database/pagination.ts): a trigram index per searchable field.
@Index({
  name: 'clients_url_trgm_index',
  expression: 'create index "clients_url_trgm_index" on "clients" using gin ("url" gin_trgm_ops)',
})
export class Client {
  [OptionalProps]?:
    | 'hiperToken'
    | 'nuvemshopToken'
    | 'nuvemshopStoreId'
    | 'hiperSyncUpdateImage'
    | 'hiperSyncUpdateDimensions'
    | 'createdAt'
    | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'string', length: 255 })
  url!: string;

  @Property({ type: EncryptedText, nullable: true })
  hiperToken?: string | null;

  @Property({ type: EncryptedText, nullable: true })
  nuvemshopToken?: string | null;

  @Property({ type: new BigIntType('number'), default: 0 })
  nuvemshopStoreId: number = 0;

  @Property({ type: 'boolean', default: true })
  hiperSyncUpdateImage: boolean = true;

  @Property({ type: 'boolean', default: true })
  hiperSyncUpdateDimensions: boolean = true;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  /** The client a store's app install lands on. */
  static ofStore(storeId: number): FilterQuery<Client> {
    return { nuvemshopStoreId: storeId };
  }

  /** A client made by a store's app install, before anyone has given it a URL. */
  static newStore(storeId: number, token: string): RequiredEntityData<Client> {
    return { url: `nuvemshop://${storeId}`, nuvemshopStoreId: storeId, nuvemshopToken: token };
  }
}
