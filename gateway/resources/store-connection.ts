import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ApiError } from '../errors';
import type { PlainRows } from '../database/plain-rows';
import { clientResource, settledSyncState, type ClientEntity } from './client.resource';
import { entityFor } from './entity';

type Em = ReturnType<MikroORM['em']['fork']>;

/** The states an install ends: the store is connected again. */
const ENDED_BY_INSTALL = ['token_revoked', 'suspended', 'disconnected'];

/**
 * The client an app install lands on: the one of that store, reconnected, or a new one whose URL and name the
 * `store-install` job reads from the store (a placeholder URL until then, or for staff to fill in if it cannot).
 */
export async function saveStoreToken(em: Em, storeId: number, token: string): Promise<void> {
  const existing = await em.findOne(entityFor(clientResource), { nuvemshopStoreId: storeId });
  const installedAt = new Date();
  if (existing) {
    existing.nuvemshopToken = token;
    existing.installedAt = installedAt;
    existing.redactedAt = null;
    if (ENDED_BY_INSTALL.includes(existing.syncState)) existing.syncState = 'idle';
    existing.syncState = settledSyncState(existing);
    await em.flush();
    return;
  }
  const created = em.create(entityFor(clientResource), {
    url: `nuvemshop://${storeId}`,
    nuvemshopStoreId: storeId,
    nuvemshopToken: token,
    installedAt,
  });
  created.syncState = settledSyncState(created);
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw new ApiError(409, clientResource.messages.taken);
    throw error;
  }
}

/** The client of a Nuvemshop store, if any; with `lock`, its row locked for the transaction `em` is in. */
export function storeClient(em: Em, storeId: number, lock = false): Promise<ClientEntity | null> {
  return em.findOne(
    entityFor(clientResource),
    { nuvemshopStoreId: storeId },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
}

/** When the app was last installed on a store, read without waiting on its client's row (a plain read). */
export async function storeInstalledAt(rows: PlainRows, storeId: number): Promise<Date | undefined> {
  const found = await rows.findOne(entityFor(clientResource), ['installedAt'], storeId, 'nuvemshopStoreId');
  return found?.installedAt ?? undefined;
}
