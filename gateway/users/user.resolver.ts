import { Args, ArgsType, Authorized, Ctx, Field, ID, Mutation, Query, Resolver } from 'type-graphql';
import { argsToBody } from '../graphql/arguments';
import type { Context } from '../graphql/context';
import { countOf, listPage } from '../graphql/list';
import { IdArgs, ListArgs, ListMetadata, Message, Registration, Token, UserType } from '../graphql/types';
import { IdParams, validate } from '../validation';
import {
  EmailParams,
  LoginForm,
  NewPassword,
  toUserPublic,
  UpdatePassword,
  UserCreate,
  UserRegister,
  UserUpdate,
  UserUpdateMe,
} from './user.schemas';

@ArgsType()
class CreateUserArgs {
  @Field() email!: string;
  @Field() password!: string;
  @Field(() => String, { nullable: true }) full_name?: string | null;
  @Field(() => Boolean, { nullable: true }) is_superuser?: boolean;
  @Field(() => Boolean, { nullable: true }) is_active?: boolean;
}

@ArgsType()
class UpdateUserArgs {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) email?: string;
  @Field(() => String, { nullable: true }) full_name?: string | null;
  @Field(() => String, { nullable: true }) password?: string;
  @Field(() => Boolean, { nullable: true }) is_active?: boolean;
  @Field(() => Boolean, { nullable: true }) is_superuser?: boolean;
}

@ArgsType()
class UpdateMeArgs {
  @Field(() => String, { nullable: true }) full_name?: string | null;
  @Field(() => String, { nullable: true }) email?: string;
}

@ArgsType()
class UpdatePasswordArgs {
  @Field() current_password!: string;
  @Field() new_password!: string;
}

@ArgsType()
class LoginArgs {
  @Field({ description: 'The email' }) username!: string;
  @Field() password!: string;
}

@ArgsType()
class SignupArgs {
  @Field() email!: string;
  @Field() password!: string;
  @Field(() => String, { nullable: true }) full_name?: string | null;
}

@ArgsType()
class RecoverPasswordArgs {
  @Field() email!: string;
}

@ArgsType()
class ResetPasswordArgs {
  @Field() token!: string;
  @Field() new_password!: string;
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
    return ctx.services.users.get(await ctx.user(), validate(IdParams, { id }, 'path').id);
  }

  @Authorized()
  @Query(() => UserType, { description: 'The signed-in user' })
  async me(@Ctx() ctx: Context) {
    return toUserPublic(await ctx.user());
  }

  @Authorized()
  @Mutation(() => UserType)
  async createUser(@Args() args: CreateUserArgs, @Ctx() ctx: Context) {
    return ctx.services.users.create(await ctx.user(), validate(UserCreate, argsToBody(args), 'body'));
  }

  @Authorized()
  @Mutation(() => UserType)
  async updateUser(@Args() args: UpdateUserArgs, @Ctx() ctx: Context) {
    const { id } = validate(IdParams, { id: args.id }, 'path');
    return ctx.services.users.update(await ctx.user(), id, validate(UserUpdate, argsToBody(args), 'body'));
  }

  @Authorized()
  @Mutation(() => UserType, { description: 'Deletes a user (superuser) and answers the deleted record' })
  async deleteUser(@Args() { id }: IdArgs, @Ctx() ctx: Context) {
    return ctx.services.users.delete(await ctx.user(), validate(IdParams, { id }, 'path').id);
  }

  @Authorized()
  @Mutation(() => UserType)
  async updateMe(@Args() args: UpdateMeArgs, @Ctx() ctx: Context) {
    return ctx.services.users.updateMe(await ctx.user(), validate(UserUpdateMe, argsToBody(args), 'body'));
  }

  @Authorized()
  @Mutation(() => Message)
  async updatePassword(@Args() args: UpdatePasswordArgs, @Ctx() ctx: Context) {
    await ctx.services.users.updatePassword(await ctx.user(), validate(UpdatePassword, argsToBody(args), 'body'));
    return { message: 'Password updated successfully' };
  }

  @Authorized()
  @Mutation(() => Message)
  async deleteMe(@Ctx() ctx: Context) {
    await ctx.services.users.deleteMe(await ctx.user());
    return { message: 'User deleted successfully' };
  }

  @Query(() => Registration, { description: 'Who may sign up on this server (public)' })
  registration(@Ctx() ctx: Context): Registration {
    return ctx.services.users.registration as Registration;
  }

  @Mutation(() => Token)
  login(@Args() args: LoginArgs, @Ctx() ctx: Context) {
    return ctx.services.auth.login(validate(LoginForm, argsToBody(args), 'body'), ctx.caller);
  }

  @Mutation(() => UserType)
  signup(@Args() args: SignupArgs, @Ctx() ctx: Context) {
    return ctx.services.users.signup(validate(UserRegister, argsToBody(args), 'body'), ctx.caller);
  }

  @Mutation(() => Message)
  async recoverPassword(@Args() { email }: RecoverPasswordArgs, @Ctx() ctx: Context) {
    const params = validate(EmailParams, { email }, 'path');
    return { message: await ctx.services.auth.recoverPassword(params.email, ctx.caller) };
  }

  @Mutation(() => Message)
  async resetPassword(@Args() args: ResetPasswordArgs, @Ctx() ctx: Context) {
    return {
      message: await ctx.services.auth.resetPassword(validate(NewPassword, argsToBody(args), 'body'), ctx.caller),
    };
  }
}
