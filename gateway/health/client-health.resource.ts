import { datetime, id, int, json, reference, state, text } from '../kit/field';
import { Resource } from '../kit/resource';
import type { PublicOf } from '../kit/field';
import type { EntityOf } from '../kit/entity';
import type { HealthReasonCode } from '../../schema/staff-notes';

/** How a client is: `ok` ("Em dia"), `attention` ("Atenção": a person should look), `critical` ("Crítico": now). */
export const HEALTH_STATES = ['ok', 'attention', 'critical'] as const;
export type Health = (typeof HEALTH_STATES)[number];

/** Worse is higher: a list of clients, worst first. */
export const SEVERITY: Readonly<Record<Health, number>> = { ok: 0, attention: 1, critical: 2 };

/** One reason a client is not "Em dia": its stable code, its level, its text in Portuguese, and since when. */
export interface HealthReason {
  code: HealthReasonCode;
  health: Exclude<Health, 'ok'>;
  text: string;
  /** ISO 8601 UTC: when what it says began (its oldest order's wait, the moment a run became late), or was first seen. */
  since: string;
  /** For a reason about one kind of run: which (the screen's link filters the runs by it). */
  kind?: 'catalogue' | 'stock';
}

/**
 * Every client's health, worked out again on HEALTH_CRON by gateway/health/health-check.ts from what the product
 * already knows (its runs, its store's state, its orders): one row per live client, read by staff, worst first.
 */
export const clientHealthResource = new Resource(
  'ClientHealth',
  {
    id: id(),
    client_id: reference('client', 'Client', {
      readOnly: true,
      filterable: true,
      unique: true,
      onDelete: 'cascade',
    }),
    client_name: text({
      max: 255,
      readOnly: true,
      listed: true,
      sortable: true,
      description: 'The client’s name (its URL while it has none), as of the check: how screens and alerts name it',
    }),
    health: state(HEALTH_STATES, {
      readOnly: true,
      listed: true,
      filterable: true,
      tones: { ok: 'success', attention: 'warning', critical: 'error' },
      description: 'ok, attention or critical: the worst of its reasons',
    }),
    reasons: json({
      readOnly: true,
      listed: true,
      description:
        'Why it is not ok, worst first: [{code, health, text, since, kind?}] (text in Portuguese; since in UTC)',
    }),
    health_since: datetime({ readOnly: true, listed: true, description: 'Since when it has been in this health' }),
    checked_at: datetime({ readOnly: true, description: 'When it was last worked out' }),
    severity: int({ min: 0, max: 2, readOnly: true, hidden: true }),
  },
  {
    table: 'client_health',
    path: 'client-health',
    screen: 'saude',
    noun: 'client health',
    operations: ['list', 'get'],
    order: [
      ['severity', 'desc'],
      ['health_since', 'asc'],
    ],
    title: 'client_name',
    menu: 5,
    icon: 'MonitorHeart',
    description: 'Every client’s health, worst first, with its reasons',
  },
);

export type ClientHealthPublic = PublicOf<typeof clientHealthResource.fields>;
export type ClientHealthEntity = EntityOf<typeof clientHealthResource>;
