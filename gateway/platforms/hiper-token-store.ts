import { createHash } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { decryptToken, encryptToken } from '../database/token-cipher';
import type { HiperTokenStore } from './hiper.client';

/** The columns a client's kept token is read from. */
export interface KeptRow {
  hiper_bearer: string | null;
  hiper_bearer_renew_at: Date | null;
}

/**
 * Where a client's Hiper token is kept for every run and every order in every process: encrypted, with the hash of the key it was
 * minted from, so a key changed by staff is never paired with its predecessor's token.
 */
export function hiperTokenStore(orm: MikroORM, clientId: string, key: string, read?: KeptRow): HiperTokenStore {
  const keyHash = createHash('sha256').update(key).digest('hex');
  const connection = orm.em.getConnection();
  /** The row the caller read with others, taken for the first load: asking again would read the same. */
  let first = read;
  return {
    load: async () => {
      const [row] = first
        ? [first]
        : await connection.execute<KeptRow[]>(
            `select hiper_bearer, hiper_bearer_renew_at from sync_clients where client_id = ?`,
            [clientId],
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
      // The client's row may not exist yet when orders mint the first token, before any synchronisation.
      await connection.execute(
        `insert into sync_clients (client_id, hiper_bearer, hiper_bearer_renew_at) values (?, ?, ?)
         on conflict (client_id) do update set hiper_bearer = excluded.hiper_bearer,
           hiper_bearer_renew_at = excluded.hiper_bearer_renew_at`,
        [clientId, encryptToken(JSON.stringify({ key: keyHash, token })), new Date(renewAt)],
      );
    },
  };
}
