import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import {
  clientResource,
  STORE_CONNECTION_PROPS,
  storeConnectionOf,
  type SyncState,
  isConnected,
} from '../clients/client.resource';
import { MAX_RUN_ERRORS, type SyncKind, type SyncRunError, type SyncRunWaiting } from './sync-run.resource';
import { HiperClient, HiperCursorStuck, HiperKeyRefused, isGradeChild } from '../platforms/hiper.client';
import { hiperTokenStore, type KeptRow } from '../platforms/hiper-token-store';
import { PlainRows } from '../database/plain-rows';
import { entityFor } from '../kit/entity';
import { NuvemshopClient } from '../platforms/nuvemshop.client';
import { PermissionMissing, StoreSuspended, TokenRevoked } from '../platforms/nuvemshop.errors';
import { PageWriter, type RunCache, type SyncedClient } from './page-writer';
import { PlatformError } from '../platforms/platform-call';
import type { SyncPosition } from '../queue/payloads';
import { emptyTally, type Tally } from './run-tally';
import { LevelSweep } from './level-sweep';
import { LocationAccounts, markLocationsAfterRun, runLocations } from './location-accounts';
import { reconcile } from './reconciler';

/** What one job of a run does next: nothing (the run is over), or the continuation to queue. */
export type StepOutcome = { done: true } | { next: SyncPosition; delaySeconds?: number };

/**
 * A lease on a client, in one statement: its row is made on its first run, and taken unless another live holder has
 * it (a crashed holder's lease simply runs out).
 */
const LEASE = `insert into sync_clients (client_id, lease_owner, lease_until)`;
const LEASE_WHEN = `on conflict (client_id) do update set lease_owner = excluded.lease_owner, lease_until = excluded.lease_until
  where sync_clients.lease_owner is null or sync_clients.lease_owner = excluded.lease_owner
     or sync_clients.lease_until < now()`;

/** Runs whose store catalogue this process has read, kept for the run's later steps (at most this many). */
const CACHED_RUNS = 64;

/**
 * One bounded step of a run: reads one Hiper page from the run's position, writes what differs to the store, moves
 * the cursor only once the page is written, and says what comes next. Everything it learns (ids, what was written,
 * uploaded images) is saved as it goes, so a step cut short by a crash is repeated without writing anything twice.
 */
export class SyncRunner {
  private readonly caches = new Map<string, RunCache>();
  /** Plain reads of the run's client, made when first needed. */
  private rows?: PlainRows;

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

  /**
   * Takes the client of `runId` for `holder` (an attempt's id) unless another live attempt holds it, in one statement:
   * the run's client and whether it was taken, or null when the run is gone.
   */
  async take(runId: string, holder: string): Promise<{ clientId: string; taken: boolean } | null> {
    const [row] = await this.orm.em.getConnection().execute<{ client_id: string; taken: boolean }[]>(
      `with run as (select client_id from sync_runs where id = ?),
            taken as (${LEASE} select client_id, ?::uuid, now() + make_interval(secs => ?) from run ${LEASE_WHEN}
              returning client_id)
       select run.client_id, exists (select 1 from taken) as taken from run`,
      [runId, holder, this.leaseSeconds],
    );
    return row ? { clientId: row.client_id, taken: row.taken } : null;
  }

  /** Keeps the client for `holder` while its step lasts (it held it already, or its lease ran out). */
  async lease(clientId: string, holder: string): Promise<boolean> {
    const taken = await this.orm.em
      .getConnection()
      .execute<{ affectedRows: number }>(
        `${LEASE} values (?, ?::uuid, now() + make_interval(secs => ?)) ${LEASE_WHEN}`,
        [clientId, holder, this.leaseSeconds],
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
   * Runs one step of `runId` from `position`, for up to SYNC_STEP_SECONDS. A client with locations first has each
   * location's own Hiper account read into its figures; then Hiper's pages of the client's own account are read from
   * the position (the stored cursor when undefined; `skip` products of the first already written), what differs
   * written (each location's level beside the price), and the cursor moved past the pages written completely; last,
   * the levels the catalogue's pages did not carry (another location's change, a location to check whole). Price and
   * stock batches fill across pages, so only a step's last batch may be short.
   */
  async step(runId: string, position: SyncPosition): Promise<StepOutcome> {
    const em = this.orm.em.fork();
    const found = await this.runOf(runId);
    if (!found || !['queued', 'running'].includes(found.run.state)) return this.over(runId);
    const { run, client, cursors } = found;
    if (!isConnected(client)) {
      await this.finish(run.id, emptyTally(), 0, 'failed', [
        { hiper_id: '', sku: null, message: 'Client is not connected to both platforms', code: 'not_connected' },
      ]);
      return this.over(runId);
    }
    const first = run.state === 'queued';
    if (first) await this.markRunning(run.id);
    if (!cursors) throw new Error(`the client of run ${runId} has no synchronisation row`);
    const kind = run.kind;
    const connection = storeConnectionOf(client);
    let locations = await runLocations(em, client.id, connection.hiperKey);
    const located = locations.length > 0;
    let stage = position.stage ?? (located && position.from === undefined ? 'locations' : 'catalogue');
    const store = this.nuvemshop.store(connection.storeId, connection.storeToken!);
    const tally = emptyTally();
    const cache = this.cacheOf(runId);
    const deadline = Date.now() + this.config.SYNC_STEP_SECONDS * 1000;
    let writer: PageWriter | undefined;
    try {
      // A cheap authenticated read first: a wrong store token is found by every run, not only one with writes to make.
      if (first) await store.getStore();
      if (kind === 'reconcile') {
        // One step: the store's catalogue against Hiper's, what differs written back or kept as a divergence.
        const hiper = HiperClient.fromConfig(
          this.config,
          connection.hiperKey!,
          hiperTokenStore(this.orm, client.id, connection.hiperKey!, cursors),
        );
        const found = await reconcile(em, store, hiper, client, tally, cache, locations);
        // Products read with nothing to write; the run's `requests` are the reconciliation's cost.
        tally.unchanged += Math.max(0, found.read - tally.updated - tally.failed);
        await this.finish(run.id, tally, store.requests, undefined, []);
        return this.over(runId);
      }
      if (stage === 'locations') {
        const reader = new LocationAccounts(this.orm, this.config, em);
        const at = await reader.read(
          locations,
          position.location ? { location: position.location, from: position.from ?? 0 } : undefined,
          kind === 'full',
          deadline,
        );
        if (at) {
          await this.record(run.id, tally, store.requests);
          return { next: { stage: 'locations', ...at } };
        }
        // What the locations' reading found (a failure, an account started again) decides what is written.
        locations = await runLocations(em, client.id, connection.hiperKey);
        stage = 'catalogue';
        position = {};
      }
      if (stage === 'catalogue') {
        // A location newly fed by the client's account has its figures read again from the start.
        const refill = locations.some((l) => l.feed === 'client' && l.writable && l.sweep);
        const from =
          position.from ??
          (kind === 'full' || refill ? 0 : Number(kind === 'stock' ? cursors.stock_cursor : cursors.catalogue_cursor));
        const hiper = HiperClient.fromConfig(
          this.config,
          connection.hiperKey!,
          hiperTokenStore(this.orm, client.id, connection.hiperKey!, cursors),
        );
        writer = new PageWriter(em, store, client, kind, tally, cache, locations);
        const read = await this.readCatalogue(hiper, writer, kind, client.id, from, position.skip ?? 0, deadline);
        if (!read.over) {
          await this.record(run.id, tally, store.requests);
          return { next: { ...(located ? { stage: 'catalogue' as const } : {}), from: read.from, skip: read.skip } };
        }
        if (!located) {
          // The step's tallies go in with the run's end.
          await this.finish(run.id, tally, store.requests, undefined, []);
          return this.over(runId);
        }
        stage = 'rest';
        position = {};
      }
      const sweep = new LevelSweep(em, store, client, tally, cache, locations);
      const at = await sweep.run(position.part ? { part: position.part, after: position.after } : undefined, deadline);
      if (at) {
        await this.record(run.id, tally, store.requests);
        return { next: { stage: 'rest', ...at } };
      }
      await markLocationsAfterRun(em, locations, undefined);
      await this.finish(run.id, tally, store.requests, undefined, []);
      return this.over(runId);
    } catch (error) {
      // What was created before the failure is saved (a failing database leaves marks, looked up next time).
      await writer?.close().catch(() => undefined);
      if (
        error instanceof TokenRevoked ||
        error instanceof StoreSuspended ||
        error instanceof HiperKeyRefused ||
        error instanceof HiperCursorStuck ||
        error instanceof PermissionMissing
      ) {
        const state =
          error instanceof TokenRevoked ? 'token_revoked' : error instanceof StoreSuspended ? 'suspended' : 'failed';
        // The client's own account refused: the location it feeds says why.
        if (error instanceof HiperKeyRefused || error instanceof HiperCursorStuck)
          await markLocationsAfterRun(
            em,
            locations.filter((l) => l.feed === 'client'),
            error,
          );
        await this.finish(run.id, tally, store.requests, 'failed', [runErrorOf(error)], state);
        return this.over(runId);
      }
      await this.record(run.id, tally, store.requests);
      throw error;
    }
  }

  /**
   * Reads the client's own account's pages from `from` (`skip` products of the first already written) until the
   * deadline, writes what differs, and moves the cursor past the pages it wrote completely: whether Hiper had nothing
   * more (`over`), else where to go on from.
   */
  private async readCatalogue(
    hiper: HiperClient,
    writer: PageWriter,
    kind: SyncKind,
    clientId: string,
    from: number,
    skip: number,
    deadline: number,
  ): Promise<{ over: boolean; from: number; skip: number }> {
    /** The cursor after the last page read completely in this step: stored once its batches are sent. */
    let written: number | null = null;
    let over = false;
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
    // The levels written: their locations' figures need no writing again (those the store refused wait).
    await writer.planner.settled(writer.stock.refused);
    if (written !== null) {
      // Forward only: a full run never moves a cursor back.
      const column = kind === 'stock' ? 'stock_cursor' : 'catalogue_cursor';
      await this.orm.em
        .fork()
        .getConnection()
        .execute(`update sync_clients set ${column} = greatest(${column}, ?) where client_id = ?`, [written, clientId]);
    }
    return { over, from, skip };
  }

  /**
   * A run, its client, and the client's cursors and shared Hiper token, read in one statement (the tokens decrypted
   * as the ORM would): the token is asked for again only when it runs out.
   */
  private async runOf(runId: string): Promise<{
    run: { id: string; state: string; kind: SyncKind };
    client: SyncedClient;
    cursors: RunRow | null;
  } | null> {
    const rows = (this.rows ??= new PlainRows(this.orm));
    const clients = entityFor(clientResource);
    const { column } = rows.shape(clients);
    const { toEntity } = rows.select(clients, RUN_CLIENT);
    // The client's columns as its declaration names them; its id is read as client_id, beside the run's own.
    const clientColumns = RUN_CLIENT.filter((prop) => prop !== 'id')
      .map((prop) => `c.${column[prop]}`)
      .join(', ');
    const [row] = await this.orm.em.getConnection().execute<RunRow[]>(
      `select r.state, r.kind, c.id as client_id, ${clientColumns}, s.client_id as synced, s.stock_cursor,
              s.catalogue_cursor, s.hiper_bearer, s.hiper_bearer_renew_at
         from sync_runs r join clients c on c.id = r.client_id left join sync_clients s on s.client_id = c.id
        where r.id = ?`,
      [runId],
    );
    if (!row) return null;
    return {
      run: { id: runId, state: row.state, kind: row.kind },
      // Converted as a plain read converts them: the tokens decrypted as the ORM would.
      client: toEntity({ ...row, id: row.client_id }) as SyncedClient,
      cursors: row.synced ? row : null,
    };
  }

  private over(runId: string): StepOutcome {
    this.caches.delete(runId);
    return { done: true };
  }

  /** A queued run starts: the run and its client say `running`, in one statement. */
  private async markRunning(runId: string) {
    await this.orm.em.getConnection().execute(
      `with run as (update sync_runs set state = 'running', started_at = now(), updated_at = now()
                     where id = ? and state = 'queued' returning client_id)
       update clients set sync_state = 'running', updated_at = now() from run where clients.id = run.client_id`,
      [runId],
    );
  }

  /** Adds a step's tallies to the run, so a running run's counts grow as batches are written. */
  private async record(runId: string, tally: Tally, requests: number) {
    await this.orm.em.getConnection().execute(
      `update sync_runs set ${TALLIED}, errors = ${errorsAfter('?::jsonb', 'errors || ?::jsonb')},
          waiting = null, updated_at = now() where id = ?`,
      [...talliesOf(tally, requests), '[]', JSON.stringify(tally.errors), runId],
    );
    resetTally(tally);
  }

  /**
   * Ends a queued or running run, with the step's last tallies, in one statement: `failed` (with why, before the
   * errors it had), or `succeeded` / `partial` from its counts; the client takes the run's state (`idle` after a
   * success, or the state given), and `last_synced_at` is set. Only a catalogue run writes the store whole: until one
   * has ended (`catalogue_synced_at`), a stock run's success leaves the client `never_synced`.
   */
  async finish(
    runId: string,
    tally: Tally,
    requests: number,
    state: 'failed' | undefined,
    errors: SyncRunError[],
    clientState?: SyncState,
  ) {
    await this.orm.em.getConnection().execute(
      `with run as (
         update sync_runs set ${TALLIED},
             state = coalesce(?::text, case when failed + ? > 0 then 'partial' else 'succeeded' end),
             errors = ${errorsAfter('?::jsonb', 'errors || ?::jsonb')},
             finished_at = now(), waiting = null, updated_at = now()
          where id = ? and state in ('queued', 'running') returning client_id, state, kind)
       update clients set sync_state = coalesce(?::text, case
             when run.state <> 'succeeded' then run.state
             when run.kind not in ('stock', 'reconcile') or clients.catalogue_synced_at is not null then 'idle'
             else 'never_synced' end),
           catalogue_synced_at = case when run.kind not in ('stock', 'reconcile') and run.state in ('succeeded', 'partial') then now()
             else clients.catalogue_synced_at end,
           last_synced_at = now(), updated_at = now()
         from run where clients.id = run.client_id`,
      [
        ...talliesOf(tally, requests),
        state ?? null,
        tally.failed,
        JSON.stringify(errors),
        JSON.stringify(tally.errors),
        runId,
        clientState ?? null,
      ],
    );
    resetTally(tally);
  }

  /**
   * Ends a run that the job gave up on (a platform still unreachable after its last attempt, a step failing the same
   * way again), saying why: the error's own words, or the run's error given.
   */
  async abandon(runId: string, error: unknown, why: SyncRunError = runErrorOf(error)): Promise<void> {
    await this.finish(runId, emptyTally(), 0, 'failed', [why]);
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

/** A step's counts added to the run's (the statement's first five parameters). */
const TALLIED = `created = created + ?, updated = updated + ?, unchanged = unchanged + ?, failed = failed + ?,
  requests = requests + ?`;
const talliesOf = (tally: Tally, requests: number) => [
  tally.created,
  tally.updated,
  tally.unchanged,
  tally.failed,
  requests,
];
const resetTally = (tally: Tally) => {
  tally.created = tally.updated = tally.unchanged = tally.failed = 0;
  tally.errors = [];
};

/**
 * A run's errors: `first`, then `rest`, the first MAX_RUN_ERRORS of them (SQL of two jsonb arrays). A SKU missing at a
 * location is said once in a run, whichever step (or process) found it again.
 */
const errorsAfter = (first: string, rest: string) =>
  `(select coalesce(jsonb_agg(e order by i), '[]'::jsonb) from (select e, i from (
      select e, i, row_number() over (
          partition by case when e->>'code' = 'sku_missing_at_location' then e::text else i::text end order by i) as n
        from jsonb_array_elements(${first} || (${rest})) with ordinality as listed(e, i)) numbered
      where n = 1 order by i limit ${MAX_RUN_ERRORS}) kept)`;

/** The client's properties a run needs, read with the run. */
const RUN_CLIENT = ['id', 'ordersReleaseOn', ...STORE_CONNECTION_PROPS] as const;

/** A run's row with its client's and its client's synchronisation row's, as `runOf` reads them. */
interface RunRow extends KeptRow {
  state: string;
  kind: SyncKind;
  client_id: string;
  synced: string | null;
  stock_cursor: string;
  catalogue_cursor: string;
}

/** A run's own error (no product) for what ended it: a platform's code and message, or `internal`. */
export function runErrorOf(error: unknown): SyncRunError {
  if (error instanceof PlatformError) return { hiper_id: '', sku: null, message: error.message, code: error.code };
  return { hiper_id: '', sku: null, message: error instanceof Error ? error.message : String(error), code: 'internal' };
}
