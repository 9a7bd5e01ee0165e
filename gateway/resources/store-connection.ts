import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ApiError } from '../errors';
import { clientResource } from './client.resource';

type Em = ReturnType<MikroORM['em']['fork']>;

/** The states an install ends: the store is connected again. */
const ENDED_BY_INSTALL = ['token_revoked', 'suspended', 'disconnected'];

/**
 * The client an app install lands on: the one of that store, reconnected, or a new one whose URL and name the
 * `store-install` job reads from the store (a placeholder URL until then, or for staff to fill in if it cannot).
 */
export async function saveStoreToken(em: Em, storeId: number, token: string): Promise<void> {
  const existing = await em.findOne<Record<string, unknown>>(clientResource.name, { nuvemshopStoreId: storeId });
  const installedAt = new Date();
  if (existing) {
    existing.nuvemshopToken = token;
    existing.installedAt = installedAt;
    existing.redactedAt = null;
    if (ENDED_BY_INSTALL.includes(String(existing.syncState))) existing.syncState = 'idle';
    await em.flush();
    return;
  }
  em.create<Record<string, unknown>>(clientResource.name, {
    url: `nuvemshop://${storeId}`,
    nuvemshopStoreId: storeId,
    nuvemshopToken: token,
    installedAt,
  });
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw new ApiError(409, clientResource.messages.taken);
    throw error;
  }
}
