import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { JobQueue } from '../queue/queue';
import { clientResource, settledSyncState, storeConnectionOf, type ClientEntity } from '../clients/client.resource';
import { entityFor } from '../kit/entity';
import { storeClient } from '../clients/store-connection';
import type { WebhookEventName, WebhookOutcome } from './webhook-event.resource';
import { NuvemshopClient } from '../platforms/nuvemshop.client';
import { StoreSuspended, TokenRevoked } from '../platforms/nuvemshop.errors';
import { type NuvemshopStoreInfo } from '../platforms/nuvemshop.shapes';
import { PlatformError } from '../platforms/platform-call';
import { ORDER_EVENTS } from '../orders/order-intake';
import { LOCATION_EVENTS } from '../locations/location-events';
import { scopeNames } from '../platforms/nuvemshop-scopes';
import { APP_EVENTS } from './webhook.service';
import { webhookNotes } from '../../schema/staff-notes';

type Em = ReturnType<MikroORM['em']['fork']>;
interface EventRow {
  id: string;
  event: WebhookEventName;
  store_id: string | number;
  received_at: Date;
  signed: boolean;
  outcome: WebhookOutcome;
}
type Verdict = {
  outcome: WebhookOutcome;
  note: string;
};
/** What `GET /store` says of a store now: it works (200), its API access is cut (402), its token is dead (401). */
type Standing = 'working' | 'suspended' | 'revoked';

/** The events whose body names the app, the same on every delivery: each is only a reason to ask the store. */
export const STANDING_EVENTS: WebhookEventName[] = ['app/suspended', 'app/resumed'];

/** Nuvemshop sends `store/redact` 48 hours after an uninstall; the store's data is erased no earlier. */
export const REDACT_AFTER_MS = 48 * 3600 * 1000;

/** The URL an install without a readable store record leaves, for staff to replace. */
export const placeholderUrl = (storeId: number) => `nuvemshop://${storeId}`;

/**
 * What the store's webhooks and installs change: the client's connection state and token, the webhooks registered
 * for it, and the erasure a store asks for. Run by the `webhook` and `store-install` jobs, never inside a request.
 */
export class StoreLife {
  private readonly nuvemshop: NuvemshopClient;
  private readonly webhookUrl: string;

  constructor(
    private readonly orm: MikroORM,
    private readonly jobs: JobQueue,
    config: Pick<Config, 'NUVEMSHOP_API_URL' | 'NUVEMSHOP_USER_AGENT' | 'NUVEMSHOP_TIMEOUT_MS' | 'PUBLIC_URL'>,
    private readonly log: Logger,
  ) {
    this.nuvemshop = NuvemshopClient.fromConfig(config);
    this.webhookUrl = `${config.PUBLIC_URL.replace(/\/+$/, '')}/api/v1/webhooks/nuvemshop`;
  }

  /** Handles one recorded webhook, once: a retry of a handled one changes nothing. */
  async handle(eventId: string): Promise<Verdict | undefined> {
    const event = await this.eventRow(this.orm.em.fork(), eventId);
    if (!event || event.outcome !== 'recorded') return undefined;
    const storeId = Number(event.store_id);
    // Whether the app is still installed, asked before any row is locked: a token that still works means this
    // uninstall is older than the store's latest install. A suspended store is not called.
    let standing: Standing | undefined;
    if (event.event === 'app/uninstalled' || STANDING_EVENTS.includes(event.event)) {
      const client = await storeClient(this.orm.em.fork(), storeId);
      // A suspension or resumption asks even a suspended store: its answer decides which came last.
      const ask = event.event === 'app/uninstalled' ? client?.syncState !== 'suspended' : true;
      if (client?.nuvemshopToken && client.syncState !== 'disconnected' && ask) {
        standing = await this.standing(storeId, client.nuvemshopToken);
      }
    }
    let delayedUntil: Date | undefined;
    const verdict = await this.orm.em.fork().transactional(async (em) => {
      // One store's webhooks are worked one at a time.
      await em.execute(`select pg_advisory_xact_lock(hashtextextended('webhooks ' || ?, 0))`, [storeId]);
      const current = await this.eventRow(em, eventId, true);
      if (!current || current.outcome !== 'recorded') return undefined;
      const client = await storeClient(em, storeId, true);
      const decided = await this.decide(em, current, client, standing);
      if ('due' in decided) delayedUntil = decided.due;
      await em.execute(
        `update webhook_events set client_id = ?, outcome = ?, note = ?, updated_at = now() where id = ?`,
        [client?.id ?? null, decided.outcome, decided.note, eventId],
      );
      await em.flush();
      if (delayedUntil) await this.jobs.send('webhook', { id: eventId }, { em, startAfter: delayedUntil });
      return { outcome: decided.outcome, note: decided.note };
    });
    if (verdict) this.log.info({ webhook: eventId, event: event.event, store: storeId, ...verdict }, 'webhook handled');
    return verdict;
  }

  private async decide(
    em: Em,
    event: EventRow,
    client: ClientEntity | null,
    standing: Standing | undefined,
  ): Promise<Verdict | (Verdict & { due: Date })> {
    const received = new Date(event.received_at);
    switch (event.event) {
      case 'customers/redact':
        return { outcome: 'handled', note: webhookNotes.no_customer_data_erase };
      case 'customers/data_request':
        return { outcome: 'handled', note: webhookNotes.no_customer_data_send };
      case 'store/redact':
        return this.redact(em, event, client);
    }
    if (!client) return { outcome: 'ignored', note: webhookNotes.no_client };
    if (client.installedAt && received < new Date(client.installedAt)) {
      return { outcome: 'ignored', note: webhookNotes.older_than_install };
    }
    switch (event.event) {
      case 'app/uninstalled':
        if (standing === 'working') {
          return { outcome: 'ignored', note: webhookNotes.token_still_works };
        }
        client.nuvemshopToken = null;
        client.syncState = 'disconnected';
        return { outcome: 'handled', note: webhookNotes.uninstalled };
      case 'app/suspended':
      case 'app/resumed':
        return this.follow(em, event, client, standing);
    }
    return { outcome: 'ignored', note: webhookNotes.unknown_event };
  }

  /**
   * `app/suspended` and `app/resumed` look the same on every delivery and may come late or twice: the store's answer
   * to `GET /store`, asked for this webhook, decides the state, unless a later one of them has already decided it.
   */
  private async follow(
    em: Em,
    event: EventRow,
    client: ClientEntity,
    standing: Standing | undefined,
  ): Promise<Verdict> {
    if (client.syncState === 'disconnected') return { outcome: 'ignored', note: webhookNotes.client_disconnected };
    if (!client.nuvemshopToken) return { outcome: 'ignored', note: webhookNotes.no_store_token };
    const [later] = (await em.execute(
      `select 1 from webhook_events where store_id = ? and event in (?, ?) and outcome = 'handled' and received_at > ?
        limit 1`,
      [Number(event.store_id), ...STANDING_EVENTS, event.received_at],
    )) as unknown[];
    if (later) return { outcome: 'ignored', note: webhookNotes.later_decided };
    if (!standing) return { outcome: 'ignored', note: webhookNotes.standing_unknown };
    return { outcome: 'handled', note: this.apply(client, standing) };
  }

  /** Sets a client's state from its store's answer to `GET /store`; answers what happened. */
  private apply(client: ClientEntity, standing: Standing): string {
    if (standing === 'revoked') {
      client.syncState = 'token_revoked';
      return webhookNotes.standing_revoked;
    }
    if (standing === 'suspended') {
      client.syncState = 'suspended';
      return webhookNotes.standing_suspended;
    }
    if (client.syncState === 'suspended' || client.syncState === 'token_revoked')
      client.syncState = settledSyncState({ ...client, syncState: 'idle' });
    return webhookNotes.standing_working;
  }

  /**
   * Asks every suspended client's store `GET /store`, the only call a suspended store gets: a 200 brings it back.
   * Nuvemshop sends no webhook when an app's free days lapse or are paid, so a 402 may end with no `app/resumed`.
   */
  async checkSuspended(): Promise<Record<string, unknown>> {
    const suspended = await this.orm.em
      .fork()
      .find(entityFor(clientResource), { syncState: 'suspended', archivedAt: null });
    const outcome: Record<string, number> = { working: 0, suspended: 0, revoked: 0, unknown: 0 };
    for (const found of suspended) {
      const { storeId } = storeConnectionOf(found);
      if (!found.nuvemshopToken || !storeId) continue;
      let standing: Standing | undefined;
      try {
        standing = await this.standing(storeId, found.nuvemshopToken);
      } catch (error) {
        // Nuvemshop unreachable: asked again at the next check.
        this.log.warn({ store: storeId, err: { message: (error as Error).message } }, 'suspended check failed');
      }
      outcome[standing ?? 'unknown']++;
      if (!standing || standing === 'suspended') continue;
      await this.orm.em.fork().transactional(async (em) => {
        const client = await storeClient(em, storeId, true);
        // Only a client still suspended, with the token that was asked: an install or a webhook may have come first.
        if (client?.syncState !== 'suspended' || client.nuvemshopToken !== found.nuvemshopToken) return;
        const note = this.apply(client, standing);
        this.log.info({ client: client.id, store: storeId, note }, 'suspended check');
      });
    }
    return outcome;
  }

  /**
   * A store's erasure: 48 hours after its uninstall (a delayed job until then), its tokens and product links go; the
   * client record stays, marked redacted. Only a signed request erases, and never a store that installed the app again.
   */
  private async redact(
    em: Em,
    event: EventRow,
    client: ClientEntity | null,
  ): Promise<Verdict | (Verdict & { due: Date })> {
    if (!event.signed) return { outcome: 'ignored', note: webhookNotes.unsigned_nothing_erased };
    if (!client) return { outcome: 'handled', note: webhookNotes.redact_no_client };
    if (client.redactedAt) return { outcome: 'ignored', note: webhookNotes.already_erased };
    const [last] = (await em.execute(
      `select max(received_at) as at from webhook_events
        where store_id = ? and event = 'app/uninstalled' and outcome = 'handled'`,
      [Number(event.store_id)],
    )) as { at: Date | null }[];
    const uninstalled = last?.at ? new Date(last.at) : undefined;
    if (
      !uninstalled ||
      client.syncState !== 'disconnected' ||
      (client.installedAt && client.installedAt > uninstalled)
    ) {
      return { outcome: 'ignored', note: webhookNotes.installed_nothing_erased };
    }
    const due = new Date(uninstalled.getTime() + REDACT_AFTER_MS);
    if (Date.now() < due.getTime()) {
      return { outcome: 'recorded', note: webhookNotes.erasure_due(due), due };
    }
    client.nuvemshopToken = null;
    client.hiperToken = null;
    client.redactedAt = new Date();
    // Product links belong to the store synchronisation; without its table there are none to erase.
    const [links] = (await em.execute(`select to_regclass('product_links') is not null as present`)) as {
      present: boolean;
    }[];
    let erased = 0;
    if (links?.present) {
      const result = (await em.execute(
        'with gone as (delete from product_links where client_id = ? returning 1) select count(*)::int as n from gone',
        [client.id],
      )) as { n: number }[];
      erased = result[0]?.n ?? 0;
    }
    return {
      outcome: 'handled',
      note: webhookNotes.erased(erased),
    };
  }

  /**
   * After an install: the client of a new store takes its URL and name from the store's record, and the app's events
   * are registered at PUBLIC_URL (listed first, so none twice; an uninstall deletes them at Nuvemshop's side).
   */
  async installed(storeId: number): Promise<Record<string, unknown>> {
    const em = this.orm.em.fork();
    const client = await storeClient(em, storeId);
    if (!client?.nuvemshopToken) return { skipped: 'the client has no store token' };
    const api = this.nuvemshop.store(storeId, client.nuvemshopToken);
    const output: Record<string, unknown> = {};
    try {
      if (client.url === placeholderUrl(storeId) || !client.name) {
        try {
          const store = await api.getStore();
          const found = { url: storeUrl(store), name: storeName(store) };
          if (found.url && client.url === placeholderUrl(storeId)) {
            await em.nativeUpdate(clientResource.name, { id: client.id, url: client.url }, { url: found.url });
          }
          if (found.name && !client.name) {
            await em.nativeUpdate(clientResource.name, { id: client.id, name: null }, { name: found.name });
          }
          output.store = found;
        } catch (error) {
          if (!(error instanceof PlatformError) || error instanceof TokenRevoked) throw error;
          // The install stands; staff fill in the URL.
          output.store = `not read: ${error.message}`;
        }
      }
      const existing = await api.listWebhooks();
      const registered: string[] = [];
      // Order events only for a client with orders on; location events where the store granted their scope ("An app
      // can only register events for scopes it was granted"; a token typed in has them registered by a read).
      const locations = scopeNames(client.nuvemshopScopes).some(
        (s) => s === 'read_locations' || s === 'write_locations',
      );
      for (const event of [
        ...APP_EVENTS,
        ...(client.ordersEnabled ? ORDER_EVENTS : []),
        ...(locations ? LOCATION_EVENTS : []),
      ]) {
        if (existing.some((webhook) => webhook.event === event && webhook.url === this.webhookUrl)) continue;
        await api.createWebhook({ event, url: this.webhookUrl });
        registered.push(event);
      }
      output.registered = registered;
      return output;
    } catch (error) {
      // A refusal or a dead token will not change on a retry; an unreachable Nuvemshop may.
      if (error instanceof PlatformError && !error.retryable) return { ...output, stopped: error.message };
      throw error;
    }
  }

  /** The store's answer to `GET /store`, or undefined for another refusal; an unreachable store throws (retried). */
  private async standing(storeId: number, token: string): Promise<Standing | undefined> {
    try {
      await this.nuvemshop.store(storeId, token).getStore();
      return 'working';
    } catch (error) {
      if (error instanceof TokenRevoked) return 'revoked';
      if (error instanceof StoreSuspended) return 'suspended';
      if (error instanceof PlatformError && error.retryable) throw error;
      return undefined;
    }
  }

  private async eventRow(em: Em, id: string, lock = false): Promise<EventRow | undefined> {
    const rows = (await em.execute(
      `select id, event, store_id, received_at, signed, outcome from webhook_events where id = ?${lock ? ' for update' : ''}`,
      [id],
    )) as EventRow[];
    return rows[0];
  }
}

/** The store's own address: its `url_with_protocol`, else https on its `original_domain`. */
function storeUrl(store: NuvemshopStoreInfo): string | undefined {
  const candidates = [store.url_with_protocol, store.original_domain && `https://${String(store.original_domain)}`];
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    try {
      const url = new URL(candidate);
      if ((url.protocol === 'https:' || url.protocol === 'http:') && candidate.length <= 255) return candidate;
    } catch {
      // not an address
    }
  }
  return undefined;
}

/** The store's name in its main language (or any). */
function storeName(store: NuvemshopStoreInfo): string | undefined {
  const names = store.name;
  if (typeof names === 'string') return (names as string).slice(0, 255) || undefined;
  if (!names || typeof names !== 'object') return undefined;
  const main = typeof store.main_language === 'string' ? names[store.main_language] : undefined;
  const name = main || Object.values(names).find((v) => typeof v === 'string' && v.trim());
  return name ? name.slice(0, 255) : undefined;
}
