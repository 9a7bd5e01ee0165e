import { LockMode } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { RateLimits } from '../auth/rate-limits';
import { ApiError } from '../errors';
import type { JobQueue } from '../queue/queue';
import { clientResource, notConnectedMessage } from '../resources/client.resource';
import { entityFor } from '../resources/entity';
import { syncRunResource, type SyncKind, type SyncRunPublic, type SyncTrigger } from '../resources/sync-run.resource';
import { recordId } from '../validation';
import { isConnected } from './sync-runner';

/** Starting runs: one client's on request, every connected client's on a schedule. */
export class SyncService {
  constructor(
    private readonly orm: MikroORM,
    private readonly jobs: JobQueue,
    private readonly limits: RateLimits,
  ) {}

  /** A user starts a run: within their RATE_LIMIT_SYNC budget, or 429, before anything is looked up. */
  async start(user: { id: string }, clientId: string, kind: SyncKind = 'catalogue'): Promise<SyncRunPublic> {
    await this.limits.consume('sync', user.id);
    return this.requestRun(clientId, kind, 'manual');
  }

  /**
   * Queues a run of the client, or answers the one already queued or running. The client's row is locked meanwhile,
   * so two requests at once (a click and a schedule) never queue two runs of one client.
   */
  async requestRun(
    clientId: string,
    kind: SyncKind = 'catalogue',
    trigger: SyncTrigger = 'manual',
  ): Promise<SyncRunPublic> {
    const id = recordId(clientId);
    return this.orm.em.fork().transactional(async (em) => {
      const client = await em.findOne(entityFor(clientResource), { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!client) throw new ApiError(404, clientResource.messages.notFound);
      if (!isConnected(client)) throw new ApiError(409, notConnectedMessage(client));
      const current = await em.findOne(
        entityFor(syncRunResource),
        { client: id, state: { $in: ['queued', 'running'] } },
        { orderBy: { createdAt: 'desc' } },
      );
      if (current) return syncRunResource.toPublic(current);
      const run = em.create(entityFor(syncRunResource), {
        client,
        kind,
        trigger,
        state: 'queued',
        queuedAt: new Date(),
        errors: [],
      });
      if (client.syncState !== 'running') client.syncState = 'queued';
      await em.flush();
      await this.jobs.send('sync', { runId: run.id }, { em });
      return syncRunResource.toPublic(run);
    });
  }

  /** Queues a run of this kind for every connected client (those with one queued or running keep theirs). */
  async queueConnected(kind: SyncKind): Promise<number> {
    const clients = await this.orm.em.fork().find(entityFor(clientResource), {}, { orderBy: { createdAt: 'asc' } });
    let queued = 0;
    for (const { id } of clients.filter(isConnected)) {
      try {
        await this.requestRun(id, kind, 'schedule');
        queued++;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
      }
    }
    return queued;
  }
}
