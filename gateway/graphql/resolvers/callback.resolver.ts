import { Args, ArgsType, Ctx, Field, Mutation, Resolver } from 'type-graphql';
import { AuthorizeCallback } from '../../callback/callback.schemas';
import type { Context } from '../context';
import { bodyOf } from '../derived-types';
import { CallbackAnswer } from '../types';

@ArgsType()
class AuthorizeCallbackArgs {
  @Field() code!: string;
}

@Resolver()
export class CallbackResolver {
  @Mutation(() => CallbackAnswer, { description: 'Completes a Nuvemshop app authorization (public)' })
  authorizeCallback(@Args() { code }: AuthorizeCallbackArgs, @Ctx() ctx: Context) {
    return ctx.services.callback.authorize(bodyOf(AuthorizeCallback, { code }), ctx.caller);
  }
}
