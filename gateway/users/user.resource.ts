import { boolean, email, id, password, text, type CreateOf, type PublicOf, type UpdateOf } from '../kit/field';
import type { z } from 'zod';
import { inputShape, Resource, type InputShape } from '../kit/resource';

/** A staff account. The password is write-only: stored hashed, never answered. */
export const userResource = new Resource(
  'User',
  {
    id: id(),
    // In the FastAPI template's order, which its validation errors follow.
    email: email({ required: true, unique: true, listed: true, sortable: true, searchable: true }),
    is_active: boolean({ default: true, listed: true, sortable: true }),
    is_superuser: boolean({ default: false, listed: true, sortable: true }),
    full_name: text({ nullable: true, max: 255, listed: true, sortable: true, searchable: true }),
    password: password({ required: true }),
    receives_alerts: boolean({
      default: false,
      description:
        'Receives the e-mails about clients’ health (a client critical, back in order, the daily digest); a new ' +
        'account does when it is a superuser, unless told otherwise',
    }),
  },
  // Served by its own routes and operations (sign-up, the own account, password rules): not a generic resource.
  {
    ownAdapters: true,
    screen: 'admin',
    read: 'superuser',
    write: 'superuser',
    title: 'email',
    menu: 40,
    icon: 'People',
  },
);

/**
 * POST /users/ (a superuser creates an account): every writable field, `receives_alerts` left to follow `is_superuser`
 * unless given.
 */
export const UserCreateInput = userResource.createInput('UserCreate', undefined, {
  receives_alerts: { default: undefined },
} as object) as unknown as InputShape<z.ZodType<UserCreate>>;

/** POST /users/signup: an ordinary account, active or not as registration says. */
export const UserRegister = userResource.createInput('UserRegister', ['email', 'password', 'full_name']);
/** PATCH /users/me. */
export const UserUpdateMe = userResource.updateInput('UserUpdateMe', ['full_name', 'email', 'receives_alerts']);
/** The own profile as the admin edits it (GraphQL `updateMe`): a full name of at most 30 characters. */
export const OwnProfile = userResource.updateInput('OwnProfile', ['full_name', 'email', 'receives_alerts'], {
  full_name: { max: 30 },
});

export const UpdatePassword = inputShape('UpdatePassword', 'create', {
  current_password: password({ required: true, min: 1 }),
  new_password: password({ required: true }),
});
export const NewPassword = inputShape('NewPassword', 'create', {
  token: text({ required: true, max: 2048 }),
  new_password: password({ required: true }),
});

type UserFields = typeof userResource.fields;
export type UserPublic = PublicOf<UserFields>;
export type UserCreate = Omit<CreateOf<UserFields>, 'receives_alerts'> & { receives_alerts?: boolean };
export type UserUpdate = UpdateOf<UserFields>;
export type UserRegister = CreateOf<UserFields, 'email' | 'password' | 'full_name'>;
export type UserUpdateMe = UpdateOf<UserFields, 'full_name' | 'email' | 'receives_alerts'>;
export type UpdatePassword = { current_password: string; new_password: string };
export type NewPassword = { token: string; new_password: string };
