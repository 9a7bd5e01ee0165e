import type { RequiredEntityData } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ApiError } from '../errors';
import { findPage, type ListOptions, type ListScope, type Total } from '../database/pagination';
import type { PlainRows } from '../database/plain-rows';
import { messages } from '../messages';
import type { SignedInUser } from '../users/user.schemas';
import { recordId } from '../validation';
import { Item } from './item.entity';
import { itemResource as resource, type ItemCreate, type ItemPublic, type ItemUpdate } from './item.resource';

const props = resource.props as (keyof Item & string)[];

export class ItemService {
  constructor(
    private readonly orm: MikroORM,
    private readonly rows: PlainRows,
  ) {}

  /** A superuser sees every item; anyone else their own, and the count is scoped the same way. */
  async list(caller: SignedInUser, options: ListOptions): Promise<{ data: ItemPublic[]; count: number }> {
    const scope: ListScope = {
      equal: caller.isSuperuser ? {} : { owner: caller.id },
      search: resource.searched,
    };
    const total: Total = caller.isSuperuser ? { table: 'items' } : { itemsOwnedBy: caller.id };
    const { rows, count } = await findPage(this.rows, Item, props, scope, options, resource.sortable, total);
    return { data: rows.map((row) => resource.toPublic(row)), count };
  }

  async create(caller: SignedInUser, input: ItemCreate): Promise<ItemPublic> {
    const em = this.orm.em.fork();
    const item = em.create(Item, {
      ...resource.toEntity(input, 'create'),
      owner: caller.id,
    } as unknown as RequiredEntityData<Item>);
    await em.flush();
    return resource.toPublic(item);
  }

  async get(caller: SignedInUser, id: string): Promise<ItemPublic> {
    const item = await this.rows.findOne(Item, props, recordId(id));
    return resource.toPublic(owned(caller, item as Pick<Item, 'owner'> | undefined));
  }

  async update(caller: SignedInUser, id: string, input: ItemUpdate): Promise<ItemPublic> {
    const em = this.orm.em.fork();
    const item = await this.findOwned(em, caller, id);
    em.assign(item, resource.toEntity(input, 'update'));
    await em.flush();
    return resource.toPublic(item);
  }

  async delete(caller: SignedInUser, id: string): Promise<ItemPublic> {
    const em = this.orm.em.fork();
    const item = await this.findOwned(em, caller, id);
    const deleted = resource.toPublic(item);
    await em.remove(item).flush();
    return deleted;
  }

  private async findOwned(em: ReturnType<MikroORM['em']['fork']>, caller: SignedInUser, id: string): Promise<Item> {
    return owned(caller, await em.findOne(Item, { id: recordId(id) }));
  }
}

/** The item, if it exists and the caller may see it: a superuser any, anyone else their own. */
function owned<T extends Pick<Item, 'owner'>>(caller: SignedInUser, item: T | null | undefined): T {
  if (!item) throw new ApiError(404, messages.itemNotFound);
  if (!caller.isSuperuser && item.owner.id !== caller.id) throw new ApiError(403, messages.notEnoughPermissions);
  return item;
}
