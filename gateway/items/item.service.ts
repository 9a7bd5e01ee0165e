import type { MikroORM } from '@mikro-orm/postgresql';
import { ApiError } from '../errors';
import { findPage, type ListOptions, type ListScope, type Total } from '../database/pagination';
import type { PlainRows } from '../database/plain-rows';
import type { SignedInUser } from '../users/user.schemas';
import { Item } from './item.entity';
import { ITEM_PUBLIC_PROPS, toItemPublic, type ItemCreate, type ItemPublic, type ItemUpdate } from './item.schemas';

const SORTABLE = { title: 'title', description: 'description', created_at: 'createdAt' };

export class ItemService {
  constructor(
    private readonly orm: MikroORM,
    private readonly rows: PlainRows,
  ) {}

  /** A superuser sees every item; anyone else their own, and the count is scoped the same way. */
  async list(caller: SignedInUser, options: ListOptions): Promise<{ data: ItemPublic[]; count: number }> {
    const scope: ListScope = { equal: caller.isSuperuser ? {} : { owner: caller.id }, search: ['title'] };
    const total: Total = caller.isSuperuser ? { table: 'items' } : { itemsOwnedBy: caller.id };
    const { rows, count } = await findPage(this.rows, Item, ITEM_PUBLIC_PROPS, scope, options, SORTABLE, total);
    return { data: rows.map(toItemPublic), count };
  }

  async create(caller: SignedInUser, input: ItemCreate): Promise<ItemPublic> {
    const em = this.orm.em.fork();
    const item = em.create(Item, { title: input.title, description: input.description ?? null, owner: caller.id });
    await em.flush();
    return toItemPublic(item);
  }

  async get(caller: SignedInUser, id: string): Promise<ItemPublic> {
    const item = await this.rows.findOne(Item, ITEM_PUBLIC_PROPS, id);
    return toItemPublic(owned(caller, item));
  }

  async update(caller: SignedInUser, id: string, input: ItemUpdate): Promise<ItemPublic> {
    const em = this.orm.em.fork();
    const item = await this.findOwned(em, caller, id);
    if (input.title !== undefined) item.title = input.title;
    if (input.description !== undefined) item.description = input.description;
    await em.flush();
    return toItemPublic(item);
  }

  async delete(caller: SignedInUser, id: string): Promise<ItemPublic> {
    const em = this.orm.em.fork();
    const item = await this.findOwned(em, caller, id);
    const deleted = toItemPublic(item);
    await em.remove(item).flush();
    return deleted;
  }

  private async findOwned(em: ReturnType<MikroORM['em']['fork']>, caller: SignedInUser, id: string): Promise<Item> {
    return owned(caller, await em.findOne(Item, { id }));
  }
}

/** The item, if it exists and the caller may see it: a superuser any, anyone else their own. */
function owned<T extends Pick<Item, 'owner'>>(caller: SignedInUser, item: T | null | undefined): T {
  if (!item) throw new ApiError(404, 'Item not found');
  if (!caller.isSuperuser && item.owner.id !== caller.id) throw new ApiError(403, 'Not enough permissions');
  return item;
}
