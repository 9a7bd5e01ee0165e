import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { clientResource, storeConnectionOf, STOPPED_STATES } from '../clients/client.resource';
import { entityFor } from '../kit/entity';
import type { NuvemshopClient } from '../platforms/nuvemshop.client';
import {
  NuvemshopRefused,
  NuvemshopUnavailable,
  PermissionMissing,
  StoreSuspended,
  TokenRevoked,
} from '../platforms/nuvemshop.errors';
import { PlatformError } from '../platforms/platform-call';
import { LOCATION_EVENTS, registerLocationWebhooks } from './location-events';
import { applyStoreLocations, storeLocationsOf } from './store-locations';
import { locationNotes } from '../../schema/staff-notes';

type Em = ReturnType<MikroORM['em']['fork']>;

/** Who asked for a read: staff ("Ler estoques da loja"), or a location webhook. */
export type ReadTrigger = 'staff' | 'webhook';

/** A store's refusal of `GET /locations` as staff read it, on the client and on the webhooks it covered. */
function refusalNote(error: PlatformError): string {
  if (error instanceof TokenRevoked) return locationNotes.token_refused;
  if (error instanceof StoreSuspended) return locationNotes.suspended;
  if (error instanceof PermissionMissing) return locationNotes.permission_missing;
  if (error instanceof NuvemshopUnavailable) return locationNotes.unreachable;
  if (error instanceof NuvemshopRefused) return locationNotes.refused(error.detail.slice(0, 300));
  return locationNotes.refused(error.message.slice(0, 300));
}

/**
 * Reads a client's store locations into its rows (`GET /locations`): the `locations-read` job's work. Each read is
 * stamped with when it asked the store, and a read older than the last one applied changes nothing, so a late job
 * never undoes a newer state; the location webhooks received before it asked are marked with what it came to. A
 * refusal is kept on the client (`locations_error`, in Portuguese) and nothing changes.
 */
export class LocationReader {
  private readonly webhookUrl: string;

  constructor(
    private readonly orm: MikroORM,
    private readonly nuvemshop: NuvemshopClient,
    config: Pick<Config, 'PUBLIC_URL'>,
    private readonly log: Logger,
  ) {
    this.webhookUrl = `${config.PUBLIC_URL.replace(/\/+$/, '')}/api/v1/webhooks/nuvemshop`;
  }

  /**
   * One read. A store out of reach throws (the job is tried again) until `lastAttempt`, when it is kept as a refusal;
   * a read staff asked for also registers the location webhooks the store lacks (it just proved `read_locations`).
   */
  async read(
    clientId: string,
    { trigger, lastAttempt }: { trigger: ReadTrigger; lastAttempt: boolean },
  ): Promise<Record<string, unknown>> {
    const em = this.orm.em.fork();
    const client = await em.findOne(entityFor(clientResource), { id: clientId });
    if (!client || client.archivedAt) return { skipped: 'no such client' };
    const { storeId, storeToken, state } = storeConnectionOf(client);
    if (!storeToken || storeId <= 0) return this.refused(em, clientId, new Date(), locationNotes.no_store);
    if ((STOPPED_STATES as readonly string[]).includes(state))
      return this.refused(em, clientId, new Date(), locationNotes.store_stopped);
    const [{ at }] = await em.execute<{ at: Date }[]>(`select clock_timestamp() as at`);
    const asked = new Date(at);
    const store = this.nuvemshop.store(storeId, storeToken);
    let answer: unknown;
    try {
      answer = await store.listLocations();
    } catch (error) {
      if (!(error instanceof PlatformError) || (error.retryable && !lastAttempt)) throw error;
      return this.refused(em, clientId, asked, refusalNote(error));
    }
    const locations = storeLocationsOf(answer);
    if (!locations) return this.refused(em, clientId, asked, locationNotes.not_understood);
    const outcome: Record<string, unknown> = await em.transactional(async (tx) => {
      await tx.execute(`select pg_advisory_xact_lock(hashtextextended('locations ' || ?, 0))`, [clientId]);
      const [last] = await tx.execute<{ locations_read_at: Date | null }[]>(
        `select locations_read_at from clients where id = ?`,
        [clientId],
      );
      if (last?.locations_read_at && new Date(last.locations_read_at) >= asked) {
        await this.markEvents(tx, clientId, asked, 'handled', locationNotes.newer_read);
        return { skipped: locationNotes.newer_read };
      }
      // A deletion the store told of before this read asked holds even while its list still names the location.
      const deleted = await tx.execute<{ webhook_id: string }[]>(
        `select distinct webhook_id from webhook_events
          where client_id = ? and event = 'location/deleted' and webhook_id is not null and received_at <= ?`,
        [clientId, asked],
      );
      const applied = await applyStoreLocations(tx, clientId, locations, new Set(deleted.map((d) => d.webhook_id)));
      await tx.execute(
        `update clients set locations_read_at = ?, locations_error = null, updated_at = now() where id = ?`,
        [asked, clientId],
      );
      const note = locationNotes.read(applied.added, applied.refreshed, applied.deleted);
      await this.markEvents(tx, clientId, asked, 'handled', note);
      return { ...applied, note };
    });
    if (trigger === 'staff') {
      try {
        outcome.registered = await registerLocationWebhooks(store, this.webhookUrl);
      } catch (error) {
        // The read stands; the webhooks are registered again at the next read staff ask for.
        this.log.warn(
          { client: clientId, err: { message: (error as Error).message } },
          'location webhooks not registered',
        );
      }
    }
    return outcome;
  }

  /** A read that changed nothing: why, kept on the client and on the location webhooks it covered. */
  private async refused(em: Em, clientId: string, asked: Date, note: string): Promise<Record<string, unknown>> {
    await em.transactional(async (tx) => {
      await tx.execute(`update clients set locations_error = ?, updated_at = now() where id = ?`, [note, clientId]);
      await this.markEvents(tx, clientId, asked, 'failed', note);
    });
    this.log.info({ client: clientId, note }, 'store locations not read');
    return { failed: note };
  }

  /** The location webhooks of the client received before the read asked, marked with what it came to. */
  private async markEvents(em: Em, clientId: string, asked: Date, outcome: 'handled' | 'failed', note: string) {
    await em.execute(
      `update webhook_events set outcome = ?, note = ?, updated_at = now()
        where client_id = ? and outcome = 'recorded' and event in (${LOCATION_EVENTS.map(() => '?').join(', ')})
          and received_at <= ?`,
      [outcome, note, clientId, ...LOCATION_EVENTS, asked],
    );
  }
}
