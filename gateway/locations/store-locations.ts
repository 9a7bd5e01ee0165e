import type { EntityManager } from '@mikro-orm/postgresql';
import { entityFor } from '../kit/entity';
import type { NuvemshopLocation } from '../platforms/nuvemshop.shapes';
import { locationResource } from './location.resource';

/** A store location as our row mirrors it: the store's id, its name, its priority and whether it is the default. */
export interface StoreLocation {
  nuvemshopLocationId: string;
  name: string | null;
  priority: number;
  /** Null when the store's answer said nothing of defaults: our rows keep what they had. */
  isDefault: boolean | null;
}

/** The most locations one answer is read with: Enterprise's "unlimited" is a few dozen places in practice. */
export const MOST_LOCATIONS = 500;
const ID_MAX = locationResource.fields.nuvemshop_location_id.max;
const NAME_MAX = locationResource.fields.name.max;
const PRIORITY_MAX = locationResource.fields.priority.max;

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * A location's name in the store's language: a plain string, or the Portuguese of a name per language (`pt_BR`, `pt`),
 * else its first name given.
 */
function nameOf(name: NuvemshopLocation['name']): string | null {
  const texts = typeof name === 'string' ? [name] : isObject(name) ? portugueseFirst(name) : [];
  const found = texts.map((text) => text.trim()).find(Boolean);
  return found ? found.slice(0, NAME_MAX) : null;
}

const portugueseFirst = (names: Record<string, unknown>) => {
  const entries = Object.entries(names).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return [...entries.filter(([language]) => /^pt(\b|_|-)/i.test(language)), ...entries].map(([, text]) => text);
};

/**
 * The store's answer to `GET /locations` as our rows mirror it, in its priority order; null when it is not a list of
 * locations each with its id (an answer the product does not understand changes nothing). A priority missing or out
 * of bounds is the location's place in the list.
 */
export function storeLocationsOf(answer: unknown): StoreLocation[] | null {
  if (!Array.isArray(answer) || answer.length > MOST_LOCATIONS) return null;
  const seen = new Set<string>();
  const read: (StoreLocation & { at: number })[] = [];
  for (const [at, item] of answer.entries()) {
    if (!isObject(item)) return null;
    const id = typeof item.id === 'number' ? String(item.id) : item.id;
    if (typeof id !== 'string' || !id.trim() || id.length > ID_MAX || seen.has(id)) return null;
    seen.add(id);
    const priority = item.priority;
    read.push({
      nuvemshopLocationId: id,
      name: nameOf(item.name as NuvemshopLocation['name']),
      priority: Number.isSafeInteger(priority) && Number(priority) >= 0 ? Number(priority) : PRIORITY_MAX,
      isDefault: typeof item.is_default === 'boolean' ? item.is_default : null,
      at,
    });
  }
  // Ties (and the priorities not given) keep the store's order; each then takes its place as its priority.
  read.sort((a, b) => a.priority - b.priority || a.at - b.at);
  const saysDefaults = read.some((location) => location.isDefault !== null);
  return read.map(({ at: _at, ...location }, place) => ({
    ...location,
    priority: location.priority <= PRIORITY_MAX ? location.priority : place,
    isDefault: saysDefaults ? location.isDefault === true : null,
  }));
}

/** What one reading of the store changed in a client's rows. */
export interface Applied {
  added: number;
  refreshed: number;
  deleted: number;
}

/**
 * Mirrors the store's locations into a client's rows, in the transaction `em` is in: a row for each location not yet
 * known, names, priorities and the default refreshed, and a row whose location the store no longer lists (or named in
 * `gone`, a deletion the store told of) marked deleted, kept for its history. A store location is never created.
 */
export async function applyStoreLocations(
  em: EntityManager,
  clientId: string,
  locations: readonly StoreLocation[],
  gone: ReadonlySet<string> = new Set(),
): Promise<Applied> {
  const entity = entityFor(locationResource);
  const rows = await em.find(entity, { client: clientId });
  const byStoreId = new Map(rows.map((row) => [row.nuvemshopLocationId, row]));
  const listed = new Set<string>();
  const applied: Applied = { added: 0, refreshed: 0, deleted: 0 };
  const now = new Date();
  for (const location of locations) {
    if (gone.has(location.nuvemshopLocationId)) continue;
    listed.add(location.nuvemshopLocationId);
    const row = byStoreId.get(location.nuvemshopLocationId);
    if (!row) {
      em.create(entity, {
        client: clientId,
        nuvemshopLocationId: location.nuvemshopLocationId,
        name: location.name,
        priority: location.priority,
        isDefault: location.isDefault ?? false,
      });
      applied.added++;
      continue;
    }
    // A name the store left out keeps the one read before.
    const name = location.name ?? row.name ?? null;
    const isDefault = location.isDefault ?? row.isDefault;
    const changed =
      row.name !== name || row.priority !== location.priority || row.isDefault !== isDefault || !!row.deletedAt;
    if (!changed) continue;
    Object.assign(row, { name, priority: location.priority, isDefault, deletedAt: null });
    applied.refreshed++;
  }
  for (const row of rows) {
    if (listed.has(row.nuvemshopLocationId) || row.deletedAt) continue;
    row.deletedAt = now;
    row.isDefault = false;
    applied.deleted++;
  }
  await em.flush();
  return applied;
}
