import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import { clientResource, storeConnectionOf, type ClientEntity, type SyncState } from '../resources/client.resource';
import { entityFor } from '../resources/entity';
import {
  MAX_RUN_ERRORS,
  syncRunResource,
  type SyncRunEntity,
  type SyncRunError,
  type SyncRunWaiting,
} from '../resources/sync-run.resource';
import { HiperClient, HiperCursorStuck, HiperKeyRefused, isGradeChild } from './hiper.client';
import { hiperTokenStore } from './hiper-token-store';
import { NuvemshopClient, PermissionMissing, StoreSuspended, TokenRevoked } from './nuvemshop.client';
import { PageWriter, type RunCache } from './page-writer';
import { PlatformError } from './platform-call';
import { emptyTally, type Tally } from './run-tally';
import { SyncClient } from './sync.entities';

type Em = ReturnType<MikroORM['em']['fork']>;

/** The client states that stop every call to its store until staff or the store act. */
export const STOPPED_STATES = ['token_revoked', 'suspended', 'disconnected'];

/** A client is synced when it has both credentials and a store, and no state stops it. */
export const isConnected = (client: ClientEntity) => {
  const c = storeConnectionOf(client);
  return !!c.hiperKey && !!c.storeToken && c.storeId > 0 && !STOPPED_STATES.includes(c.state);
};

/** What one job of a run does next: nothing (the run is over), or the continuation to queue. */
export type StepOutcome = { done: true } | { next: { from: number; skip: number }; delaySeconds?: number };

/** Runs whose store catalogue this process has read, kept for the run's later steps (at most this many). */
const CACHED_RUNS = 64;

/**
 * One bounded step of a run: reads one Hiper page from the run's position, writes what differs to the store, moves
 * the cursor only once the page is written, and says what comes next. Everything it learns (ids, what was written,
 * uploaded images) is saved as it goes, so a step cut short by a crash is repeated without writing anything twice.
 */
export class SyncRunner {
  private readonly caches = new Map<string, RunCache>();

  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
    private readonly nuvemshop: NuvemshopClient = NuvemshopClient.fromConfig(config),
  ) {}

  /** A step's job expires after this (its process died), and is retried by another. */
  get stepExpirySeconds(): number {
    return this.config.SYNC_STEP_SECONDS * 3;
  }

  /** A lease outlives a step's expiry, so a crashed step's client is free again when pg-boss retries it. */
  get leaseSeconds(): number {
    return this.stepExpirySeconds + 10;
  }

  private cacheOf(runId: string): RunCache {
    let cache = this.caches.get(runId);
    if (!cache) {
      if (this.caches.size >= CACHED_RUNS) this.caches.delete(this.caches.keys().next().value!);
      this.caches.set(runId, (cache = {}));
    }
    return cache;
  }

  /** The client a run is of, or null when the run is gone. */
  async clientOf(runId: string): Promise<string | null> {
    const [row] = await this.orm.em
      .getConnection()
      .execute<{ client_id: string }[]>(`select client_id from sync_runs where id = ?`, [runId]);
    return row?.client_id ?? null;
  }

  /** Takes the client for `holder` (a job id) unless another live job holds it. */
  async lease(clientId: string, holder: string): Promise<boolean> {
    const connection = this.orm.em.getConnection();
    await connection.execute(`insert into sync_clients (client_id) values (?) on conflict do nothing`, [clientId]);
    const taken = await connection.execute<{ affectedRows: number }>(
      `update sync_clients set lease_owner = ?, lease_until = now() + make_interval(secs => ?)
        where client_id = ? and (lease_owner is null or lease_owner = ? or lease_until < now())`,
      [holder, this.leaseSeconds, clientId, holder],
      'run',
    );
    return taken.affectedRows === 1;
  }

  async release(clientId: string, holder: string): Promise<void> {
    await this.orm.em
      .getConnection()
      .execute(
        `update sync_clients set lease_owner = null, lease_until = null where client_id = ? and lease_owner = ?`,
        [clientId, holder],
      );
  }

  /**
   * Runs one step of `runId`: reads Hiper's pages from `from` (the stored cursor when undefined; `skip` products of
   * the first already written) for up to SYNC_STEP_SECONDS, writes what differs, and moves the cursor past the pages
   * it wrote completely. Price and stock batches fill across pages, so only a step's last batch may be short.
   */
  async step(runId: string, position: { from?: number; skip?: number }): Promise<StepOutcome> {
    const em = this.orm.em.fork();
    const found = await this.runOf(em, runId);
    if (!found || !['queued', 'running'].includes(found.run.state)) return this.over(runId);
    const { run, client } = found;
    if (!isConnected(client)) {
      await this.finish(em, { run, client }, 'failed', [
        { hiper_id: '', sku: null, message: 'Client is not connected to both platforms', code: 'not_connected' },
      ]);
      return this.over(runId);
    }
    if (run.state === 'queued') {
      run.state = 'running';
      run.startedAt = new Date();
      client.syncState = 'running';
      await em.flush();
    }
    const cursors = await em.findOneOrFail(SyncClient, { client: client.id });
    const kind = run.kind;
    let from =
      position.from ?? (kind === 'full' ? 0 : Number(kind === 'stock' ? cursors.stockCursor : cursors.catalogueCursor));
    let skip = position.skip ?? 0;
    const connection = storeConnectionOf(client);
    const hiper = HiperClient.fromConfig(
      this.config,
      connection.hiperKey!,
      hiperTokenStore(this.orm, client.id, connection.hiperKey!),
    );
    const store = this.nuvemshop.store(connection.storeId, connection.storeToken!);
    const tally = emptyTally();
    const writer = new PageWriter(em, store, client, kind, tally, this.cacheOf(runId));
    const deadline = Date.now() + this.config.SYNC_STEP_SECONDS * 1000;
    /** The cursor after the last page read completely in this step: stored once its batches are sent. */
    let written: number | null = null;
    let over = false;
    try {
      for (;;) {
        const page = await hiper.page(from);
        if (page.cursor === null) {
          over = true;
          break;
        }
        if (page.cursor <= from) throw new HiperCursorStuck(from, page.cursor);
        await writer.load(page.products);
        let index = skip;
        for (; index < page.products.length && Date.now() <= deadline; index++) {
          const product = page.products[index];
          if (isGradeChild(product)) continue;
          await writer.product(product);
          await writer.stock.flush(false);
        }
        if (index < page.products.length) {
          skip = index;
          break;
        }
        written = from = page.cursor;
        skip = 0;
        if (Date.now() > deadline) break;
      }
      await writer.stock.flush(true);
      await writer.close();
      await this.record(em, run, tally, store.requests);
      if (written !== null) {
        // Forward only: a full run never moves a cursor back.
        const column = kind === 'stock' ? 'stock_cursor' : 'catalogue_cursor';
        await em
          .getConnection()
          .execute(`update sync_clients set ${column} = greatest(${column}, ?) where client_id = ?`, [
            written,
            client.id,
          ]);
      }
      if (over) {
        await this.finish(em, { run, client }, undefined, []);
        return this.over(runId);
      }
      return { next: { from, skip } };
    } catch (error) {
      // What was created before the failure is saved (a failing database leaves marks, looked up next time).
      await writer.close().catch(() => undefined);
      await this.record(em, run, tally, store.requests);
      if (
        error instanceof TokenRevoked ||
        error instanceof StoreSuspended ||
        error instanceof HiperKeyRefused ||
        error instanceof HiperCursorStuck ||
        error instanceof PermissionMissing
      ) {
        const state =
          error instanceof TokenRevoked ? 'token_revoked' : error instanceof StoreSuspended ? 'suspended' : 'failed';
        await this.finish(em, { run, client }, 'failed', [runErrorOf(error)], state);
        return this.over(runId);
      }
      throw error;
    }
  }

  /** A run and its client, read together: the client is loaded with the run, and found in the unit of work. */
  private async runOf(em: Em, runId: string): Promise<{ run: SyncRunEntity; client: ClientEntity } | null> {
    const run = await em.findOne(entityFor(syncRunResource), { id: runId }, { populate: ['client'] });
    if (!run) return null;
    return { run, client: await em.findOneOrFail(entityFor(clientResource), { id: run.client.id }) };
  }

  private over(runId: string): StepOutcome {
    this.caches.delete(runId);
    return { done: true };
  }

  /** Adds a step's tallies to the run, so a running run's counts grow as batches are written. */
  private async record(em: Em, run: SyncRunEntity, tally: Tally, requests: number) {
    const errors = [...(run.errors as SyncRunError[]), ...tally.errors].slice(0, MAX_RUN_ERRORS);
    await em.getConnection().execute(
      `update sync_runs set created = created + ?, updated = updated + ?, unchanged = unchanged + ?, failed = failed + ?,
          requests = requests + ?, errors = ?::jsonb, waiting = null, updated_at = now() where id = ?`,
      [tally.created, tally.updated, tally.unchanged, tally.failed, requests, JSON.stringify(errors), run.id],
    );
    run.errors = errors;
    tally.created = tally.updated = tally.unchanged = tally.failed = 0;
    tally.errors = [];
  }

  /**
   * Ends a run: `failed` (with why), or `succeeded` / `partial` from its counts; the client takes the run's state
   * (`idle` after a success, or the state given), and `last_synced_at` is set.
   */
  async finish(
    em: Em,
    { run, client }: { run: SyncRunEntity; client: ClientEntity },
    state: 'failed' | undefined,
    errors: SyncRunError[],
    clientState?: SyncState,
  ) {
    await em.refresh(run);
    const final = state ?? (run.failed > 0 ? 'partial' : 'succeeded');
    run.state = final;
    run.finishedAt = new Date();
    run.errors = [...errors, ...(run.errors as SyncRunError[])].slice(0, MAX_RUN_ERRORS);
    run.waiting = null;
    await em.refresh(client);
    // "Em dia" only after a run that wrote everything; one that could not write some products says so.
    client.syncState = clientState ?? (final === 'succeeded' ? 'idle' : final);
    client.lastSyncedAt = new Date();
    await em.flush();
  }

  /** Ends a run that the job gave up on (Hiper or Nuvemshop still unreachable after its last attempt), saying why. */
  async abandon(runId: string, error: unknown): Promise<void> {
    const em = this.orm.em.fork();
    const found = await this.runOf(em, runId);
    if (found && ['queued', 'running'].includes(found.run.state))
      await this.finish(em, found, 'failed', [runErrorOf(error)]);
    this.caches.delete(runId);
  }

  /** Says on the run that a step waits to try again, why, and when (cleared by the step's next outcome). */
  async waitToRetry(runId: string, waiting: SyncRunWaiting): Promise<void> {
    await this.orm.em
      .getConnection()
      .execute(
        `update sync_runs set waiting = ?::jsonb, updated_at = now() where id = ? and state in ('queued', 'running')`,
        [JSON.stringify(waiting), runId],
      );
  }
}

/** A run's own error (no product) for what ended it: a platform's code and message, or `internal`. */
export function runErrorOf(error: unknown): SyncRunError {
  if (error instanceof PlatformError) return { hiper_id: '', sku: null, message: error.message, code: error.code };
  return { hiper_id: '', sku: null, message: error instanceof Error ? error.message : String(error), code: 'internal' };
}
