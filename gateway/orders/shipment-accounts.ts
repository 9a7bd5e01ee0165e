import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import { entityFor } from '../kit/entity';
import { locationResource } from '../locations/location.resource';
import { shipmentKey, type StockLocation } from '../locations/location-keys';
import { HiperClient } from '../platforms/hiper.client';
import { hiperTokenStore } from '../platforms/hiper-token-store';

/**
 * The Hiper account a sales order goes to, or is read and cancelled in: the client's own, or a location's own (its
 * own key, its own kept token, its own product ids).
 */
export interface SalesAccount {
  key: string;
  /** Whose kept token it uses: the client's (its id) or the location's. */
  owner: string | { locationId: string };
  /** Our row of the location that ships it (null: none known); its name, as staff read it. */
  locationId: string | null;
  locationName: string | null;
  /** Whether it is a location's own account, whose product ids are not the client's catalogue's. */
  own: boolean;
}

/** The client's own account. */
export const clientAccount = (clientId: string, key: string, location?: StockLocation | null): SalesAccount => ({
  key,
  owner: clientId,
  locationId: location?.id ?? null,
  locationName: location?.name ?? null,
  own: false,
});

/** A key of a location's own, unless it is the client's (typed twice, it is the same account). */
const ownKey = (key: string | null | undefined, clientKey: string) => (key && key !== clientKey ? key : null);

/**
 * The account a shipment from a store location goes to: that location's own key, else the client's (a location with
 * no row, or no key, ships through the client's account), as `shipmentKey` says.
 */
export function shipmentAccount(
  clientId: string,
  locations: readonly StockLocation[],
  nuvemshopLocationId: string | null,
  clientKey: string,
): SalesAccount {
  const { key, locationId } = shipmentKey(locations, nuvemshopLocationId, clientKey);
  const location = locations.find((l) => l.id === locationId) ?? null;
  if (!location || !ownKey(key, clientKey)) return clientAccount(clientId, clientKey, location);
  return { key, owner: { locationId: location.id }, locationId: location.id, locationName: location.name, own: true };
}

/**
 * The account an order row's sales order is in: its location's own when it has one, else the client's. Read from the
 * location's row as it is now (a location the store deleted still names its account).
 */
export async function accountOfRow(
  em: EntityManager,
  row: { client_id: string; location_id: string | null },
  clientKey: string,
): Promise<SalesAccount> {
  if (!row.location_id) return clientAccount(row.client_id, clientKey);
  const location = await em.fork().findOne(entityFor(locationResource), { id: row.location_id });
  const key = ownKey(location?.hiperToken, clientKey);
  if (!location || !key) {
    return {
      ...clientAccount(row.client_id, clientKey),
      locationId: row.location_id,
      locationName: location?.name ?? null,
    };
  }
  return {
    key,
    owner: { locationId: row.location_id },
    locationId: row.location_id,
    locationName: location.name ?? null,
    own: true,
  };
}

/** A Hiper client of the account, its token kept where the account's is. */
export const hiperOf = (
  orm: MikroORM,
  config: Pick<Config, 'HIPER_API_URL' | 'HIPER_TIMEOUT_MS'>,
  account: Pick<SalesAccount, 'key' | 'owner'>,
) => HiperClient.fromConfig(config, account.key, hiperTokenStore(orm, account.owner, account.key));
