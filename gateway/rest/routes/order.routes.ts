import { z } from 'zod';
import { clientResource, NOT_CONNECTED } from '../../clients/client.resource';
import { MARKABLE_SENT_STATES, orderResource, RESENDABLE_STATES, statesText } from '../../orders/order.resource';
import {
  MarkSentFormat,
  ORDER_NOT_SENDABLE,
  ORDER_NOT_UNCERTAIN,
  REJECTED_CANCEL_REFUSED,
  REJECTED_CANCEL_UNREACHABLE,
  type OrderService,
} from '../../orders/order.service';
import { IdParams, Message } from '../../validation';
import type { AuditLog } from '../../audit/audit-log';
import { route } from '../route';

/** What staff do with an order beyond reading it (the declared resource's routes): resend, mark sent, sweep now. */
export function orderRoutes(orders: OrderService, audit: AuditLog) {
  return [
    route({
      method: 'post',
      path: '/orders/:id/resend',
      tag: 'orders',
      summary: `Reenviar: from ${statesText(RESENDABLE_STATES)}, read the order again from the store, map it again and queue it to send; a rejected order's sales order is cancelled in Hiper first`,
      auth: true,
      params: IdParams,
      response: orderResource.public,
      status: 202,
      errors: {
        404: orderResource.messages.notFound,
        409: `${ORDER_NOT_SENDABLE}, or ${REJECTED_CANCEL_REFUSED}`,
        502: REJECTED_CANCEL_UNREACHABLE,
      },
      handler: ({ params, user }) =>
        audit.action(user, { action: 'resend', resource: 'Order', recordId: params.id }, (within) =>
          orders.resend(params.id, within),
        ),
    }),
    route({
      method: 'post',
      path: '/orders/:id/mark-sent',
      tag: 'orders',
      summary: `Já está no Hiper: from ${statesText(MARKABLE_SENT_STATES)}, the order is taken as sent with Hiper's id of its sales order (required)`,
      auth: true,
      params: IdParams,
      // The id is required, but an order that cannot be marked answers 409 first: the service checks it after the state.
      body: z.preprocess((body) => body ?? {}, MarkSentFormat),
      response: orderResource.public,
      errors: { 404: orderResource.messages.notFound, 409: ORDER_NOT_UNCERTAIN },
      handler: ({ params, body, user }) =>
        audit.action(
          user,
          {
            action: 'mark_sent',
            resource: 'Order',
            recordId: params.id,
            changes: { hiper_order_id: { after: body.hiper_order_id } },
          },
          (within) => orders.markSent(params.id, body.hiper_order_id, within),
        ),
    }),
    route({
      method: 'post',
      path: '/clients/:id/orders/sweep',
      tag: 'clients',
      summary: "Sweep the client's store for orders updated since the last sweep, now",
      auth: true,
      params: IdParams,
      response: Message,
      status: 202,
      errors: {
        404: clientResource.messages.notFound,
        409: `Missing … naming what the client lacks to be swept, or ${NOT_CONNECTED}`,
      },
      handler: ({ params, user }) =>
        audit.action(user, { action: 'sweep', resource: 'Client', recordId: params.id }, () => orders.sweep(params.id)),
    }),
  ];
}
