import { Args, ArgsType, Authorized, Ctx, Field, InputType, Query, Resolver } from 'type-graphql';
import { MailJobListArgs } from '../../jobs/mail-job.service';
import { validate } from '../../validation';
import type { Context } from '../context';
import { ListMetadata, MailJobType, PageOfListArgs } from '../types';

@InputType({ description: 'Mail jobs in one state only' })
class MailJobFilter {
  @Field(() => String, { nullable: true })
  state?: string;
}

/** A page of mail jobs, filtered by state. */
@ArgsType()
class MailJobArgs extends PageOfListArgs {
  @Field(() => MailJobFilter, { nullable: true })
  filter?: MailJobFilter;
}

/** Lists once per request for both `allMailJobs` and `_allMailJobsMeta`. */
async function mailJobs(ctx: Context, args: MailJobArgs) {
  const options = validate(MailJobListArgs, args, 'query');
  const user = await ctx.user();
  return ctx.once(`mail-jobs:${JSON.stringify(options)}`, () => ctx.services.mailJobs.list(user, options));
}

@Resolver(() => MailJobType)
export class MailJobResolver {
  @Authorized()
  @Query(() => [MailJobType], { description: 'Queued emails, newest first (superuser)' })
  async allMailJobs(@Args() args: MailJobArgs, @Ctx() ctx: Context) {
    return (await mailJobs(ctx, args)).data;
  }

  @Authorized()
  @Query(() => ListMetadata)
  async _allMailJobsMeta(@Args() args: MailJobArgs, @Ctx() ctx: Context) {
    return { count: (await mailJobs(ctx, { ...args, page: 0, perPage: 0 })).count };
  }
}
