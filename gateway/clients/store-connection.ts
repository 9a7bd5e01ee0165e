import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ApiError } from '../errors';
import type { PlainRows } from '../database/plain-rows';
import { missingScopes, scopeList, scopeNames } from '../platforms/nuvemshop-scopes';
import { clientResource, settledSyncState, type ClientEntity } from './client.resource';
import { entityFor } from '../kit/entity';

type Em = ReturnType<MikroORM['em']['fork']>;

/** The states an install ends: the store is connected again. */
const ENDED_BY_INSTALL = ['token_revoked', 'suspended', 'disconnected'];

/**
 * The client an app install lands on: the one of that store, reconnected; else the one of that store staff deleted
 * last, restored (its Hiper key, settings, product links and orders are the store's: a new client would create its
 * products in the store again); else a new one whose URL and name the `store-install` job reads from the store (a
 * placeholder URL until then, or for staff to fill in if it cannot). The token answer's `scope` is kept with it, and
 * the app's scopes it leaves out named (null when the answer gave none: unknown, as for a token typed in).
 */
export async function saveStoreToken(em: Em, storeId: number, token: string, scope: string | null): Promise<void> {
  const scopes = scope === null ? null : scopeList(scopeNames(scope));
  const missing = scopeList(missingScopes(scopes));
  const existing =
    (await storeClient(em, storeId)) ??
    (await em.findOne(
      entityFor(clientResource),
      { nuvemshopStoreId: storeId, archivedAt: { $ne: null } },
      { orderBy: { archivedAt: 'desc', id: 'desc' } },
    ));
  const installedAt = new Date();
  if (existing) {
    existing.archivedAt = null;
    existing.nuvemshopToken = token;
    existing.nuvemshopScopes = scopes;
    existing.nuvemshopMissingScopes = missing;
    existing.installedAt = installedAt;
    existing.redactedAt = null;
    if (ENDED_BY_INSTALL.includes(existing.syncState)) existing.syncState = 'idle';
    existing.syncState = settledSyncState(existing);
    await flushClient(em);
    return;
  }
  const created = em.create(entityFor(clientResource), {
    url: `nuvemshop://${storeId}`,
    nuvemshopStoreId: storeId,
    nuvemshopToken: token,
    nuvemshopScopes: scopes,
    nuvemshopMissingScopes: missing,
    installedAt,
  });
  created.syncState = settledSyncState(created);
  await flushClient(em);
}

/** A clash on the store id (two installs at once, or a live client taking it meanwhile) is a 409. */
async function flushClient(em: Em): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException)
      throw new ApiError(409, clientResource.messages.takenBy.nuvemshop_store_id);
    throw error;
  }
}

/**
 * The client of a Nuvemshop store, if any (archived clients are no store's: nothing acts for them); with `lock`, its
 * row locked for the transaction `em` is in.
 */
export function storeClient(em: Em, storeId: number, lock = false): Promise<ClientEntity | null> {
  return em.findOne(
    entityFor(clientResource),
    { nuvemshopStoreId: storeId, archivedAt: null },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
}

/**
 * What a store's webhook came to, said by the domain it is about (its orders, its locations), for the webhook service
 * to keep as the delivery's row: the store's client, if any, the outcome and why.
 */
export interface DeliveryVerdict {
  clientId: string | null;
  outcome: 'recorded' | 'handled' | 'ignored';
  note: string | null;
}
export type RecordDelivery = (verdict: DeliveryVerdict) => Promise<void>;

/** When the app was last installed on a store, read without waiting on its client's row (a plain read). */
export async function storeInstalledAt(rows: PlainRows, storeId: number): Promise<Date | undefined> {
  const found = await rows.findOne(entityFor(clientResource), ['installedAt'], storeId, 'nuvemshopStoreId');
  return found?.installedAt ?? undefined;
}

/**
 * A call the store refused for `scope` (403): the scope joins its client's missing ones, so staff see what to grant,
 * whether the grant was known (a scope taken back) or not (a token typed in). A new install sets them anew.
 */
export async function recordMissingScope(rows: PlainRows, storeId: number, scope: string): Promise<void> {
  const { table, column } = rows.shape(entityFor(clientResource));
  const missing = column.nuvemshopMissingScopes;
  await rows.query(
    `update ${table}
        set ${missing} = case when coalesce(${missing}, '') = '' then $2 else ${missing} || ',' || $2 end
      where ${column.nuvemshopStoreId} = $1 and ${column.archivedAt} is null
        and not ($2 = any(string_to_array(coalesce(${missing}, ''), ',')))`,
    [storeId, scope],
  );
}
