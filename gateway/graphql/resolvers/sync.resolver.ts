import { Args, ArgsType, Authorized, Ctx, Field, ID, Mutation, registerEnumType, Resolver } from 'type-graphql';
import { syncRunResource, SYNC_KINDS, type SyncKind } from '../../sync/sync-run.resource';
import type { Context } from '../context';
import { objectTypeOf } from '../derived-types';

const SyncKindEnum = Object.fromEntries(SYNC_KINDS.map((kind) => [kind, kind]));
registerEnumType(SyncKindEnum, {
  name: 'SyncKind',
  description: '`catalogue` (what changed since the last one), `stock` (prices and stock only) or `full` (from 0)',
});

@ArgsType()
class SyncClientArgs {
  @Field(() => ID) id!: string;
  @Field(() => SyncKindEnum, { nullable: true }) kind?: SyncKind;
}

@Resolver()
export class SyncResolver {
  @Authorized()
  @Mutation(() => objectTypeOf(syncRunResource), {
    description: 'Queues a run of the client now, or answers the one already queued or running',
  })
  async syncClient(@Args() { id, kind }: SyncClientArgs, @Ctx() ctx: Context) {
    const user = await ctx.user();
    const entry = {
      action: 'sync',
      resource: 'Client',
      recordId: id,
      changes: { kind: { after: kind ?? 'catalogue' } },
    } as const;
    return ctx.services.audit.action(user, entry, (within) =>
      ctx.services.sync.start(user, id, kind ?? 'catalogue', within),
    );
  }
}
