import { Entity, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * The last alert about one reason of one client (`kind` the run's kind for a run's reason, else empty): when it went,
 * and when the client came back below the alert level (null while it has not). At most one alert per client and
 * reason per ALERT_REPEAT_HOURS is read from it.
 */
@Entity({ tableName: 'health_alerts' })
export class HealthAlert {
  @ManyToOne({ entity: () => 'Client', primary: true, deleteRule: 'cascade', updateRule: 'cascade' })
  client!: { id: string };

  @PrimaryKey({ type: 'string', length: 32 })
  code!: string;

  @PrimaryKey({ type: 'string', length: 16 })
  kind: string = '';

  @Property({ type: 'datetime' })
  alertedAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  recoveredAt?: Date | null;
}
