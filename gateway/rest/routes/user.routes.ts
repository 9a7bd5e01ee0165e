import type { AuthService } from '../../users/auth.service';
import { messages } from '../../messages';
import { EmailParams, LoginForm, Token, toUserPublic } from '../../users/user.schemas';
import {
  NewPassword,
  UpdatePassword,
  UserCreateInput,
  userResource,
  UserRegister,
  UserUpdateMe,
} from '../../users/user.resource';
import type { UserService } from '../../users/user.service';
import { IdParams, ListQuery, listOf, Message } from '../../validation';
import { route } from '../route';

const UserPublic = userResource.public;
const UsersPublic = listOf(UserPublic, 'UsersPublic');
const message = (text: string) => ({ message: text });

export function loginRoutes(auth: AuthService) {
  return [
    route({
      method: 'post',
      path: '/login/access-token',
      tag: 'login',
      summary: 'OAuth2 compatible token login',
      auth: false,
      form: true,
      body: LoginForm,
      response: Token,
      errors: { 400: 'Incorrect email or password, or inactive user', 429: 'Too many requests' },
      handler: ({ body, caller }) => auth.login(body, caller),
    }),
    route({
      method: 'post',
      path: '/login/test-token',
      tag: 'login',
      summary: 'Test access token',
      auth: true,
      response: UserPublic,
      handler: async ({ user }) => toUserPublic(user),
    }),
    route({
      method: 'post',
      path: '/password-recovery/:email',
      tag: 'login',
      summary: 'Password recovery',
      auth: false,
      params: EmailParams,
      response: Message,
      errors: { 429: 'Too many requests' },
      handler: async ({ params, caller }) => message(await auth.recoverPassword(params.email, caller)),
    }),
    route({
      method: 'post',
      path: '/reset-password/',
      tag: 'login',
      summary: 'Reset password',
      auth: false,
      body: NewPassword.schema,
      secrets: NewPassword.secrets,
      response: Message,
      errors: { 400: 'Invalid token, or inactive user', 429: 'Too many requests' },
      handler: async ({ body, caller }) => message(await auth.resetPassword(body, caller)),
    }),
    route({
      method: 'post',
      path: '/password-recovery-html-content/:email',
      tag: 'login',
      summary: 'HTML content for password recovery',
      auth: true,
      params: EmailParams,
      response: 'html',
      errors: { 404: 'The user with this username does not exist in the system.' },
      handler: ({ user, params }) => auth.recoveryHtml(user, params.email),
    }),
  ];
}

export function userRoutes(users: UserService) {
  return [
    route({
      method: 'get',
      path: '/users/',
      tag: 'users',
      summary: 'Read users (superuser)',
      auth: true,
      query: ListQuery,
      response: UsersPublic,
      handler: ({ user, query }) => users.list(user, query),
    }),
    route({
      method: 'post',
      path: '/users/',
      tag: 'users',
      summary: 'Create user (superuser)',
      auth: true,
      body: UserCreateInput.schema,
      secrets: userResource.secrets,
      response: UserPublic,
      errors: { 400: 'The user with this email already exists in the system.' },
      handler: ({ user, body }) => users.create(user, body),
    }),
    route({
      method: 'get',
      path: '/users/me',
      tag: 'users',
      summary: 'Read own user',
      auth: true,
      response: UserPublic,
      handler: ({ user }) => users.get(user, user.id),
    }),
    route({
      method: 'patch',
      path: '/users/me',
      tag: 'users',
      summary: 'Update own user',
      auth: true,
      body: UserUpdateMe.schema,
      secrets: UserUpdateMe.secrets,
      response: UserPublic,
      errors: { 409: 'User with this email already exists' },
      handler: ({ user, body }) => users.updateMe(user, body),
    }),
    route({
      method: 'patch',
      path: '/users/me/password',
      tag: 'users',
      summary: 'Update own password',
      auth: true,
      body: UpdatePassword.schema,
      secrets: UpdatePassword.secrets,
      response: Message,
      errors: { 400: 'Incorrect password, or the new password is the current one' },
      handler: async ({ user, body }) => {
        await users.updatePassword(user, body);
        return message(messages.passwordUpdated);
      },
    }),
    route({
      method: 'delete',
      path: '/users/me',
      tag: 'users',
      summary: 'Delete own user',
      auth: true,
      response: Message,
      errors: { 403: 'Super users are not allowed to delete themselves' },
      handler: async ({ user }) => {
        await users.deleteMe(user);
        return message(messages.userDeleted);
      },
    }),
    route({
      method: 'post',
      path: '/users/signup',
      tag: 'users',
      summary: 'Register a new user (active at once, waiting for approval, or refused: USERS_OPEN_REGISTRATION)',
      auth: false,
      body: UserRegister.schema,
      secrets: UserRegister.secrets,
      response: UserPublic,
      errors: {
        400: 'The user with this email already exists in the system',
        403: 'Open user registration is forbidden on this server',
        429: 'Too many requests',
      },
      handler: ({ body, caller }) => users.signup(body, caller),
    }),
    route({
      method: 'get',
      path: '/users/:id',
      tag: 'users',
      summary: 'Read a user by id',
      auth: true,
      params: IdParams,
      response: UserPublic,
      errors: { 404: 'User not found' },
      handler: ({ user, params }) => users.get(user, params.id),
    }),
    route({
      method: 'patch',
      path: '/users/:id',
      tag: 'users',
      summary: 'Update a user (superuser)',
      auth: true,
      params: IdParams,
      body: userResource.update.schema,
      secrets: userResource.secrets,
      response: UserPublic,
      errors: {
        403: 'Super users are not allowed to demote or deactivate themselves, or it would leave no active superuser',
        404: 'The user with this id does not exist in the system',
        409: 'User with this email already exists',
      },
      handler: ({ user, params, body }) => users.update(user, params.id, body),
    }),
    route({
      method: 'delete',
      path: '/users/:id',
      tag: 'users',
      summary: 'Delete a user (superuser)',
      auth: true,
      params: IdParams,
      response: Message,
      errors: {
        403: 'Super users are not allowed to delete themselves, or it would leave no active superuser',
        404: 'User not found',
      },
      handler: async ({ user, params }) => {
        await users.delete(user, params.id);
        return message(messages.userDeleted);
      },
    }),
  ];
}
