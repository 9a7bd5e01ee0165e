import { auditEventResource } from '../../audit/audit-event.resource';
import { AuditListQuery, type AuditLog } from '../../audit/audit-log';
import { messages } from '../../messages';
import { IdParams, listOf } from '../../validation';
import { route } from '../route';

/**
 * The audit log (superusers; anyone else 403): `GET /audit-events/` a page `{data, count}` newest first, narrowed by
 * `user_id`, `resource`, `record_id`, `since` and `until` (a bad one a 422 naming it), and one event by its id.
 */
export function auditRoutes(audit: AuditLog) {
  const tag = auditEventResource.path;
  return [
    route({
      method: 'get',
      path: '/audit-events/',
      tag,
      summary: 'Read audit events (superuser)',
      auth: true,
      query: AuditListQuery,
      response: listOf(auditEventResource.public, 'AuditEventsPublic'),
      errors: { 403: messages.notEnoughPrivileges },
      handler: ({ user, query: { skip, limit, ...filters } }) =>
        audit.list(user, { skip, limit }, audit.checked(filters)),
    }),
    route({
      method: 'get',
      path: '/audit-events/:id',
      tag,
      summary: 'Read an audit event by id (superuser)',
      auth: true,
      params: IdParams,
      response: auditEventResource.public,
      errors: { 403: messages.notEnoughPrivileges, 404: 'Audit event not found' },
      handler: ({ user, params }) => audit.get(user, params.id),
    }),
  ];
}
