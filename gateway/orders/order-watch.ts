import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { JobQueue } from '../queue/queue';
import { clientResource, isConnected } from '../clients/client.resource';
import { entityFor } from '../kit/entity';
import { HiperKeyRefused, HiperUnavailable } from '../platforms/hiper.client';
import {
  NuvemshopRefused,
  NuvemshopUnavailable,
  PermissionMissing,
  StoreSuspended,
  TokenRevoked,
} from '../platforms/nuvemshop.errors';
import type { AnswerJournal } from './answer-journal';
import { moveOrder } from './order-rows';
import { HiperBusy } from './order-sender';
import { orderNotes } from '../../schema/staff-notes';

/** How long a payable order may sit `received` with no job before the watch queues it again. */
const STRANDED_AFTER_SECONDS = 300;
/** Orders queued again by one watch, at most: the rest are found by the next. */
const STRANDED_PER_WATCH = 200;

/** Why an order's job gave up, as staff read it: what failed, that nothing was created, and what to do. */
export function givenUpReason(error: unknown): string {
  if (error instanceof HiperBusy) return orderNotes.hiper_busy_every_try;
  if (error instanceof HiperKeyRefused) return orderNotes.hiper_key_refused;
  if (error instanceof HiperUnavailable) return orderNotes.hiper_unreachable_every_try;
  if (error instanceof TokenRevoked) return orderNotes.store_token_refused;
  if (error instanceof StoreSuspended) return orderNotes.store_suspended;
  if (error instanceof PermissionMissing) return orderNotes.store_permission_missing;
  if (error instanceof NuvemshopUnavailable || error instanceof NuvemshopRefused) {
    return orderNotes.store_unreadable_every_try;
  }
  return orderNotes.send_failed_every_try;
}

/**
 * What keeps an order from being lost between its jobs: the answers Hiper gave that are not saved yet, the rows a dead
 * process left `sending`, the orders whose job gave up, and payable orders left `received` with no job at all.
 */
export class OrderWatch {
  constructor(
    private readonly orm: MikroORM,
    private readonly jobs: JobQueue,
    private readonly answers: AnswerJournal,
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  /** One watch: kept answers saved first (an id settles an order a dead process left `sending`), then the rest. */
  async watch(): Promise<Record<string, unknown>> {
    const answers = await this.answers.saveKept();
    const uncertain = await this.settleAbandoned();
    const queued = await this.queueStranded();
    return { answers, uncertain, queued };
  }

  /**
   * An order's job ran out of attempts (or met a refusal it cannot get past): the order waits, `held`, for a person,
   * with the reason, and "Reenviar" is offered. Only an order still `received` moves: one sent, uncertain or held
   * meanwhile says more than the failure.
   */
  async giveUp(orderId: string, error: unknown): Promise<boolean> {
    const reason = givenUpReason(error);
    const held = await moveOrder(
      this.orm.em.fork(),
      orderId,
      { state: 'held', hold_reason: reason, sending_since: null },
      reason,
      ['received'],
    );
    if (held) this.log.warn({ order: orderId }, 'order held: its job gave up');
    return held;
  }

  /** Orders left `sending` past any answer's time (their process died) become `uncertain`, never sent by themselves. */
  async settleAbandoned(): Promise<number> {
    const seconds = Math.ceil(this.config.HIPER_TIMEOUT_MS / 1000) * 2 + 30;
    const rows = (await this.orm.em.fork().execute(
      `update orders set state = 'uncertain', sending_since = null, updated_at = now(),
          last_error = ?,
          history = history || jsonb_build_array(jsonb_build_object('at', now(), 'state', 'uncertain', 'note', ?::text))
        where state = 'sending' and sending_since < now() - make_interval(secs => ?) returning id`,
      [orderNotes.send_interrupted, orderNotes.send_interrupted, seconds],
    )) as { id: string }[];
    return rows.length;
  }

  /**
   * Payable (or never read) orders `received` for a while with no job queued, retried or running: their job was lost
   * or failed for good where nothing could hold them (the database itself was down). Each is queued again.
   */
  async queueStranded(): Promise<number> {
    const em = this.orm.em.fork();
    const rows = (await em.execute(
      `select o.id, o.client_id from orders o
        where o.state = 'received'
          and (o.payment_status is null or o.payment_status in ('paid', 'authorized'))
          and o.last_error is distinct from ?
          and o.updated_at < now() - make_interval(secs => ?)
          and not exists (select 1 from pgboss.job j
                           where j.name = 'order' and j.singleton_key = o.id::text
                             and j.state in ('created', 'retry', 'active'))
        order by o.updated_at limit ?`,
      [orderNotes.placed_before_orders_on, STRANDED_AFTER_SECONDS, STRANDED_PER_WATCH],
    )) as { id: string; client_id: string }[];
    if (rows.length === 0) return 0;
    const clients = await em.find(entityFor(clientResource), {
      id: { $in: [...new Set(rows.map((r) => r.client_id))] },
    });
    const sending = new Set(clients.filter((c) => c.ordersEnabled && isConnected(c)).map((c) => String(c.id)));
    let queued = 0;
    for (const row of rows) {
      if (!sending.has(row.client_id)) continue;
      await this.jobs.send('order', { orderId: row.id }, { singletonKey: row.id });
      queued++;
    }
    if (queued) this.log.warn({ queued }, 'orders found received with no job: queued again');
    return queued;
  }
}
