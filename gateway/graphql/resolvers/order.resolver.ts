import { Args, ArgsType, Authorized, Ctx, Field, ID, Mutation, Resolver } from 'type-graphql';
import { MARKABLE_SENT_STATES, orderResource, RESENDABLE_STATES, statesText } from '../../orders/order.resource';
import type { Context } from '../context';
import { objectTypeOf } from '../derived-types';

@ArgsType()
class OrderIdArgs {
  @Field(() => ID) id!: string;
}

@ArgsType()
class MarkOrderSentArgs {
  @Field(() => ID) id!: string;
  // Nullable here so that its absence is answered as the REST route answers it: a 422 saying what to give.
  @Field(() => String, { nullable: true }) hiper_order_id?: string | null;
}

@ArgsType()
class SweepOrdersArgs {
  @Field(() => ID) client_id!: string;
}

@Resolver()
export class OrderResolver {
  @Authorized()
  @Mutation(() => objectTypeOf(orderResource), {
    description: `Reenviar: from ${statesText(RESENDABLE_STATES)}, read again from the store, mapped again, queued to send (409 in any other state); a rejected order's sales order is cancelled in Hiper first, and nothing is resent if Hiper refuses (409) or cannot be reached (502)`,
  })
  async resendOrder(@Args() { id }: OrderIdArgs, @Ctx() ctx: Context) {
    return ctx.services.audit.action(
      await ctx.user(),
      { action: 'resend', resource: 'Order', recordId: id },
      (within) => ctx.services.orders.resend(id, within),
    );
  }

  @Authorized()
  @Mutation(() => objectTypeOf(orderResource), {
    description: `Já está no Hiper: from ${statesText(MARKABLE_SENT_STATES)}, the order is taken as sent with Hiper’s id of its sales order, required (422 without it, 409 in any other state)`,
  })
  async markOrderSent(@Args() { id, hiper_order_id }: MarkOrderSentArgs, @Ctx() ctx: Context) {
    const entry = {
      action: 'mark_sent',
      resource: 'Order',
      recordId: id,
      changes: { hiper_order_id: { after: hiper_order_id } },
    } as const;
    return ctx.services.audit.action(await ctx.user(), entry, (within) =>
      ctx.services.orders.markSent(id, hiper_order_id, within),
    );
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Queues a sweep of the client’s store orders now' })
  async sweepOrders(@Args() { client_id }: SweepOrdersArgs, @Ctx() ctx: Context) {
    await ctx.services.audit.action(
      await ctx.user(),
      { action: 'sweep', resource: 'Client', recordId: client_id },
      () => ctx.services.orders.sweep(client_id),
    );
    return true;
  }
}
