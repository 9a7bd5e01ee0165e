import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ApiError } from '../errors';
import { clientResource } from './client.resource';

type Em = ReturnType<MikroORM['em']['fork']>;

/** The client an app install lands on: the one of that store, or a new one until staff give it its URL. */
export async function saveStoreToken(em: Em, storeId: number, token: string): Promise<void> {
  const existing = await em.findOne<Record<string, unknown>>(clientResource.name, { nuvemshopStoreId: storeId });
  if (existing) {
    existing.nuvemshopToken = token;
    await em.flush();
    return;
  }
  em.create<Record<string, unknown>>(clientResource.name, {
    url: `nuvemshop://${storeId}`,
    nuvemshopStoreId: storeId,
    nuvemshopToken: token,
  });
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw new ApiError(409, clientResource.messages.taken);
    throw error;
  }
}
