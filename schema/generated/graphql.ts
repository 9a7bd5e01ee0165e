/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> =
  | T
  | {
      [P in keyof T]?: P extends " $fragmentName" | "__typename" ? T[P] : never;
    };
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string };
  String: { input: string; output: string };
  Boolean: { input: boolean; output: boolean };
  Int: { input: number; output: number };
  Float: { input: number; output: number };
  /** The `SafeInt` scalar type represents non-fractional signed whole numeric values that are considered safe as defined by the ECMAScript specification. */
  SafeInt: { input: number; output: number };
};

export type CallbackAnswer = {
  __typename?: "CallbackAnswer";
  checkout_url: Scalars["String"]["output"];
  message: Scalars["String"]["output"];
};

export type Client = {
  __typename?: "Client";
  hiper_sync_update_dimensions: Scalars["Boolean"]["output"];
  hiper_sync_update_image: Scalars["Boolean"]["output"];
  hiper_token: Maybe<Scalars["String"]["output"]>;
  id: Scalars["ID"]["output"];
  nuvemshop_store_id: Scalars["SafeInt"]["output"];
  nuvemshop_token: Maybe<Scalars["String"]["output"]>;
  url: Scalars["String"]["output"];
};

export type Item = {
  __typename?: "Item";
  description: Maybe<Scalars["String"]["output"]>;
  id: Scalars["ID"]["output"];
  owner_id: Scalars["ID"]["output"];
  title: Scalars["String"]["output"];
};

/** List filter: `q` searches the main text field, `ids` picks records */
export type ListFilter = {
  ids?: InputMaybe<Array<Scalars["ID"]["input"]>>;
  q?: InputMaybe<Scalars["String"]["input"]>;
};

/** The count behind a list, for pagination */
export type ListMetadata = {
  __typename?: "ListMetadata";
  count: Scalars["Int"]["output"];
};

export type Message = {
  __typename?: "Message";
  message: Scalars["String"]["output"];
};

export type Mutation = {
  __typename?: "Mutation";
  /** Completes a Nuvemshop app authorization (public) */
  authorizeCallback: CallbackAnswer;
  createClient: Client;
  createItem: Item;
  createUser: User;
  /** Deletes a client and answers the deleted record */
  deleteClient: Client;
  /** Deletes an item and answers the deleted record */
  deleteItem: Item;
  deleteMe: Message;
  /** Deletes a user (superuser) and answers the deleted record */
  deleteUser: User;
  login: Token;
  recoverPassword: Message;
  resetPassword: Message;
  signup: User;
  updateClient: Client;
  updateItem: Item;
  updateMe: User;
  updatePassword: Message;
  updateUser: User;
};

export type MutationAuthorizeCallbackArgs = {
  code: Scalars["String"]["input"];
};

export type MutationCreateClientArgs = {
  hiper_sync_update_dimensions?: InputMaybe<Scalars["Boolean"]["input"]>;
  hiper_sync_update_image?: InputMaybe<Scalars["Boolean"]["input"]>;
  hiper_token?: InputMaybe<Scalars["String"]["input"]>;
  nuvemshop_store_id?: InputMaybe<Scalars["SafeInt"]["input"]>;
  nuvemshop_token?: InputMaybe<Scalars["String"]["input"]>;
  url: Scalars["String"]["input"];
};

export type MutationCreateItemArgs = {
  description?: InputMaybe<Scalars["String"]["input"]>;
  title: Scalars["String"]["input"];
};

export type MutationCreateUserArgs = {
  email: Scalars["String"]["input"];
  full_name?: InputMaybe<Scalars["String"]["input"]>;
  is_active?: InputMaybe<Scalars["Boolean"]["input"]>;
  is_superuser?: InputMaybe<Scalars["Boolean"]["input"]>;
  password: Scalars["String"]["input"];
};

export type MutationDeleteClientArgs = {
  id: Scalars["ID"]["input"];
};

export type MutationDeleteItemArgs = {
  id: Scalars["ID"]["input"];
};

export type MutationDeleteUserArgs = {
  id: Scalars["ID"]["input"];
};

export type MutationLoginArgs = {
  password: Scalars["String"]["input"];
  username: Scalars["String"]["input"];
};

export type MutationRecoverPasswordArgs = {
  email: Scalars["String"]["input"];
};

export type MutationResetPasswordArgs = {
  new_password: Scalars["String"]["input"];
  token: Scalars["String"]["input"];
};

export type MutationSignupArgs = {
  email: Scalars["String"]["input"];
  full_name?: InputMaybe<Scalars["String"]["input"]>;
  password: Scalars["String"]["input"];
};

export type MutationUpdateClientArgs = {
  hiper_sync_update_dimensions?: InputMaybe<Scalars["Boolean"]["input"]>;
  hiper_sync_update_image?: InputMaybe<Scalars["Boolean"]["input"]>;
  hiper_token?: InputMaybe<Scalars["String"]["input"]>;
  id: Scalars["ID"]["input"];
  nuvemshop_store_id?: InputMaybe<Scalars["SafeInt"]["input"]>;
  nuvemshop_token?: InputMaybe<Scalars["String"]["input"]>;
  url?: InputMaybe<Scalars["String"]["input"]>;
};

export type MutationUpdateItemArgs = {
  description?: InputMaybe<Scalars["String"]["input"]>;
  id: Scalars["ID"]["input"];
  title?: InputMaybe<Scalars["String"]["input"]>;
};

export type MutationUpdateMeArgs = {
  email?: InputMaybe<Scalars["String"]["input"]>;
  full_name?: InputMaybe<Scalars["String"]["input"]>;
};

export type MutationUpdatePasswordArgs = {
  current_password: Scalars["String"]["input"];
  new_password: Scalars["String"]["input"];
};

export type MutationUpdateUserArgs = {
  email?: InputMaybe<Scalars["String"]["input"]>;
  full_name?: InputMaybe<Scalars["String"]["input"]>;
  id: Scalars["ID"]["input"];
  is_active?: InputMaybe<Scalars["Boolean"]["input"]>;
  is_superuser?: InputMaybe<Scalars["Boolean"]["input"]>;
  password?: InputMaybe<Scalars["String"]["input"]>;
};

export type Query = {
  __typename?: "Query";
  Client: Client;
  Item: Item;
  User: User;
  _allClientsMeta: ListMetadata;
  _allItemsMeta: ListMetadata;
  _allUsersMeta: ListMetadata;
  allClients: Array<Client>;
  /** Items: all for a superuser, otherwise the caller’s own */
  allItems: Array<Item>;
  /** Users (superuser) */
  allUsers: Array<User>;
  /** The signed-in user */
  me: User;
};

export type QueryClientArgs = {
  id: Scalars["ID"]["input"];
};

export type QueryItemArgs = {
  id: Scalars["ID"]["input"];
};

export type QueryUserArgs = {
  id: Scalars["ID"]["input"];
};

export type Query_AllClientsMetaArgs = {
  filter?: InputMaybe<ListFilter>;
  page?: InputMaybe<Scalars["Int"]["input"]>;
  perPage?: InputMaybe<Scalars["Int"]["input"]>;
  sortField?: InputMaybe<Scalars["String"]["input"]>;
  sortOrder?: InputMaybe<Scalars["String"]["input"]>;
};

export type Query_AllItemsMetaArgs = {
  filter?: InputMaybe<ListFilter>;
  page?: InputMaybe<Scalars["Int"]["input"]>;
  perPage?: InputMaybe<Scalars["Int"]["input"]>;
  sortField?: InputMaybe<Scalars["String"]["input"]>;
  sortOrder?: InputMaybe<Scalars["String"]["input"]>;
};

export type Query_AllUsersMetaArgs = {
  filter?: InputMaybe<ListFilter>;
  page?: InputMaybe<Scalars["Int"]["input"]>;
  perPage?: InputMaybe<Scalars["Int"]["input"]>;
  sortField?: InputMaybe<Scalars["String"]["input"]>;
  sortOrder?: InputMaybe<Scalars["String"]["input"]>;
};

export type QueryAllClientsArgs = {
  filter?: InputMaybe<ListFilter>;
  page?: InputMaybe<Scalars["Int"]["input"]>;
  perPage?: InputMaybe<Scalars["Int"]["input"]>;
  sortField?: InputMaybe<Scalars["String"]["input"]>;
  sortOrder?: InputMaybe<Scalars["String"]["input"]>;
};

export type QueryAllItemsArgs = {
  filter?: InputMaybe<ListFilter>;
  page?: InputMaybe<Scalars["Int"]["input"]>;
  perPage?: InputMaybe<Scalars["Int"]["input"]>;
  sortField?: InputMaybe<Scalars["String"]["input"]>;
  sortOrder?: InputMaybe<Scalars["String"]["input"]>;
};

export type QueryAllUsersArgs = {
  filter?: InputMaybe<ListFilter>;
  page?: InputMaybe<Scalars["Int"]["input"]>;
  perPage?: InputMaybe<Scalars["Int"]["input"]>;
  sortField?: InputMaybe<Scalars["String"]["input"]>;
  sortOrder?: InputMaybe<Scalars["String"]["input"]>;
};

export type Token = {
  __typename?: "Token";
  access_token: Scalars["String"]["output"];
  token_type: Scalars["String"]["output"];
};

export type User = {
  __typename?: "User";
  email: Scalars["String"]["output"];
  full_name: Maybe<Scalars["String"]["output"]>;
  id: Scalars["ID"]["output"];
  is_active: Scalars["Boolean"]["output"];
  is_superuser: Scalars["Boolean"]["output"];
};
