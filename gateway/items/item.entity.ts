import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { User } from '../users/user.entity';

@Entity({ tableName: 'items' })
@Index({ name: 'items_created_at_id_index', properties: ['createdAt', 'id'] })
@Index({ name: 'items_owner_created_at_index', properties: ['owner', 'createdAt', 'id'] })
// For `q` (`ilike '%text%'`, gateway/database/pagination.ts): a trigram index per searchable field.
@Index({
  name: 'items_title_trgm_index',
  expression: 'create index "items_title_trgm_index" on "items" using gin ("title" gin_trgm_ops)',
})
export class Item {
  [OptionalProps]?: 'description' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'string', length: 255 })
  title!: string;

  @Property({ type: 'string', length: 255, nullable: true })
  description?: string | null;

  @ManyToOne(() => User, { deleteRule: 'cascade', updateRule: 'cascade', index: false })
  owner!: User;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
