import { boolean, email, id, password, text, type CreateOf, type PublicOf, type UpdateOf } from '../kit/field';
import { inputShape, Resource } from '../kit/resource';

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

/** POST /users/signup: an ordinary account, active or not as registration says. */
export const UserRegister = userResource.createInput('UserRegister', ['email', 'password', 'full_name']);
/** PATCH /users/me. */
export const UserUpdateMe = userResource.updateInput('UserUpdateMe', ['full_name', 'email']);
/** The own profile as the admin edits it (GraphQL `updateMe`): a full name of at most 30 characters. */
export const OwnProfile = userResource.updateInput('OwnProfile', ['full_name', 'email'], { full_name: { max: 30 } });

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
export type UserCreate = CreateOf<UserFields>;
export type UserUpdate = UpdateOf<UserFields>;
export type UserRegister = CreateOf<UserFields, 'email' | 'password' | 'full_name'>;
export type UserUpdateMe = UpdateOf<UserFields, 'full_name' | 'email'>;
export type UpdatePassword = { current_password: string; new_password: string };
export type NewPassword = { token: string; new_password: string };
