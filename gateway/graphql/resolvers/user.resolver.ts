import { Args, ArgsType, Authorized, Ctx, Field, Mutation, Query, Resolver } from 'type-graphql';
import { EmailParams, LoginForm, toUserPublic } from '../../users/user.schemas';
import {
  NewPassword,
  OwnProfile,
  UpdatePassword,
  UserCreateInput,
  userResource,
  UserRegister,
} from '../../users/user.resource';
import { messages } from '../../messages';
import { validate } from '../../validation';
import type { Context } from '../context';
import { argumentsOf, bodyOf, inputOf, objectTypeOf } from '../derived-types';
import { countOf, listPage } from '../list';
import { IdArgs, ListArgs, ListMetadata, Message, Registration, Token } from '../types';

export const UserType = objectTypeOf(userResource);
const CreateUserArgs = argumentsOf(UserCreateInput);
const UpdateUserArgs = argumentsOf(userResource.update, { id: true });
const UpdateMeArgs = argumentsOf(OwnProfile);
const SignupArgs = argumentsOf(UserRegister);
const UpdatePasswordArgs = argumentsOf(UpdatePassword);
const ResetPasswordArgs = argumentsOf(NewPassword);

@ArgsType()
class LoginArgs {
  @Field({ description: 'The email' }) username!: string;
  @Field() password!: string;
}

@ArgsType()
class RecoverPasswordArgs {
  @Field() email!: string;
}

@Resolver(() => UserType)
export class UserResolver {
  @Authorized()
  @Query(() => [UserType], { description: 'Users (superuser)' })
  async allUsers(@Args() args: ListArgs, @Ctx() ctx: Context) {
    return (await listPage(ctx, 'users', args, (u, o) => ctx.services.users.list(u, o))).data;
  }

  @Authorized()
  @Query(() => ListMetadata)
  _allUsersMeta(@Args() args: ListArgs, @Ctx() ctx: Context) {
    return countOf(ctx, 'users', args, (u, o) => ctx.services.users.list(u, o));
  }

  @Authorized()
  @Query(() => UserType)
  async User(@Args() { id }: IdArgs, @Ctx() ctx: Context) {
    return ctx.services.users.get(await ctx.user(), id);
  }

  @Authorized()
  @Query(() => UserType, { description: 'The signed-in user' })
  async me(@Ctx() ctx: Context) {
    return toUserPublic(await ctx.user());
  }

  @Authorized()
  @Mutation(() => UserType)
  async createUser(@Args(() => CreateUserArgs) args: object, @Ctx() ctx: Context) {
    return ctx.services.users.create(await ctx.user(), inputOf(UserCreateInput, args));
  }

  @Authorized()
  @Mutation(() => UserType)
  async updateUser(@Args(() => UpdateUserArgs) args: { id: string }, @Ctx() ctx: Context) {
    return ctx.services.users.update(await ctx.user(), args.id, inputOf(userResource.update, args));
  }

  @Authorized()
  @Mutation(() => UserType, { description: 'Deletes a user (superuser) and answers the deleted record' })
  async deleteUser(@Args() { id }: IdArgs, @Ctx() ctx: Context) {
    return ctx.services.users.delete(await ctx.user(), id);
  }

  @Authorized()
  @Mutation(() => UserType)
  async updateMe(@Args(() => UpdateMeArgs) args: object, @Ctx() ctx: Context) {
    return ctx.services.users.updateMe(await ctx.user(), inputOf(OwnProfile, args));
  }

  @Authorized()
  @Mutation(() => Message)
  async updatePassword(@Args(() => UpdatePasswordArgs) args: object, @Ctx() ctx: Context) {
    await ctx.services.users.updatePassword(await ctx.user(), inputOf(UpdatePassword, args));
    return { message: messages.passwordUpdated };
  }

  @Authorized()
  @Mutation(() => Message)
  async deleteMe(@Ctx() ctx: Context) {
    await ctx.services.users.deleteMe(await ctx.user());
    return { message: messages.userDeleted };
  }

  @Query(() => Registration, { description: 'Who may sign up on this server (public)' })
  registration(@Ctx() ctx: Context): Registration {
    return ctx.services.users.registration as Registration;
  }

  @Mutation(() => Token)
  login(@Args() args: LoginArgs, @Ctx() ctx: Context) {
    return ctx.services.auth.login(bodyOf(LoginForm, args), ctx.caller);
  }

  @Mutation(() => UserType)
  signup(@Args(() => SignupArgs) args: object, @Ctx() ctx: Context) {
    return ctx.services.users.signup(inputOf(UserRegister, args), ctx.caller);
  }

  @Mutation(() => Message)
  async recoverPassword(@Args() { email }: RecoverPasswordArgs, @Ctx() ctx: Context) {
    const params = validate(EmailParams, { email }, 'path');
    return { message: await ctx.services.auth.recoverPassword(params.email, ctx.caller) };
  }

  @Mutation(() => Message)
  async resetPassword(@Args(() => ResetPasswordArgs) args: object, @Ctx() ctx: Context) {
    return { message: await ctx.services.auth.resetPassword(inputOf(NewPassword, args), ctx.caller) };
  }
}
