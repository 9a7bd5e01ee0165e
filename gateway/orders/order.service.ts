import type { MikroORM } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { ApiError } from '../errors';
import type { JobQueue } from '../queue/queue';
import { entityFor } from '../resources/entity';
import {
  MARKABLE_SENT_STATES,
  orderResource,
  RESENDABLE_STATES,
  type OrderPublic,
  type OrderState,
} from '../resources/order.resource';
import { PlatformError } from '../sync/platform-call';
import { recordId, validate } from '../validation';
import type { OrderSweep } from './order-intake';
import { moveOrder, orderRow } from './order-rows';
import type { OrderSender } from './order-sender';

export const ORDER_NOT_SENDABLE = 'Order cannot be sent in its state';
export const ORDER_NOT_UNCERTAIN = 'Order cannot be marked sent in its state';
const RESENDABLE: readonly OrderState[] = RESENDABLE_STATES;
const MARKABLE: readonly OrderState[] = MARKABLE_SENT_STATES;

/** What staff do with orders: "Reenviar", "Já está no Hiper", and a sweep now. Reading is the declared resource's. */
/** What "Já está no Hiper" takes, through REST and GraphQL alike: Hiper's id of the sales order, when staff know it. */
export const MarkSent = z
  .object({ hiper_order_id: z.string().trim().min(1).max(64).nullable().optional() })
  .meta({ id: 'OrderMarkSent' });

export class OrderService {
  constructor(
    private readonly orm: MikroORM,
    private readonly jobs: JobQueue,
    private readonly sender: OrderSender,
    private readonly sweeps: OrderSweep,
  ) {}

  private async answer(id: string): Promise<OrderPublic> {
    const row = await this.orm.em.fork().findOne(entityFor(orderResource), { id });
    if (!row) throw new ApiError(404, orderResource.messages.notFound);
    return orderResource.toPublic(row);
  }

  /**
   * "Reenviar": from held, rejected or uncertain, the order is read again from the store and mapped again (a CPF,
   * address, link or payment id fixed since takes effect), and queued to send when nothing holds it. Answers the order
   * as it then stands.
   */
  async resend(id: string): Promise<OrderPublic> {
    const orderId = recordId(id);
    await this.orm.em.fork().transactional(async (em) => {
      const row = await orderRow(em, orderId, true);
      if (!row) throw new ApiError(404, orderResource.messages.notFound);
      if (!RESENDABLE.includes(row.state)) throw new ApiError(409, ORDER_NOT_SENDABLE);
      await moveOrder(
        em,
        orderId,
        { state: 'received', hold_reason: null, last_error: null },
        `Reenviar pedido pela equipe (estava ${row.state})`,
        RESENDABLE,
      );
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

  /** "Já está no Hiper": an uncertain order is taken as sent (with Hiper's id when staff know it), never sent again. */
  async markSent(id: string, given?: string | null): Promise<OrderPublic> {
    const hiperOrderId = validate(MarkSent, { hiper_order_id: given }, 'body').hiper_order_id;
    const orderId = recordId(id);
    await this.orm.em.fork().transactional(async (em) => {
      const row = await orderRow(em, orderId, true);
      if (!row) throw new ApiError(404, orderResource.messages.notFound);
      if (!MARKABLE.includes(row.state)) throw new ApiError(409, ORDER_NOT_UNCERTAIN);
      await moveOrder(
        em,
        orderId,
        {
          state: 'sent',
          sent_at: new Date(),
          last_error: null,
          ...(hiperOrderId ? { hiper_order_id: hiperOrderId } : {}),
        },
        hiperOrderId ? `Já está no Hiper (${hiperOrderId}), pela equipe` : 'Já está no Hiper, pela equipe',
        MARKABLE,
      );
    });
    return this.answer(orderId);
  }

  /** A sweep of the client's orders now. */
  sweep(clientId: string): Promise<{ message: string }> {
    return this.sweeps.request(recordId(clientId));
  }
}
