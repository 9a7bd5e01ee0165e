import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { JobQueue } from '../jobs/queue';
import { clientResource } from '../resources/client.resource';
import { storeClient } from '../resources/store-connection';
import type { WebhookEventName, WebhookOutcome } from '../resources/webhook-event.resource';
import { NuvemshopClient, TokenRevoked, type NuvemshopStoreInfo } from '../sync/nuvemshop.client';
import { PlatformError } from '../sync/platform-call';
import { APP_EVENTS } from './webhook.service';

type Em = ReturnType<MikroORM['em']['fork']>;
type ClientRow = Record<string, unknown> & {
  id: string;
  url: string;
  name: string | null;
  nuvemshopToken: string | null;
  hiperToken: string | null;
  syncState: string;
  installedAt: Date | null;
  redactedAt: Date | null;
};
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

/** Nuvemshop sends `store/redact` 48 hours after an uninstall; the store's data is erased no earlier. */
export const REDACT_AFTER_MS = 48 * 3600 * 1000;
export const NO_CUSTOMER_DATA = 'The product keeps no customer data';

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
    let tokenWorks: boolean | undefined;
    if (event.event === 'app/uninstalled') {
      const client = await storeClient<ClientRow>(this.orm.em.fork(), storeId);
      if (client?.nuvemshopToken && client.syncState !== 'suspended') {
        tokenWorks = await this.tokenWorks(storeId, client.nuvemshopToken);
      }
    }
    let delayedUntil: Date | undefined;
    const verdict = await this.orm.em.fork().transactional(async (em) => {
      // One store's webhooks are worked one at a time.
      await em.execute(`select pg_advisory_xact_lock(hashtextextended('webhooks ' || ?, 0))`, [storeId]);
      const current = await this.eventRow(em, eventId, true);
      if (!current || current.outcome !== 'recorded') return undefined;
      const client = await storeClient<ClientRow>(em, storeId, true);
      const decided = await this.decide(em, current, client, tokenWorks);
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
    client: ClientRow | null,
    tokenWorks: boolean | undefined,
  ): Promise<Verdict | (Verdict & { due: Date })> {
    const received = new Date(event.received_at);
    switch (event.event) {
      case 'customers/redact':
        return { outcome: 'handled', note: `${NO_CUSTOMER_DATA}: nothing to erase` };
      case 'customers/data_request':
        return { outcome: 'handled', note: `${NO_CUSTOMER_DATA}: nothing to send` };
      case 'store/redact':
        return this.redact(em, event, client);
    }
    if (!client) return { outcome: 'ignored', note: 'No client has this store' };
    if (client.installedAt && received < new Date(client.installedAt)) {
      return { outcome: 'ignored', note: 'Older than the store’s latest install' };
    }
    switch (event.event) {
      case 'app/uninstalled':
        if (tokenWorks) {
          return { outcome: 'ignored', note: 'The store’s token still works: older than the store’s latest install' };
        }
        client.nuvemshopToken = null;
        client.syncState = 'disconnected';
        return { outcome: 'handled', note: 'App uninstalled: store token erased, client disconnected' };
      case 'app/suspended':
        if (client.syncState === 'disconnected') return { outcome: 'ignored', note: 'The client is disconnected' };
        client.syncState = 'suspended';
        return { outcome: 'handled', note: 'Store suspended: no calls to it until app/resumed or a new install' };
      case 'app/resumed':
        if (client.syncState !== 'suspended') {
          return { outcome: 'ignored', note: `The client was not suspended (${client.syncState})` };
        }
        client.syncState = 'idle';
        return { outcome: 'handled', note: 'Store resumed' };
    }
    return { outcome: 'ignored', note: 'Unknown event' };
  }

  /**
   * A store's erasure: 48 hours after its uninstall (a delayed job until then), its tokens and product links go; the
   * client record stays, marked redacted. Only a signed request erases, and never a store that installed the app again.
   */
  private async redact(
    em: Em,
    event: EventRow,
    client: ClientRow | null,
  ): Promise<Verdict | (Verdict & { due: Date })> {
    if (!event.signed) return { outcome: 'ignored', note: 'Unsigned: recorded, nothing erased' };
    if (!client) return { outcome: 'handled', note: 'No client has this store: nothing to erase' };
    if (client.redactedAt) return { outcome: 'ignored', note: 'The store’s data was already erased' };
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
      return { outcome: 'ignored', note: 'The app is installed on this store: nothing erased' };
    }
    const due = new Date(uninstalled.getTime() + REDACT_AFTER_MS);
    if (Date.now() < due.getTime()) {
      return { outcome: 'recorded', note: `Erasure due at ${due.toISOString()}, 48 h after the uninstall`, due };
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
      note: `Store data erased: tokens and ${erased} product links; the client record stays`,
    };
  }

  /**
   * After an install: the client of a new store takes its URL and name from the store's record, and the app's events
   * are registered at PUBLIC_URL (listed first, so none twice; an uninstall deletes them at Nuvemshop's side).
   */
  async installed(storeId: number): Promise<Record<string, unknown>> {
    const em = this.orm.em.fork();
    const client = await storeClient<ClientRow>(em, storeId);
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
      for (const event of APP_EVENTS) {
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

  private async tokenWorks(storeId: number, token: string): Promise<boolean | undefined> {
    try {
      await this.nuvemshop.store(storeId, token).getStore();
      return true;
    } catch (error) {
      if (error instanceof TokenRevoked) return false;
      if (error instanceof PlatformError && error.retryable) throw error;
      // Any other answer (a 402, a refusal) does not say the app is installed: the uninstall is believed.
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
