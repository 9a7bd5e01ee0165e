import { Args, ArgsType, Authorized, Ctx, Field, InputType, Query, Resolver } from 'type-graphql';
import { z } from 'zod';
import { auditEventResource } from '../../audit/audit-event.resource';
import { PageArgs } from '../../database/pagination';
import { validate } from '../../validation';
import type { Context } from '../context';
import { objectTypeOf } from '../derived-types';
import { IdArgs, ListMetadata, PageOfListArgs } from '../types';

const AuditEventType = objectTypeOf(auditEventResource);

@InputType({
  description:
    'Audit list filter: who (`user_id`), which resource (its GraphQL name) and record, and when (`since`, `until`: ' +
    'ISO 8601 dates or instants)',
})
class AuditEventFilter {
  @Field(() => String, { nullable: true }) user_id?: string;
  @Field(() => String, { nullable: true }) resource?: string;
  @Field(() => String, { nullable: true }) record_id?: string;
  @Field(() => String, { nullable: true }) since?: string;
  @Field(() => String, { nullable: true }) until?: string;
}

@ArgsType()
class AuditEventListArgs extends PageOfListArgs {
  @Field(() => String, { nullable: true }) sortField?: string;
  @Field(() => String, { nullable: true }) sortOrder?: string;
  @Field(() => AuditEventFilter, { nullable: true }) filter?: AuditEventFilter;
}

const Page = PageArgs.omit({ filter: true }).extend({ filter: z.unknown().optional() });

/** The audit log through GraphQL (superusers), read by the same service as its REST routes, newest first. */
@Resolver(() => AuditEventType)
export class AuditResolver {
  private async page(ctx: Context, args: AuditEventListArgs) {
    const { page, perPage } = validate(Page, args, 'query');
    const user = await ctx.user();
    const filters = ctx.services.audit.filters(
      Object.fromEntries(Object.entries(args.filter ?? {}).filter(([, value]) => value != null)),
    );
    const key = `AuditEvent:${JSON.stringify({ page, perPage, filters })}`;
    return ctx.once(key, () => ctx.services.audit.list(user, { skip: page * perPage, limit: perPage }, filters));
  }

  @Authorized()
  @Query(() => [AuditEventType], { description: 'Audit events, newest first (superuser)' })
  async allAuditEvents(@Args() args: AuditEventListArgs, @Ctx() ctx: Context) {
    return (await this.page(ctx, args)).data;
  }

  @Authorized()
  @Query(() => ListMetadata)
  async _allAuditEventsMeta(@Args() args: AuditEventListArgs, @Ctx() ctx: Context) {
    return { count: (await this.page(ctx, args)).count };
  }

  @Authorized()
  @Query(() => AuditEventType)
  async AuditEvent(@Args() { id }: IdArgs, @Ctx() ctx: Context) {
    return ctx.services.audit.get(await ctx.user(), id);
  }
}
