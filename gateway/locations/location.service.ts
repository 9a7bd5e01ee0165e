import type { InTransaction } from '../kit/audit';
import type { MikroORM } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Actor } from '../auth/caller';
import {
  clientResource,
  missingConnectionMessage,
  STOPPED_STATES,
  STORE_FIELDS,
  storeConnectionOf,
  type ClientEntity,
  type ClientPublic,
} from '../clients/client.resource';
import { ApiError, ValidationFailed, type ValidationIssue } from '../errors';
import { entityFor } from '../kit/entity';
import { isMasked } from '../kit/resource';
import type { ResourceOperations } from '../kit/service';
import type { NuvemshopClient, NuvemshopStoreClient } from '../platforms/nuvemshop.client';
import { NuvemshopRefused, PermissionMissing, StoreSuspended, TokenRevoked } from '../platforms/nuvemshop.errors';
import { PlatformError } from '../platforms/platform-call';
import type { JobQueue } from '../queue/queue';
import { recordId, validate } from '../validation';
import { stockLocations } from './location-keys';
import { locationResource, type LocationEntity, type LocationPublic } from './location.resource';
import { MOST_LOCATIONS } from './store-locations';

type Em = ReturnType<MikroORM['em']['fork']>;

/** A client whose store stopped the product (its token revoked, the store suspended, the app uninstalled). */
export const STORE_STOPPED =
  'The client’s store does not let the product in now: its token was refused, the store is suspended or the app was uninstalled';
/** A location the store deleted: our row is kept for its history, and nothing is written to it any more. */
export const LOCATION_DELETED = 'The store deleted this location: it takes no priority and cannot be the default';
/** Nuvemshop could not be reached (down, slow, or answering 429 past the retries): the store was left as it was. */
export const STORE_UNREACHABLE = 'Could not reach Nuvemshop; nothing was changed';
/** The store refused the new order of the locations: its reason follows. */
export const PRIORITIES_REFUSED = 'Nuvemshop refused the new order of the locations';
/** The store refused the new default location: its reason follows. */
export const DEFAULT_REFUSED = 'Nuvemshop refused the new default location';
/** Why a key given to a location is refused: the same Hiper account would count its units at two places. */
export const KEY_FEEDS_ANOTHER = (name: string) =>
  `This Hiper key already feeds another location of this client (${name}): each location needs its own Hiper account`;

/** The body of a new order of a client's locations: our location rows' ids, the first taking priority 0. */
export const LocationPriorities = z.array(z.guid()).min(1).max(MOST_LOCATIONS).meta({
  id: 'LocationPriorities',
  description: 'Every live location of the client (our row ids), once each, in the new order: the first is priority 0',
});

/** How the store's refusal reads after what it refused: its reason, with the status it answered. */
function reasonOf(error: PlatformError): string {
  if (error instanceof TokenRevoked) return 'the store token is no longer valid (HTTP 401)';
  if (error instanceof StoreSuspended) return 'the store is suspended for lack of payment (HTTP 402)';
  if (error instanceof PermissionMissing)
    return `the app lacks the ${error.scope ?? 'write_locations'} permission (HTTP 403)`;
  if (error instanceof NuvemshopRefused) return `${error.detail.slice(0, 300)} (HTTP ${error.status})`;
  return error.message.slice(0, 300);
}

/** A failed call to the store as the API answers it: 502 when it could not be reached, 422 with its reason otherwise. */
function storeFailure(error: unknown, refused: string): unknown {
  if (!(error instanceof PlatformError)) return error;
  if (error.retryable) return new ApiError(502, STORE_UNREACHABLE);
  return new ApiError(422, `${refused}: ${reasonOf(error)}`);
}

const byPriority = (a: LocationEntity, b: LocationEntity) =>
  Number(!!a.deletedAt) - Number(!!b.deletedAt) ||
  a.priority - b.priority ||
  +new Date(a.createdAt) - +new Date(b.createdAt) ||
  a.id.localeCompare(b.id);

/**
 * What staff do with a client's locations beyond reading them: "Ler estoques da loja" (a job), their order and the
 * default sent to the store and mirrored once it took them, and a Hiper key given to one. The rows are the declared
 * resource's; a change the store refuses changes nothing here either.
 */
export class LocationService {
  constructor(
    private readonly orm: MikroORM,
    private readonly jobs: JobQueue,
    private readonly nuvemshop: NuvemshopClient,
    /** The declared resource's own service, which reads, changes and deletes the rows. */
    private readonly rows: ResourceOperations,
  ) {}

  /** "Ler estoques da loja": a read of the store's locations queued (one at a time per client); answers the client. */
  async requestRead(caller: Actor, clientId: string, within?: InTransaction): Promise<ClientPublic> {
    const em = this.orm.em.fork();
    const client = await this.client(em, recordId(clientId));
    this.storeOf(client);
    await em.transactional(async (tx) => {
      await this.jobs.send(
        'locations-read',
        { clientId: client.id, trigger: 'staff' },
        { em: tx, singletonKey: `${client.id} staff` },
      );
      await within?.(tx);
    });
    return clientResource.toPublic(client, caller.isSuperuser);
  }

  /**
   * A new order of the client's live locations, every one of them once (else a 422 naming what is wrong), sent to the
   * store (`PATCH /locations/priorities`) and mirrored once it took it. Answers the client's locations in their order.
   */
  async setPriorities(clientId: string, given: unknown, within?: InTransaction): Promise<LocationPublic[]> {
    const ids = validate(LocationPriorities, given, 'body');
    const id = recordId(clientId);
    return this.orm.em.fork().transactional(async (em) => {
      const client = await this.client(em, id);
      const store = this.storeOf(client);
      await lockLocations(em, id);
      const rows = await em.find(entityFor(locationResource), { client: id });
      await this.checkOrder(em, rows, ids);
      const byId = new Map(rows.map((row) => [row.id, row]));
      try {
        await store.setLocationPriorities(
          ids.map((locationId, priority) => ({ id: byId.get(locationId)!.nuvemshopLocationId, priority })),
        );
      } catch (error) {
        throw storeFailure(error, PRIORITIES_REFUSED);
      }
      ids.forEach((locationId, priority) => (byId.get(locationId)!.priority = priority));
      await em.flush();
      await mirrored(em, id);
      await within?.(em);
      return rows.sort(byPriority).map((row) => locationResource.toPublic(row));
    });
  }

  /**
   * A location made the store's default (`PATCH /locations/{id}/chosen-as-default`) and mirrored once the store took
   * it: it alone of its client's is the default. Answers it.
   */
  async setDefault(locationId: string, within?: InTransaction): Promise<LocationPublic> {
    const id = recordId(locationId);
    return this.orm.em.fork().transactional(async (em) => {
      const location = await em.findOne(entityFor(locationResource), { id });
      if (!location) throw new ApiError(404, locationResource.messages.notFound);
      const clientId = location.client.id;
      const client = await this.client(em, clientId);
      const store = this.storeOf(client);
      await lockLocations(em, clientId);
      await em.refresh(location);
      if (location.deletedAt) throw new ApiError(409, LOCATION_DELETED);
      try {
        await store.chooseDefaultLocation(location.nuvemshopLocationId);
      } catch (error) {
        throw storeFailure(error, DEFAULT_REFUSED);
      }
      for (const row of await em.find(entityFor(locationResource), { client: clientId }))
        row.isDefault = row.id === location.id;
      await em.flush();
      await mirrored(em, clientId);
      await within?.(em);
      return locationResource.toPublic(location);
    });
  }

  /**
   * The declared update, after one check of the key given: a Hiper account that already feeds another of the
   * client's live locations would count its units twice (422 on `hiper_token`).
   */
  async update(caller: Actor, id: string, input: { hiper_token?: string | null }): Promise<Record<string, unknown>> {
    const key = input.hiper_token;
    if (typeof key === 'string' && key.trim() && !isMasked(key)) {
      const em = this.orm.em.fork();
      const location = await em.findOne(entityFor(locationResource), { id: recordId(id) });
      if (location) {
        const client = await em.findOne(entityFor(clientResource), { id: location.client.id });
        const siblings = await em.find(entityFor(locationResource), { client: location.client.id });
        const fed = stockLocations(
          siblings.map((row) => (row.id === location.id ? { ...row, hiperToken: key } : row)),
          client?.hiperToken || null,
        ).find((other) => other.id !== location.id && other.hiperKey === key);
        if (fed)
          throw new ValidationFailed([
            {
              type: 'value_error',
              loc: ['body', 'hiper_token'],
              msg: KEY_FEEDS_ANOTHER(fed.name ?? fed.nuvemshopLocationId),
            },
          ]);
      }
    }
    return this.rows.update(caller, id, input);
  }

  /** The declared resource's operations, its update checking the key given first (`update`). */
  operations(): ResourceOperations {
    const rows = this.rows;
    return {
      list: (caller, options, reading) => rows.list(caller, options, reading),
      get: (caller, id, reading) => rows.get(caller, id, reading),
      create: (caller, input) => rows.create(caller, input),
      update: (caller, id, input) => this.update(caller, id, input),
      delete: (caller, id) => rows.delete(caller, id),
    };
  }

  /** A live client (404 otherwise). */
  private async client(em: Em, id: string): Promise<ClientEntity> {
    const client = await em.findOne(entityFor(clientResource), { id });
    if (!client || client.archivedAt) throw new ApiError(404, clientResource.messages.notFound);
    return client;
  }

  /** The client's store, or a 409 naming what it lacks to be called, or that it stopped the product. */
  private storeOf(client: ClientEntity): NuvemshopStoreClient {
    const { storeId, storeToken, state } = storeConnectionOf(client);
    const missing = STORE_FIELDS.filter((name) => (name === 'nuvemshop_token' ? !storeToken : storeId <= 0));
    if (missing.length) throw new ApiError(409, missingConnectionMessage(missing));
    if ((STOPPED_STATES as readonly string[]).includes(state)) throw new ApiError(409, STORE_STOPPED);
    return this.nuvemshop.store(storeId, storeToken!);
  }

  /**
   * A new order is every live location of the client once: each id refused names why (not a location, another
   * client's, one the store deleted, given twice), and the locations left out are named.
   */
  private async checkOrder(em: Em, rows: LocationEntity[], ids: string[]): Promise<void> {
    const own = new Map(rows.map((row) => [row.id, row]));
    const strangers = new Set(
      (await em.find(entityFor(locationResource), { id: { $in: ids.filter((id) => !own.has(id)) } })).map((r) => r.id),
    );
    const issues: ValidationIssue[] = [];
    const seen = new Set<string>();
    ids.forEach((id, at) => {
      const row = own.get(id);
      const msg = !row
        ? strangers.has(id)
          ? 'Location belongs to another client'
          : locationResource.messages.notFound
        : row.deletedAt
          ? LOCATION_DELETED
          : seen.has(id)
            ? 'Location given more than once: each location takes one place'
            : undefined;
      seen.add(id);
      if (msg) issues.push({ type: 'value_error', loc: ['body', at], msg, input: id });
    });
    const left = rows.filter((row) => !row.deletedAt && !seen.has(row.id));
    if (left.length)
      issues.push({
        type: 'value_error',
        loc: ['body'],
        msg: `Every live location of the client must be given once; missing: ${left
          .sort(byPriority)
          .map((row) => `${row.name ?? row.nuvemshopLocationId} (${row.id})`)
          .join(', ')}`,
      });
    if (issues.length) throw new ValidationFailed(issues);
  }
}

/**
 * The client's mirror is as of now: a read that asked the store before this change was taken is older, and changes
 * nothing (LocationReader).
 */
async function mirrored(em: Em, clientId: string): Promise<void> {
  await em.execute(
    `update clients set locations_read_at = greatest(locations_read_at, clock_timestamp()), updated_at = now()
      where id = ?`,
    [clientId],
  );
}

/** A client's locations are changed one change at a time (a read, a new order, a new default), till the commit. */
async function lockLocations(em: Em, clientId: string): Promise<void> {
  await em.execute(`select pg_advisory_xact_lock(hashtextextended('locations ' || ?, 0))`, [clientId]);
}
