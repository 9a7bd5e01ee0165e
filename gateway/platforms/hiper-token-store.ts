import { createHash } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { decryptToken, encryptToken } from '../database/token-cipher';
import type { HiperTokenStore } from './hiper.client';

/** The columns a client's kept token is read from. */
export interface KeptRow {
  hiper_bearer: string | null;
  hiper_bearer_renew_at: Date | null;
}

/** Whose Hiper account a token is for: a client's own (kept in `sync_clients`), or one stock location's. */
export type HiperAccount = { clientId: string } | { locationId: string };

const keptIn = (account: HiperAccount) =>
  'locationId' in account
    ? { table: 'sync_locations', column: 'location_id', id: account.locationId }
    : { table: 'sync_clients', column: 'client_id', id: account.clientId };

/**
 * Where a Hiper account's token is kept for every run and every order in every process: encrypted, with the hash of
 * the key it was minted from, so a key changed by staff is never paired with its predecessor's token. A client's
 * account is named by its id (a string, as before); a location's by `{locationId}`.
 */
export function hiperTokenStore(
  orm: MikroORM,
  owner: string | HiperAccount,
  key: string,
  read?: KeptRow,
): HiperTokenStore {
  const keyHash = createHash('sha256').update(key).digest('hex');
  const connection = orm.em.getConnection();
  const { table, column, id } = keptIn(typeof owner === 'string' ? { clientId: owner } : owner);
  /** The row the caller read with others, taken for the first load: asking again would read the same. */
  let first = read;
  return {
    load: async () => {
      const [row] = first
        ? [first]
        : await connection.execute<KeptRow[]>(
            `select hiper_bearer, hiper_bearer_renew_at from ${table} where ${column} = ?`,
            [id],
          );
      first = undefined;
      if (!row?.hiper_bearer || !row.hiper_bearer_renew_at) return null;
      try {
        const kept = JSON.parse(decryptToken(row.hiper_bearer)) as { key?: string; token?: string };
        if (kept.key !== keyHash || typeof kept.token !== 'string') return null;
        return { token: kept.token, renewAt: new Date(row.hiper_bearer_renew_at).getTime() };
      } catch {
        // Encrypted with another key, or damaged: a new token replaces it.
        return null;
      }
    },
    save: async (token, renewAt) => {
      // The row may not exist yet when orders mint the first token, before any synchronisation.
      await connection.execute(
        `insert into ${table} (${column}, hiper_bearer, hiper_bearer_renew_at) values (?, ?, ?)
         on conflict (${column}) do update set hiper_bearer = excluded.hiper_bearer,
           hiper_bearer_renew_at = excluded.hiper_bearer_renew_at`,
        [id, encryptToken(JSON.stringify({ key: keyHash, token })), new Date(renewAt)],
      );
    },
  };
}
