import { Args, ArgsType, Ctx, Field, Mutation, Resolver } from 'type-graphql';
import type { Context } from '../graphql/context';
import { CallbackAnswer } from '../graphql/types';
import { validate } from '../validation';
import { AuthorizeCallback } from './callback.schemas';

@ArgsType()
class AuthorizeCallbackArgs {
  @Field() code!: string;
}

@Resolver()
export class CallbackResolver {
  @Mutation(() => CallbackAnswer, { description: 'Completes a Nuvemshop app authorization (public)' })
  authorizeCallback(@Args() { code }: AuthorizeCallbackArgs, @Ctx() ctx: Context) {
    return ctx.services.callback.authorize(validate(AuthorizeCallback, { code }, 'body'), ctx.caller);
  }
}
