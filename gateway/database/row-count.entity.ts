import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * Row totals kept by triggers in the same transaction as every insert, delete and truncate
 * (migrations/Migration20261125221000.ts), so an unfiltered list's `count` is one row read
 * instead of a scan of a million rows.
 */
@Entity({ tableName: 'row_counts' })
export class RowCount {
  @PrimaryKey({ type: 'string', length: 64 })
  tableName!: string;

  @Property({ type: 'bigint', default: 0 })
  total!: string;
}

/** Items per owner, kept the same way, for the lists of users who see only their own items. */
@Entity({ tableName: 'owner_item_counts' })
export class OwnerItemCount {
  @PrimaryKey({ type: 'uuid' })
  ownerId!: string;

  @Property({ type: 'bigint', default: 0 })
  total!: string;
}
