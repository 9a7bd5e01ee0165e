import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ApiError } from '../errors';
import { findPage, type ListOptions } from '../database/pagination';
import type { PlainRows } from '../database/plain-rows';
import type { SignedInUser } from '../users/user.schemas';
import { Client } from './client.entity';
import {
  CLIENT_PUBLIC_PROPS,
  isMaskedToken,
  toClientPublic,
  type ClientCreate,
  type ClientPublic,
  type ClientUpdate,
} from './client.schemas';

const SORTABLE = { url: 'url', nuvemshop_store_id: 'nuvemshopStoreId', created_at: 'createdAt' };
const notFound = () => new ApiError(404, 'Client not found');
const storeTaken = () => new ApiError(409, 'A client with this nuvemshop_store_id already exists');

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
    const scope = { search: ['url'] };
    const { rows, count } = await findPage(this.rows, Client, CLIENT_PUBLIC_PROPS, scope, options, SORTABLE, {
      table: 'clients',
    });
    return { data: rows.map((row) => toClientPublic(row, caller.isSuperuser)), count };
  }

  async create(caller: SignedInUser, input: ClientCreate): Promise<ClientPublic> {
    const em = this.orm.em.fork();
    // A new client has no stored token for a masked value to stand for.
    const token = (value: string | null | undefined) => (isMaskedToken(value) ? null : (value ?? null));
    const client = em.create(Client, {
      url: input.url,
      hiperToken: token(input.hiper_token),
      nuvemshopToken: token(input.nuvemshop_token),
      nuvemshopStoreId: input.nuvemshop_store_id,
      hiperSyncUpdateImage: input.hiper_sync_update_image,
      hiperSyncUpdateDimensions: input.hiper_sync_update_dimensions,
    });
    await flush(em);
    return toClientPublic(client, caller.isSuperuser);
  }

  async get(caller: SignedInUser, id: string): Promise<ClientPublic> {
    const client = await this.rows.findOne(Client, CLIENT_PUBLIC_PROPS, id);
    if (!client) throw notFound();
    return toClientPublic(client, caller.isSuperuser);
  }

  /** Only the fields sent change, so two editors of different fields do not undo each other. */
  async update(caller: SignedInUser, id: string, input: ClientUpdate): Promise<ClientPublic> {
    const em = this.orm.em.fork();
    const client = await em.findOne(Client, { id });
    if (!client) throw notFound();
    if (input.url !== undefined) client.url = input.url;
    if (input.hiper_token !== undefined && !isMaskedToken(input.hiper_token)) client.hiperToken = input.hiper_token;
    if (input.nuvemshop_token !== undefined && !isMaskedToken(input.nuvemshop_token)) {
      client.nuvemshopToken = input.nuvemshop_token;
    }
    if (input.nuvemshop_store_id !== undefined) client.nuvemshopStoreId = input.nuvemshop_store_id;
    if (input.hiper_sync_update_image !== undefined) client.hiperSyncUpdateImage = input.hiper_sync_update_image;
    if (input.hiper_sync_update_dimensions !== undefined) {
      client.hiperSyncUpdateDimensions = input.hiper_sync_update_dimensions;
    }
    await flush(em);
    return toClientPublic(client, caller.isSuperuser);
  }

  async delete(caller: SignedInUser, id: string): Promise<ClientPublic> {
    const em = this.orm.em.fork();
    const client = await em.findOne(Client, { id });
    if (!client) throw notFound();
    const deleted = toClientPublic(client, caller.isSuperuser);
    await em.remove(client).flush();
    return deleted;
  }

  /** Save a store's token from an app install: update the client of that store, or create one. */
  async saveStoreToken(em: Em, storeId: number, token: string): Promise<Client> {
    const existing = await em.findOne(Client, { nuvemshopStoreId: storeId });
    if (existing) {
      existing.nuvemshopToken = token;
      await em.flush();
      return existing;
    }
    const client = em.create(Client, {
      url: `nuvemshop://${storeId}`,
      nuvemshopStoreId: storeId,
      nuvemshopToken: token,
    });
    await flush(em);
    return client;
  }
}

async function flush(em: Em): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw storeTaken();
    throw error;
  }
}
