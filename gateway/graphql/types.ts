import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';

/** Who may sign up on this server (USERS_OPEN_REGISTRATION). */
export enum Registration {
  open = 'open',
  approval = 'approval',
  closed = 'closed',
}
registerEnumType(Registration, {
  name: 'Registration',
  description:
    'Who may sign up: `open` (active at once), `approval` (inactive until a superuser activates it), `closed`',
});

// Every output type is plain data with no field middleware or field-level rule: `simpleResolvers` leaves its fields to
// GraphQL's own property reads (which graphql-jit inlines) instead of a type-graphql wrapper per field of every row.
@ObjectType({ description: 'The count behind a list, for pagination', simpleResolvers: true })
export class ListMetadata {
  @Field(() => Int)
  count!: number;
}

@ObjectType({ simpleResolvers: true })
export class Message {
  @Field()
  message!: string;
}

@InputType({ description: 'List filter: `q` searches the main text field, `ids` picks records' })
export class ListFilter {
  @Field(() => String, { nullable: true })
  q?: string;

  @Field(() => [ID], { nullable: true })
  ids?: string[];
}

/** A page of a list, as react-admin asks for it: `page` counts from 0. */
@ArgsType()
export class PageOfListArgs {
  @Field(() => Int, { nullable: true })
  page?: number;

  @Field(() => Int, { nullable: true })
  perPage?: number;
}

/** react-admin's list arguments: a page, its order and its filter. */
@ArgsType()
export class ListArgs extends PageOfListArgs {
  @Field(() => String, { nullable: true })
  sortField?: string;

  @Field(() => String, { nullable: true })
  sortOrder?: string;

  @Field(() => ListFilter, { nullable: true })
  filter?: ListFilter;
}

@ArgsType()
export class IdArgs {
  @Field(() => ID)
  id!: string;
}

@ObjectType({ simpleResolvers: true })
export class Token {
  @Field()
  access_token!: string;

  @Field()
  token_type!: string;
}

@ObjectType({ simpleResolvers: true })
export class CallbackAnswer {
  @Field()
  message!: string;

  @Field()
  checkout_url!: string;
}
