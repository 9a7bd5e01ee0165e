import type { InTransaction } from '../kit/audit';
import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { RateLimits } from '../auth/rate-limits';
import { ApiError } from '../errors';
import type { JobQueue } from '../queue/queue';
import { PlainRows } from '../database/plain-rows';
import {
  clientResource,
  CONNECTION_FIELDS,
  missingConnection,
  notConnectedMessage,
  STORE_CONNECTION_PROPS,
  type StoreConnectionFields,
  isConnected,
  STOPPED_STATES,
} from '../clients/client.resource';
import { entityFor } from '../kit/entity';
import { syncRunResource, type SyncKind, type SyncRunPublic, type SyncTrigger } from './sync-run.resource';
import { recordId } from '../validation';

/** Starting runs: one client's on request, every connected client's on a schedule. */
export class SyncService {
  /** Plain reads of clients, their columns named by the client's declaration. */
  private readonly rows: PlainRows;

  constructor(
    private readonly orm: MikroORM,
    private readonly jobs: JobQueue,
    private readonly limits: RateLimits,
  ) {
    this.rows = new PlainRows(orm);
  }

  /** A user starts a run: within their RATE_LIMIT_SYNC budget, or 429, before anything is looked up. */
  /** A person's "Sincronizar agora"; `within` runs in the transaction that queues the run (its audit row). */
  async start(
    user: { id: string },
    clientId: string,
    kind: SyncKind = 'catalogue',
    within?: InTransaction,
  ): Promise<SyncRunPublic> {
    await this.limits.consume('sync', user.id);
    return this.requestRun(clientId, kind, 'manual', within);
  }

  /**
   * Queues a run of the client, or answers the one already queued or running. The client's row is locked meanwhile,
   * so two requests at once (a click and a schedule) never queue two runs of one client.
   */
  async requestRun(
    clientId: string,
    kind: SyncKind = 'catalogue',
    trigger: SyncTrigger = 'manual',
    within?: InTransaction,
  ): Promise<SyncRunPublic> {
    const id = recordId(clientId);
    const answer = (await this.queueRuns([id], kind, trigger, within)).get(id);
    if (!answer) throw new ApiError(404, clientResource.messages.notFound);
    if ('missing' in answer) {
      throw new ApiError(409, notConnectedMessage(answer.missing));
    }
    const run = await this.orm.em.fork().findOneOrFail(entityFor(syncRunResource), { id: answer.runId });
    return syncRunResource.toPublic(run);
  }

  /** Queues a run of this kind for every connected client (those with one queued or running keep theirs). */
  async queueConnected(kind: SyncKind): Promise<number> {
    // Those that may be connected (each credential present), oldest first; each is checked again, locked, as its run
    // is queued.
    const clients = await this.orm.em.getConnection().execute<{ id: string }[]>(
      `select id from clients
        where ${CONNECTION_FIELDS.map((field) => `${field} is not null`).join(' and ')}
          and sync_state not in (${STOPPED_STATES.map(() => '?').join(', ')})
        order by created_at, id`,
      [...STOPPED_STATES],
    );
    let queued = 0;
    for (let i = 0; i < clients.length; i += QUEUED_AT_ONCE) {
      const answers = await this.queueRuns(
        clients.slice(i, i + QUEUED_AT_ONCE).map((c) => c.id),
        kind,
        'schedule',
      );
      for (const answer of answers.values()) if ('runId' in answer) queued++;
    }
    return queued;
  }

  /**
   * The one way runs are queued: for each client, in one transaction, its row locked, the run it has queued or
   * running, else a new run, the client's state `queued` (unless running) and the run's job, sent with the commit.
   * Answers per client found the run it has now, or what it lacks to be synced.
   */
  private async queueRuns(
    ids: string[],
    kind: SyncKind,
    trigger: SyncTrigger,
    within?: InTransaction,
  ): Promise<Map<string, { runId: string } | { missing: ReturnType<typeof missingConnection> }>> {
    const list = JSON.stringify(ids);
    return this.orm.em.fork().transactional(async (em) => {
      const answers = new Map<string, { runId: string } | { missing: ReturnType<typeof missingConnection> }>();
      const { columns, toEntity } = this.rows.select(entityFor(clientResource), CONNECTION);
      const rows = (
        await em.execute<Record<string, unknown>[]>(
          `select ${columns} from clients
            where id in (select jsonb_array_elements_text(?::jsonb)::uuid) order by id for update`,
          [list],
        )
      ).map((row) => toEntity(row) as StoreConnectionFields & { id: string });
      const open = await em.execute<{ id: string; client_id: string }[]>(
        `select distinct on (client_id) id, client_id from sync_runs
          where client_id in (select jsonb_array_elements_text(?::jsonb)::uuid) and state in ('queued', 'running')
          order by client_id, created_at desc, id desc`,
        [list],
      );
      for (const run of open) answers.set(run.client_id, { runId: run.id });
      const fresh: { id: string; client_id: string }[] = [];
      for (const client of rows) {
        if (!isConnected(client)) answers.set(client.id, { missing: missingConnection(client) });
        else if (!answers.has(client.id)) fresh.push({ id: randomUUID(), client_id: client.id });
      }
      if (!fresh.length) {
        // A run already queued or running answers the request: asked for all the same.
        if (within && [...answers.values()].some((answer) => 'runId' in answer)) await within(em);
        return answers;
      }
      await em.execute(
        `insert into sync_runs (id, client_id, kind, trigger, state, queued_at, errors, created_at, updated_at)
         select v.id, v.client_id, ?, ?, 'queued', now(), '[]'::jsonb, now(), now()
           from jsonb_to_recordset(?::jsonb) as v(id uuid, client_id uuid)`,
        [kind, trigger, JSON.stringify(fresh)],
      );
      await em.execute(
        `update clients set sync_state = 'queued', updated_at = now()
          where id in (select (v->>'client_id')::uuid from jsonb_array_elements(?::jsonb) v)
            and sync_state not in ('queued', 'running')`,
        [JSON.stringify(fresh)],
      );
      await this.jobs.sendMany(
        'sync',
        fresh.map((run) => ({ runId: run.id })),
        // A reconciliation reads a whole store in one step: its job is not taken for dead while it reads.
        { em, ...(kind === 'reconcile' ? { expireInSeconds: RECONCILE_EXPIRY_SECONDS } : {}) },
      );
      for (const run of fresh) answers.set(run.client_id, { runId: run.id });
      await within?.(em);
      return answers;
    });
  }
}

/** How long a reconciliation's one step may take (a store of 100,000 products is about 500 reads at 2 a second). */
export const RECONCILE_EXPIRY_SECONDS = 3600;

/** Clients whose runs are queued in one transaction by the schedule. */
const QUEUED_AT_ONCE = 100;

/** A client's properties queuing a run reads: what it needs to be synced (its tokens decrypted as the ORM would). */
const CONNECTION = ['id', ...STORE_CONNECTION_PROPS] as const;
