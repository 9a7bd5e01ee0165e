import { Args, ArgsType, Authorized, Ctx, Field, ID, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { ActivityQuery, ACTIVITY_TIME_ZONE } from '../../health/daily-activity';
import { ORDER_STATES } from '../../orders/order.resource';
import { SYNC_RUN_STATES } from '../../sync/sync-run.resource';
import type { Context } from '../context';
import { bodyOf } from '../derived-types';

/** An object type with one Int field per state: how many were in it. */
function countsByState(name: string, states: readonly string[], description: string): new () => object {
  const type = { [name]: class {} }[name];
  for (const state of states) Field(() => Int)(type.prototype, state);
  ObjectType(name, { description, simpleResolvers: true })(type);
  return type;
}

const RunsByState = countsByState('RunsByState', SYNC_RUN_STATES, 'The runs queued that day, by their state now');
const OrdersByState = countsByState('OrdersByState', ORDER_STATES, 'The orders received that day, by their state now');

@ObjectType({ description: 'One day of activity', simpleResolvers: true })
class ActivityDay {
  @Field({ description: `The day, YYYY-MM-DD, in ${ACTIVITY_TIME_ZONE}` }) day!: string;
  @Field(() => RunsByState) runs!: object;
  @Field(() => Int, { description: 'Products created or changed in the store by those runs' })
  products_written!: number;
  @Field(() => OrdersByState) orders!: object;
  @Field(() => Int, {
    description: 'Errors of those runs on Nuvemshop answering 429 (its rate limit) past every retry',
  })
  rate_limited!: number;
}

@ObjectType({ description: 'What happened per day, oldest first, every day present', simpleResolvers: true })
class DailyActivity {
  @Field() time_zone!: string;
  @Field(() => [ActivityDay]) days!: ActivityDay[];
}

@ArgsType()
class DailyActivityArgs {
  @Field(() => ID, { nullable: true, description: 'One client’s activity; everyone’s without it' }) client_id?: string;
  @Field(() => Int, { nullable: true, description: 'How many days up to today (1 to 90)', defaultValue: 30 })
  days?: number;
}

/** The dashboard's and a client's charts: the same service as GET /api/v1/activity/. */
@Resolver()
export class ActivityResolver {
  @Authorized()
  @Query(() => DailyActivity, {
    description:
      'Per day up to today in America/Sao_Paulo: runs by state, the products they wrote, their 429s, orders by state',
  })
  async dailyActivity(@Args() args: DailyActivityArgs, @Ctx() ctx: Context) {
    await ctx.user();
    return ctx.services.activity.read(bodyOf(ActivityQuery, args));
  }
}
