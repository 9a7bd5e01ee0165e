import { z } from 'zod';
import { clientResource, NOT_CONNECTED } from '../../clients/client.resource';
import { syncRunResource } from '../../sync/sync-run.resource';
import type { SyncService } from '../../sync/sync.service';
import { SyncRequest } from '../../sync/sync.schemas';
import { messages } from '../../messages';
import { IdParams } from '../../validation';
import type { AuditLog } from '../../audit/audit-log';
import { route } from '../route';

/** Starting a client's synchronisation now: 202 with the run queued (or the one already queued or running). */
export function syncRoutes(sync: SyncService, audit: AuditLog) {
  return [
    route({
      method: 'post',
      path: '/clients/:id/sync',
      tag: 'clients',
      summary: 'Synchronise a client now',
      auth: true,
      params: IdParams,
      // No body at all is a catalogue run.
      body: z.preprocess((body) => body ?? {}, SyncRequest),
      response: syncRunResource.public,
      status: 202,
      errors: {
        404: clientResource.messages.notFound,
        409: `Missing … naming what the client lacks to be synced, or ${NOT_CONNECTED}`,
        429: messages.tooManySyncRuns,
      },
      handler: ({ params, body, user }) =>
        audit.action(
          user,
          { action: 'sync', resource: 'Client', recordId: params.id, changes: { kind: { after: body.kind } } },
          (within) => sync.start(user, params.id, body.kind, within),
        ),
    }),
  ];
}
