import type { InTransaction } from '../kit/audit';
import type { MikroORM } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { Config } from '../config';
import { ApiError } from '../errors';
import type { JobQueue } from '../queue/queue';
import { clientResource, NOT_CONNECTED, storeConnectionOf, isConnected } from '../clients/client.resource';
import { entityFor } from '../kit/entity';
import {
  MARKABLE_SENT_STATES,
  orderResource,
  RESENDABLE_STATES,
  type OrderPublic,
  type OrderState,
} from './order.resource';
import { HiperKeyRefused } from '../platforms/hiper.client';
import { PlatformError, staffTextOf } from '../platforms/platform-call';
import { recordId, validate } from '../validation';
import { cancelSalesOrder } from './hiper-cancel';
import { HIPER_ORDER_ID_REQUIRED, HiperOrderId, isHiperOrderId, notAHiperOrderId } from './hiper-order-id';
import type { OrderSweep } from './order-intake';
import { moveOrder, orderRow, type OrderRow } from './order-rows';
import type { OrderSender } from './order-sender';
import { accountOfRow, hiperOf } from './shipment-accounts';
import { orderNotes, syncErrorNotes } from '../../schema/staff-notes';

export const ORDER_NOT_SENDABLE = 'Order cannot be sent in its state';
export const ORDER_NOT_UNCERTAIN = 'Order cannot be marked sent in its state';
export const REJECTED_CANCEL_REFUSED = 'Hiper refused to cancel the rejected sales order; nothing was resent';
export const REJECTED_CANCEL_UNREACHABLE =
  'Could not reach Hiper to cancel the rejected sales order; nothing was resent';
export const REJECTED_NOT_CANCELLABLE = 'The rejected order has no valid Hiper id to cancel; nothing was resent';
const RESENDABLE: readonly OrderState[] = RESENDABLE_STATES;
const MARKABLE: readonly OrderState[] = MARKABLE_SENT_STATES;

/**
 * What "Já está no Hiper" takes, through REST and GraphQL alike: Hiper's id of the sales order, required, so the order
 * is then read for its NF-e and shipment like any other sent order (Hiper offers no look-up by our number).
 */
export const MarkSentFormat = z.object({ hiper_order_id: HiperOrderId.nullish() });
export const MarkSent = MarkSentFormat.superRefine((body, ctx) => {
  if (body.hiper_order_id == null)
    ctx.addIssue({
      code: 'custom',
      path: ['hiper_order_id'],
      message: HIPER_ORDER_ID_REQUIRED,
      params: { type: 'missing' },
    });
}).meta({ id: 'OrderMarkSent' });

/** What staff do with orders: "Reenviar", "Já está no Hiper", and a sweep now. Reading is the declared resource's. */
export class OrderService {
  constructor(
    private readonly orm: MikroORM,
    private readonly jobs: JobQueue,
    private readonly sender: OrderSender,
    private readonly sweeps: OrderSweep,
    private readonly config: Pick<Config, 'HIPER_API_URL' | 'HIPER_TIMEOUT_MS'>,
  ) {}

  private async answer(id: string): Promise<OrderPublic> {
    const row = await this.orm.em.fork().findOne(entityFor(orderResource), { id });
    if (!row) throw new ApiError(404, orderResource.messages.notFound);
    return orderResource.toPublic(row);
  }

  /**
   * "Reenviar": from held, rejected or uncertain, the order is read again from the store and mapped again (a CPF,
   * address, link or payment id fixed since takes effect), and queued to send when nothing holds it. A rejected
   * order's sales order is cancelled in Hiper first, and nothing is resent unless Hiper took the cancel. Answers the
   * order as it then stands.
   */
  async resend(id: string, within?: InTransaction): Promise<OrderPublic> {
    const orderId = recordId(id);
    const before = await orderRow(this.orm.em.fork(), orderId);
    if (!before) throw new ApiError(404, orderResource.messages.notFound);
    if (!RESENDABLE.includes(before.state)) throw new ApiError(409, ORDER_NOT_SENDABLE);
    const cancelled = before.state === 'rejected' ? await this.cancelRejected(before) : null;
    await this.orm.em.fork().transactional(async (em) => {
      const row = await orderRow(em, orderId, true);
      if (!row) throw new ApiError(404, orderResource.messages.notFound);
      if (!RESENDABLE.includes(row.state) || (cancelled && row.state !== 'rejected'))
        throw new ApiError(409, ORDER_NOT_SENDABLE);
      await moveOrder(
        em,
        orderId,
        {
          state: 'received',
          hold_reason: null,
          last_error: null,
          // The cancelled sales order is no longer this order's: the next send records the new one.
          ...(cancelled ? { hiper_order_id: null, hiper_code: null, hiper_events_seen: 0, sent_at: null } : {}),
        },
        cancelled ? orderNotes.resent_after_cancel(cancelled) : orderNotes.resent(row.state),
        cancelled ? ['rejected'] : RESENDABLE,
      );
      await within?.(em);
    });
    try {
      await this.sender.process(orderId, { send: false });
    } catch (error) {
      // The store could not be read now: the job reads it again.
      if (!(error instanceof PlatformError)) throw error;
    }
    const after = await orderRow(this.orm.em.fork(), orderId);
    if (after?.state === 'received') await this.jobs.send('order', { orderId }, { singletonKey: orderId });
    return this.answer(orderId);
  }

  /**
   * A rejected order's sales order is cancelled in Hiper (`PUT cancelar`) before it is sent again, so Hiper never
   * holds two open for one store order. Answers the id cancelled; a refusal, or Hiper out of reach, throws with the
   * order's `last_error` saying why.
   */
  private async cancelRejected(row: OrderRow): Promise<string> {
    const refuse = async (status: number, detail: string, why: string) => {
      await moveOrder(this.orm.em.fork(), row.id, { last_error: why }, why, ['rejected']);
      return new ApiError(status, detail);
    };
    if (!isHiperOrderId(row.hiper_order_id)) {
      throw await refuse(409, REJECTED_NOT_CANCELLABLE, `${notAHiperOrderId(row.hiper_order_id)}; nada foi reenviado`);
    }
    const client = await this.orm.em.fork().findOne(entityFor(clientResource), { id: row.client_id });
    if (!client || !isConnected(client)) throw new ApiError(409, NOT_CONNECTED);
    // A shipment's sales order is in the Hiper account of its location.
    const account = await accountOfRow(this.orm.em.fork(), row, storeConnectionOf(client).hiperKey!);
    const hiper = hiperOf(this.orm, this.config, account);
    let answer;
    try {
      answer = await cancelSalesOrder(hiper, row.hiper_order_id);
    } catch (error) {
      if (error instanceof HiperKeyRefused) {
        throw await refuse(409, REJECTED_CANCEL_REFUSED, `${syncErrorNotes.hiper_key_refused}: nada foi reenviado`);
      }
      if (!(error instanceof PlatformError)) throw error;
      throw await refuse(
        502,
        REJECTED_CANCEL_UNREACHABLE,
        `Não foi possível pedir ao Hiper o cancelamento do pedido de venda ${row.hiper_order_id} (${staffTextOf(error)}): nada foi reenviado`,
      );
    }
    if (!answer.asked) {
      throw await refuse(
        409,
        REJECTED_CANCEL_REFUSED,
        `Hiper recusou o cancelamento do pedido de venda ${row.hiper_order_id}: ${answer.refused}. Nada foi reenviado`,
      );
    }
    return row.hiper_order_id;
  }

  /**
   * "Já está no Hiper": an uncertain order is taken as sent with Hiper's id of its sales order, never sent again, and
   * read for its events from then on.
   */
  async markSent(id: string, given?: string | null, within?: InTransaction): Promise<OrderPublic> {
    // An id that is not one is refused first; a missing one once the order's state would take it (409 otherwise).
    const hiperOrderId = validate(MarkSentFormat, { hiper_order_id: given }, 'body').hiper_order_id;
    const orderId = recordId(id);
    await this.orm.em.fork().transactional(async (em) => {
      const row = await orderRow(em, orderId, true);
      if (!row) throw new ApiError(404, orderResource.messages.notFound);
      if (!MARKABLE.includes(row.state)) throw new ApiError(409, ORDER_NOT_UNCERTAIN);
      if (!hiperOrderId) validate(MarkSent, { hiper_order_id: given }, 'body');
      await moveOrder(
        em,
        orderId,
        { state: 'sent', sent_at: new Date(), last_error: null, hiper_order_id: hiperOrderId },
        orderNotes.marked_sent(hiperOrderId!),
        MARKABLE,
      );
      // The store is read again: an order it cancelled meanwhile is then cancelled in Hiper, as any sent order is.
      await this.jobs.send('order', { orderId }, { em, singletonKey: orderId });
      await within?.(em);
    });
    return this.answer(orderId);
  }

  /** A sweep of the client's orders now. */
  sweep(clientId: string): Promise<{ message: string }> {
    return this.sweeps.request(recordId(clientId));
  }
}
