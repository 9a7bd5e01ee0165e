import type { EntityManager } from '@mikro-orm/postgresql';
import { entityFor } from '../kit/entity';
import { locationResource, type LocationEntity } from './location.resource';

/** A client's location as stock and orders read it: our row's id, the store's id, its name and its Hiper key. */
export interface StockLocation {
  id: string;
  nuvemshopLocationId: string;
  name: string | null;
  priority: number;
  isDefault: boolean;
  /** The key of the Hiper account whose stock it shows; null: none (its stock is written 0). */
  hiperKey: string | null;
  /** Whether `hiperKey` is the client's own (the one location fed by the client's account). */
  clientsKey: boolean;
}

type LocationRow = Pick<
  LocationEntity,
  'id' | 'nuvemshopLocationId' | 'name' | 'hiperToken' | 'priority' | 'isDefault' | 'deletedAt' | 'createdAt'
>;

/**
 * Which Hiper account feeds each live location of a client, in the store's priority order: its own key, else the
 * client's for one location only (the first the product read, which was the store's default then), else none, so no
 * unit is counted at two places. A location the store deleted is left out: it is written no more.
 */
export function stockLocations(rows: readonly LocationRow[], clientKey: string | null): StockLocation[] {
  const live = rows.filter((row) => !row.deletedAt);
  // Locations read together (one read of the store) tie on the moment: of those, the store's default, then its first.
  const firstRead = [...rows].sort(
    (a, b) =>
      +new Date(a.createdAt) - +new Date(b.createdAt) ||
      Number(b.isDefault) - Number(a.isDefault) ||
      a.priority - b.priority ||
      a.id.localeCompare(b.id),
  )[0];
  return live
    .sort((a, b) => a.priority - b.priority || a.id.localeCompare(b.id))
    .map((row) => {
      const own = row.hiperToken || null;
      const clientsKey = !own && row.id === firstRead?.id && !!clientKey;
      return {
        id: row.id,
        nuvemshopLocationId: row.nuvemshopLocationId,
        name: row.name ?? null,
        priority: row.priority,
        isDefault: row.isDefault,
        hiperKey: own ?? (clientsKey ? clientKey : null),
        clientsKey,
      };
    });
}

/** A client's live locations with the Hiper key of each (none: the client keeps one stock figure, as before). */
export async function locationsOf(em: EntityManager, clientId: string, clientKey: string | null) {
  const rows = await em.find(entityFor(locationResource), { client: clientId });
  return stockLocations(rows, clientKey);
}

/**
 * The Hiper key a shipment from a store location is sent with: that location's own, else the client's (a location
 * with no row, or no key, ships through the client's account).
 */
export function shipmentKey(
  locations: readonly StockLocation[],
  nuvemshopLocationId: string | null | undefined,
  clientKey: string,
): { key: string; locationId: string | null } {
  const location = locations.find((l) => l.nuvemshopLocationId === nuvemshopLocationId);
  return { key: location?.hiperKey ?? clientKey, locationId: location?.id ?? null };
}
