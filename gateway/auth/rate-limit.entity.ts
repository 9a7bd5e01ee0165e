import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** The counters rate-limiter-flexible keeps, in the table layout it expects, so every gateway process shares them. */
@Entity({ tableName: 'rate_limits' })
export class RateLimitCounter {
  @PrimaryKey({ type: 'string', length: 255 })
  key!: string;

  @Property({ type: 'integer', default: 0 })
  points!: number;

  @Property({ type: 'bigint', nullable: true })
  expire?: string | null;
}
