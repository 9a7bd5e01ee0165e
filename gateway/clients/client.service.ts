import { UniqueConstraintViolationException, type RequiredEntityData } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ApiError } from '../errors';
import { findPage, type ListOptions } from '../database/pagination';
import type { PlainRows } from '../database/plain-rows';
import type { SignedInUser } from '../users/user.schemas';
import { Client } from './client.entity';
import { clientResource as resource, type ClientCreate, type ClientPublic, type ClientUpdate } from './client.resource';
import { messages } from '../messages';
import { recordId } from '../validation';

const props = resource.props as (keyof Client & string)[];

const notFound = () => new ApiError(404, messages.clientNotFound);
const taken = () => new ApiError(409, messages.alreadyExists('client', resource.unique));

type Em = ReturnType<MikroORM['em']['fork']>;

/**
 * Store connections. Every signed-in user manages them; only superusers see the store tokens in clear, and a masked
 * token sent back (edit dialogs send every field) leaves the stored one as it is.
 */
export class ClientService {
  constructor(
    private readonly orm: MikroORM,
    private readonly rows: PlainRows,
  ) {}

  async list(caller: SignedInUser, options: ListOptions): Promise<{ data: ClientPublic[]; count: number }> {
    const scope = { search: resource.searched };
    const { rows, count } = await findPage(this.rows, Client, props, scope, options, resource.sortable, {
      table: 'clients',
    });
    return { data: rows.map((row) => resource.toPublic(row, caller.isSuperuser)), count };
  }

  async create(caller: SignedInUser, input: ClientCreate): Promise<ClientPublic> {
    const em = this.orm.em.fork();
    const client = em.create(Client, resource.toEntity(input, 'create') as RequiredEntityData<Client>);
    await flush(em);
    return resource.toPublic(client, caller.isSuperuser);
  }

  async get(caller: SignedInUser, id: string): Promise<ClientPublic> {
    const client = await this.rows.findOne(Client, props, recordId(id));
    if (!client) throw notFound();
    return resource.toPublic(client, caller.isSuperuser);
  }

  /** Only the fields sent change, so two editors of different fields do not undo each other. */
  async update(caller: SignedInUser, id: string, input: ClientUpdate): Promise<ClientPublic> {
    const em = this.orm.em.fork();
    const client = await em.findOne(Client, { id: recordId(id) });
    if (!client) throw notFound();
    em.assign(client, resource.toEntity(input, 'update'));
    await flush(em);
    return resource.toPublic(client, caller.isSuperuser);
  }

  async delete(caller: SignedInUser, id: string): Promise<ClientPublic> {
    const em = this.orm.em.fork();
    const client = await em.findOne(Client, { id: recordId(id) });
    if (!client) throw notFound();
    const deleted = resource.toPublic(client, caller.isSuperuser);
    await em.remove(client).flush();
    return deleted;
  }

  /** Save a store's token from an app install: update the client of that store, or create one. */
  async saveStoreToken(em: Em, storeId: number, token: string): Promise<Client> {
    const existing = await em.findOne(Client, Client.ofStore(storeId));
    if (existing) {
      existing.nuvemshopToken = token;
      await em.flush();
      return existing;
    }
    const client = em.create(Client, Client.newStore(storeId, token));
    await flush(em);
    return client;
  }
}

async function flush(em: Em): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw taken();
    throw error;
  }
}
