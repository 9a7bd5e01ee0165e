import { datetime, id, json, state, text } from '../kit/field';
import { Resource } from '../kit/resource';
import type { PublicOf } from '../kit/field';
import { AUDIT_ACTIONS } from '../kit/audit';

/**
 * Every write a person makes through REST or GraphQL, recorded in the write's own transaction
 * (gateway/audit/audit-log.ts): who (their id and e-mail, kept after the account is deleted), from which address,
 * what was done to which record, and the fields it changed. Read by superusers only; pruned after
 * AUDIT_RETENTION_DAYS.
 */
export const auditEventResource = new Resource(
  'AuditEvent',
  {
    id: id(),
    created_at: datetime({ readOnly: true, listed: true, sortable: true, description: 'When it was done (UTC)' }),
    user_id: text({
      max: 36,
      readOnly: true,
      nullable: true,
      filterable: true,
      description: 'Who did it: their account’s id (kept after the account is deleted)',
    }),
    user_email: text({
      max: 255,
      readOnly: true,
      nullable: true,
      listed: true,
      description: 'Who did it: their e-mail',
    }),
    address: text({ max: 64, readOnly: true, nullable: true, listed: true, description: 'The address it came from' }),
    action: state(AUDIT_ACTIONS, {
      readOnly: true,
      listed: true,
      description: 'create, update, delete, or the action’s name',
      // What adds reads as a success, what removes as an error, what staff should notice as a warning.
      tones: {
        create: 'success',
        update: 'info',
        delete: 'error',
        restore: 'success',
        purge: 'error',
        sync: 'info',
        resend: 'info',
        mark_sent: 'warning',
        sweep: 'info',
        read_locations: 'info',
        priorities: 'info',
        default_location: 'info',
        password: 'warning',
        signup: 'success',
      },
    }),
    resource: text({
      max: 64,
      readOnly: true,
      listed: true,
      filterable: true,
      description: 'The resource, by its GraphQL name (Client, Order, User, …)',
    }),
    record_id: text({
      max: 64,
      readOnly: true,
      listed: true,
      filterable: true,
      description: 'The record’s id',
    }),
    changes: json({
      readOnly: true,
      description:
        'The fields it changed, each {before, after} (a create: after; a delete: before); secrets and passwords as "alterado"',
    }),
  },
  {
    table: 'audit_events',
    path: 'audit-events',
    screen: 'auditoria',
    noun: 'audit event',
    operations: ['list', 'get'],
    read: 'superuser',
    write: 'superuser',
    ownAdapters: true,
    title: 'record_id',
    menu: 45,
    icon: 'History',
    description: 'Every write a person made, newest first (superusers)',
  },
);

export type AuditEventPublic = PublicOf<typeof auditEventResource.fields>;
