import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * The outcome of exchanging one Nuvemshop authorization code, keyed by the code's SHA-256.
 * A code posted again (browsers do post twice) gets this stored answer instead of a second exchange.
 */
@Entity({ tableName: 'authorization_codes' })
export class AuthorizationCode {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'string', length: 64 })
  codeHash!: string;

  @Property({ type: 'integer' })
  status!: number;

  /** The JSON body answered: the success message or the platform's refusal. Holds no token. */
  @Property({ type: 'json' })
  answer!: Record<string, unknown>;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
