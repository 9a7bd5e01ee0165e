import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import pLimit from 'p-limit';
import { z } from 'zod';
import type { RateLimits } from '../auth/rate-limits';
import type { Config } from '../config';
import type { PlainRows } from '../database/plain-rows';
import { ApiError, ValidationFailed } from '../errors';
import type { JobQueue } from '../queue/queue';
import { messages } from '../messages';
import { storeClient, storeInstalledAt, type RecordDelivery } from '../clients/store-connection';
import type { WebhookEventName } from './webhook-event.resource';
import type { Admission } from '../http/admission';
import { validate } from '../validation';
import { isOrderEvent, ORDER_EVENTS, recordOrderWebhook } from '../orders/order-intake';
import { isLocationEvent, LOCATION_EVENTS, recordLocationWebhook } from '../locations/location-events';
import { firstInWindow, StoreDayBudget } from './delivery-bounds';
import { webhookNotes } from '../../schema/staff-notes';

/** The URLs Nuvemshop posts to: one for the events the app registers, one per privacy request (set in its portal). */
export type WebhookRoute = 'app' | 'store-redact' | 'customers-redact' | 'customers-data-request';

/** The privacy requests carry no `event`: their URL says which one they are. */
const PRIVACY_EVENTS: Record<Exclude<WebhookRoute, 'app'>, WebhookEventName> = {
  'store-redact': 'store/redact',
  'customers-redact': 'customers/redact',
  'customers-data-request': 'customers/data_request',
};

/** The events the app registers for each store it is installed on. */
export const APP_EVENTS = ['app/uninstalled', 'app/suspended', 'app/resumed'] as const;

/** Events whose body (the app's id) is the same for every suspension or resumption of one install. */
const REPEATING_EVENTS: WebhookEventName[] = ['app/suspended', 'app/resumed'];
/** How long a body seen again counts as the same delivery of a repeating event. */
const REPEAT_WINDOW_SECONDS = 600;

export const SIGNATURE_HEADER = 'x-linkedstore-hmac-sha256';

/**
 * Largest body claiming a signature: read whole to check it, so a stranger can claim one too. Nuvemshop's largest, a
 * customer's data request listing their order ids, is tens of KB; a larger one is answered 413 and not recorded.
 */
export const WEBHOOK_BODY_LIMIT = '256kb';
/**
 * Largest unsigned body: a privacy request is a store id, a customer and lists of order ids, a few KB. Anyone can
 * send one, so it is read and parsed only up to this.
 */
export const UNSIGNED_BODY_LIMIT = '16kb';
/** Unsigned requests read and parsed at once by one process, and waiting for their turn; past both, 503. */
const UNSIGNED_AT_ONCE = 4;
const UNSIGNED_WAITING = 64;

const StoreId = z.union([
  z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
]);
const WebhookId = z.union([z.number(), z.string().max(64)]).optional();

/** `{store_id, event, id}`, as Nuvemshop posts an event the app registered (other fields are ignored). */
export const AppWebhook = z
  .object({ store_id: StoreId, event: z.enum([...APP_EVENTS, ...ORDER_EVENTS, ...LOCATION_EVENTS]), id: WebhookId })
  .meta({ id: 'NuvemshopWebhook' });
/** A privacy request: `{store_id, ...}`; the customer's data it may carry is neither kept nor answered. */
export const PrivacyWebhook = z.looseObject({ store_id: StoreId }).meta({ id: 'NuvemshopPrivacyWebhook' });

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/**
 * Receives Nuvemshop's webhooks: checks the signature over the body as sent, records the webhook and queues its job
 * in one transaction, and answers. Nothing here reads or locks a client's row for writing, so the answer never waits
 * on a synchronisation holding it; the job does the work.
 */
export class WebhookService {
  private readonly secret: Buffer | undefined;
  private readonly unsignedTurns = pLimit(UNSIGNED_AT_ONCE);
  private readonly unsignedPerStoreDay: number;
  private readonly days: StoreDayBudget;

  constructor(
    private readonly orm: MikroORM,
    private readonly rows: PlainRows,
    private readonly jobs: JobQueue,
    private readonly limits: RateLimits,
    config: Pick<
      Config,
      | 'NUVEMSHOP_CLIENT_SECRET'
      | 'WEBHOOK_UNSIGNED_PER_STORE_DAY'
      | 'WEBHOOK_SIGNED_PER_STORE_DAY'
      | 'WEBHOOK_SIGNED_UNKNOWN_STORE_PER_DAY'
    >,
  ) {
    // Without the app's secret no signature can be checked, so none is valid.
    this.secret = config.NUVEMSHOP_CLIENT_SECRET ? Buffer.from(config.NUVEMSHOP_CLIENT_SECRET) : undefined;
    this.unsignedPerStoreDay = config.WEBHOOK_UNSIGNED_PER_STORE_DAY;
    this.days = new StoreDayBudget(config);
  }

  /**
   * Before a byte of the body is read: an app event must be signed (401 unread); an unsigned privacy request spends
   * its address's budget (429) and is read up to UNSIGNED_BODY_LIMIT, a few at a time (503 when too many wait); a
   * body claiming a signature reserves one of that budget (given back when the signature holds) and is read whole.
   */
  async admit(route: WebhookRoute, headers: IncomingHttpHeaders, ip: string): Promise<Admission> {
    if (signatureOf(headers) === undefined) {
      if (route === 'app') throw new ApiError(401, messages.invalidSignature);
      await this.limits.consume('webhook', ip);
      if (this.unsignedTurns.pendingCount >= UNSIGNED_WAITING) {
        throw new ApiError(503, messages.webhookBusy, { 'Retry-After': '5' });
      }
      return { limit: UNSIGNED_BODY_LIMIT, run: (work) => this.unsignedTurns(work) };
    }
    await this.limits.beforeSignedWebhook(ip);
    return { limit: WEBHOOK_BODY_LIMIT, run: (work) => work() };
  }

  async receive(route: WebhookRoute, raw: Buffer | undefined, headers: IncomingHttpHeaders, ip: string): Promise<void> {
    const body = raw ?? Buffer.alloc(0);
    const signature = signatureOf(headers);
    // An app event must be signed; a privacy request without a signature is recorded but never acted on.
    // A failed signature keeps the point admit reserved; one that holds gives it back.
    if ((route === 'app' || signature !== undefined) && !this.verifies(body, signature ?? '')) {
      throw new ApiError(401, messages.invalidSignature);
    }
    const signed = signature !== undefined;
    if (signed) await this.limits.webhookSignatureValid(ip);
    const data = parseJson(body);
    let event: WebhookEventName;
    let storeId: number;
    let webhookId: string | null = null;
    let key: string;
    if (route === 'app') {
      const payload = validate(AppWebhook, data, 'body');
      if (isOrderEvent(payload.event)) return this.recordOrder(payload.event, payload.store_id, payload.id, body);
      if (isLocationEvent(payload.event)) return this.recordLocation(payload.event, payload.store_id, payload.id, body);
      event = payload.event;
      storeId = payload.store_id;
      webhookId = payload.id === undefined ? null : String(payload.id);
      // The same webhook delivered twice is the same store, event and id; an id may come back after a new install
      // (it names the app or the store), which makes it a new delivery.
      const install = (await storeInstalledAt(this.rows, storeId))?.toISOString() ?? '-';
      key = `${event} ${storeId} ${webhookId ?? sha256(body)} ${install}`;
    } else {
      storeId = validate(PrivacyWebhook, data, 'body').store_id;
      event = PRIVACY_EVENTS[route];
      if (!signed) return this.recordUnsigned(event, storeId, body);
      key = `${event} ${storeId} signed ${sha256(body)}`;
    }
    await this.orm.em.fork().transactional(async (em) => {
      const day = await this.days.open(em, storeId, !!(await storeClient(em, storeId)));
      if (REPEATING_EVENTS.includes(event)) key = await repeatableKey(em, storeId, key);
      if (!day.room) {
        // Past the day's cap: counted as dropped unless it is a delivery already recorded.
        const [seen] = await em.execute(`select 1 from webhook_events where delivery_key = ?`, [key]);
        if (!seen) await day.dropped();
        return;
      }
      const inserted = (await em.execute(
        `insert into webhook_events
           (id, event, store_id, client_id, received_at, outcome, signed, webhook_id, delivery_key, created_at, updated_at)
         values (?, ?, ?, null, now(), 'recorded', ?, ?, ?, now(), now())
         on conflict (delivery_key) do nothing returning id`,
        [randomUUID(), event, storeId, signed, webhookId, key],
      )) as { id: string }[];
      // A repeated delivery was recorded, and its job queued, the first time.
      if (inserted.length === 0) return;
      await day.recorded();
      await this.jobs.send('webhook', { id: inserted[0].id }, { em });
    });
  }

  /**
   * An order event: recorded with its order's row and the order's job in one transaction. Nuvemshop may send the same
   * body again for a later change (`order/updated` twice), so every delivery, a repeat within the window or one past
   * the day's cap included, queues the order's job (one queued per order absorbs the repeats); only a new body within
   * the day's cap is recorded.
   */
  private async recordOrder(
    event: (typeof ORDER_EVENTS)[number],
    storeId: number,
    id: unknown,
    body: Buffer,
  ): Promise<void> {
    const orderId = Number(id);
    if (!Number.isSafeInteger(orderId) || orderId <= 0) {
      throw new ValidationFailed([
        { type: 'value_error', loc: ['body', 'id'], msg: 'An order event needs the order id', input: id ?? null },
      ]);
    }
    await this.orm.em.fork().transactional(async (em) => {
      const fresh = await firstInWindow(em, event, body);
      await recordOrderWebhook(em, this.jobs, {
        event,
        storeId,
        orderId,
        record: this.delivery(em, { event, storeId, webhookId: String(orderId), fresh }),
      });
    });
  }

  /**
   * A location event: recorded (a new body within the day's cap) with a read of the client's locations queued in one
   * transaction. Every delivery queues the read (one queued per client absorbs the repeats): a location changed twice
   * sends the same body twice, and the read reads the store as it then is.
   */
  private async recordLocation(
    event: (typeof LOCATION_EVENTS)[number],
    storeId: number,
    id: unknown,
    body: Buffer,
  ): Promise<void> {
    const locationId = typeof id === 'string' || typeof id === 'number' ? String(id) : null;
    await this.orm.em.fork().transactional(async (em) => {
      const fresh = await firstInWindow(em, event, body);
      await recordLocationWebhook(em, this.jobs, {
        storeId,
        record: this.delivery(em, { event, storeId, webhookId: locationId, fresh }),
      });
    });
  }

  /**
   * Keeps a domain's verdict on a signed store event as the delivery's row, in the transaction `em` is in: a body
   * first seen in its window (`fresh`) within the store's day's cap gets one; a repeat gets none, and one past the cap
   * is counted as dropped.
   */
  private delivery(
    em: EntityManager,
    delivery: { event: WebhookEventName; storeId: number; webhookId: string | null; fresh: boolean },
  ): RecordDelivery {
    return async ({ clientId, outcome, note }) => {
      if (!delivery.fresh) return;
      const day = await this.days.open(em, delivery.storeId, clientId !== null);
      if (!day.room) return day.dropped();
      await day.recorded();
      await em.execute(
        `insert into webhook_events
           (id, event, store_id, client_id, received_at, outcome, note, signed, webhook_id, delivery_key, created_at, updated_at)
         values (?, ?, ?, ?, now(), ?, ?, true, ?, ?, now(), now())
         on conflict (delivery_key) do nothing`,
        [
          randomUUID(),
          delivery.event,
          delivery.storeId,
          clientId,
          outcome,
          note,
          delivery.webhookId,
          `${delivery.event} ${delivery.storeId} ${delivery.webhookId ?? '-'} #${randomUUID()}`,
        ],
      );
    };
  }

  /**
   * An unsigned privacy request is recorded as such and never acted on, so it queues no job. Anyone can send one:
   * only a store that is a client's is recorded, at most WEBHOOK_UNSIGNED_PER_STORE_DAY a day; the answer is the
   * same either way, so it tells a stranger nothing about which stores are clients.
   */
  private async recordUnsigned(event: WebhookEventName, storeId: number, body: Buffer): Promise<void> {
    await this.orm.em.fork().transactional(async (em) => {
      await em.execute(`select pg_advisory_xact_lock(hashtextextended('unsigned webhooks ' || ?, 0))`, [storeId]);
      const client = await storeClient(em, storeId);
      if (!client) return;
      const [{ today }] = (await em.execute(
        `select count(*)::int as today from webhook_events
          where store_id = ? and not signed and received_at > now() - interval '1 day'`,
        [storeId],
      )) as { today: number }[];
      if (today >= this.unsignedPerStoreDay) return;
      await em.execute(
        `insert into webhook_events
           (id, event, store_id, client_id, received_at, outcome, note, signed, delivery_key, created_at, updated_at)
         values (?, ?, ?, ?, now(), 'unsigned', ?, false, ?, now(), now())
         on conflict (delivery_key) do nothing`,
        [
          randomUUID(),
          event,
          storeId,
          client.id,
          event === 'store/redact' ? webhookNotes.unsigned_nothing_erased : webhookNotes.unsigned_nothing_done,
          `${event} ${storeId} unsigned ${sha256(body)}`,
        ],
      );
    });
  }

  /** Constant-time comparison of the hex HMAC-SHA256 of the body, keyed with the app's secret. */
  private verifies(body: Buffer, signature: string): boolean {
    if (!this.secret) return false;
    const expected = createHmac('sha256', this.secret).update(body).digest();
    const given = /^[0-9a-f]{64}$/i.test(signature.trim()) ? Buffer.from(signature.trim(), 'hex') : Buffer.alloc(0);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

function signatureOf(headers: IncomingHttpHeaders): string | undefined {
  const header = headers[SIGNATURE_HEADER];
  return Array.isArray(header) ? header[0] : header;
}

/**
 * The delivery key of a suspension or resumption: the same as a recent delivery's while that is still the store's
 * latest such event (a repeat, dropped by the unique key), otherwise a new one, so a second cycle counts like the first.
 */
async function repeatableKey(em: EntityManager, storeId: number, key: string): Promise<string> {
  await em.execute(`select pg_advisory_xact_lock(hashtextextended('webhook repeats ' || ?, 0))`, [storeId]);
  const [latest] = (await em.execute(
    `select delivery_key from webhook_events where store_id = ? and event in (?, ?)
      and received_at > now() - make_interval(secs => ?) order by received_at desc limit 1`,
    [storeId, ...REPEATING_EVENTS, REPEAT_WINDOW_SECONDS],
  )) as { delivery_key: string }[];
  if (latest && latest.delivery_key.startsWith(`${key} #`)) return latest.delivery_key;
  return `${key} #${randomUUID()}`;
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ValidationFailed([{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: {} }]);
  }
}
