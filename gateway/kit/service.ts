import { UniqueConstraintViolationException, type EntitySchema } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ApiError, ValidationFailed, type ValidationIssue } from '../errors';
import { findPage, type ListOptions, type ListScope, type Total } from '../database/pagination';
import type { PlainRows } from '../database/plain-rows';
import type { SearchLimits } from '../database/search-limits';
import type { Operation, Reading, Resource } from './resource';
import { isWritable, propertyOf } from './field';
import { messages } from '../messages';
import type { JobPayloads, QueueName } from '../queue/payloads';
import type { JobQueue } from '../queue/queue';
import { requireSuperuser, type Actor } from '../auth/caller';
import { recordId } from '../validation';
import type { EntityRow } from './entity';
import { changesOf, recordAudit, type AuditAction } from './audit';

type Em = ReturnType<MikroORM['em']['fork']>;
type Row = Record<string, unknown>;

/** `SyncRun` → `Sync run`: how a refusal names the record a reference was to name. */
const nounOf = (type: string) => {
  const words = type.replace(/(?<!^)([A-Z])/g, ' $1').toLowerCase();
  return words[0].toUpperCase() + words.slice(1);
};

/** What a generic adapter (REST routes, GraphQL operations) asks of a resource's service. */
export interface ResourceOperations {
  /** A page; `reading` says which fields its rows are read and answered with (every answered field unless told). */
  list(caller: Actor, options: ListOptions, reading?: Reading): Promise<{ data: Row[]; count: number }>;
  get(caller: Actor, id: string, reading?: Reading): Promise<Row>;
  create(caller: Actor, input: object): Promise<Row>;
  update(caller: Actor, id: string, input: object): Promise<Row>;
  delete(caller: Actor, id: string): Promise<Row>;
  /** An archived record back in lists (superusers; a resource that archives). */
  restore?(caller: Actor, id: string): Promise<Row>;
  /** An archived record and its history deleted for good (superusers; a resource that archives). */
  purge?(caller: Actor, id: string): Promise<Row>;
}

/**
 * The service behind every declared resource, from its declaration: who may read and write (`read`, `write`), the
 * owner's scope (anyone but a superuser sees and changes only their own records, and creates them as theirs), the
 * list's search, filters, order and total, secrets masked for anyone but a superuser (a masked value sent back
 * keeps the stored one), and a clash on a unique field answered 409. Writes go through the ORM's unit of work;
 * reads through plain rows.
 */
export class ResourceService implements ResourceOperations {
  private readonly owner?: string;
  private readonly scope: ListScope;
  /** The entity property a delete sets instead of removing the row, for a resource that archives. */
  private readonly archived?: string;

  constructor(
    private readonly resource: Resource,
    private readonly entity: EntitySchema<EntityRow>,
    private readonly orm: MikroORM,
    private readonly rows: PlainRows,
    private readonly searches: SearchLimits,
    /** Where the work a write queues goes (the declaration's `queues`); none without it. */
    private readonly jobs?: JobQueue,
  ) {
    const owner = resource.options.owner;
    this.owner = owner ? propertyOf(owner, resource.fields[owner]) : undefined;
    this.scope = {
      search: resource.searched,
      filters: resource.filters,
      order: resource.options.order?.map(([name, direction]) => [propertyOf(name, resource.fields[name]), direction]),
    };
    const archive = resource.options.archive?.field;
    this.archived = archive ? propertyOf(archive, resource.fields[archive]) : undefined;
    this.references = Object.entries(resource.fields).flatMap(([name, field]) =>
      field.kind === 'reference' && isWritable(field)
        ? [{ name, to: field.to!, missing: `${nounOf(field.to!)} not found` }]
        : [],
    );
  }

  private readonly references: { name: string; to: string; missing: string }[];

  /**
   * Each reference the body sets names an existing record, or the body is refused as pydantic refuses a value (422,
   * `loc` the field) rather than failing on the foreign key.
   */
  private async checkReferences(em: Em, input: object): Promise<void> {
    const issues: ValidationIssue[] = [];
    for (const { name, to, missing } of this.references) {
      const value = (input as Row)[name];
      if (typeof value !== 'string') continue;
      if (!(await em.count<EntityRow>(to, { id: value })))
        issues.push({ type: 'value_error', loc: ['body', name], msg: missing, input: value });
    }
    if (issues.length) throw new ValidationFailed(issues);
  }

  private allow(caller: Actor, operation: Operation): void {
    if (!this.resource.offers(operation)) throw new ApiError(405, messages.methodNotAllowed);
    const audience = operation === 'list' || operation === 'get' ? this.resource.read : this.resource.write;
    if (audience === 'superuser') requireSuperuser(caller);
  }

  private answer(row: object, caller: Actor, reading = this.resource.full): Row {
    return reading.toPublic(row, caller.isSuperuser);
  }

  private ownScope(caller: Actor): boolean {
    return !!this.owner && !caller.isSuperuser;
  }

  async list(
    caller: Actor,
    options: ListOptions,
    reading = this.resource.full,
  ): Promise<{ data: Row[]; count: number }> {
    this.allow(caller, 'list');
    const own = this.ownScope(caller);
    // Archived records are left out, except from a lookup by ids: the history naming one shows its name.
    const absent = this.archived && options.ids === undefined ? [this.archived] : [];
    const scope: ListScope = { ...this.scope, equal: own ? { [this.owner!]: caller.id } : {}, absent };
    const { source, ownerTotals } = this.resource.options;
    const total: Total = source
      ? { count: true }
      : own
        ? ownerTotals
          ? { ownerTotals, owner: caller.id }
          : { count: true }
        : { table: this.resource.table };
    const { rows, count } = await this.searches.around(caller.id, options, () =>
      findPage(this.rows, this.entity, reading.props, scope, options, this.resource.sortable, total),
    );
    return { data: rows.map((row) => this.answer(row as object, caller, reading)), count };
  }

  async get(caller: Actor, id: string, reading = this.resource.full): Promise<Row> {
    this.allow(caller, 'get');
    const found = (await this.rows.findOne(this.entity, reading.props, recordId(id))) as Row | undefined;
    // An archived record is deleted as far as its resource's doors go: superusers read it among the archived.
    if (found && this.archived && found[this.archived]) throw new ApiError(404, this.resource.messages.notFound);
    return this.answer(this.readable(caller, found), caller, reading);
  }

  async create(caller: Actor, input: object): Promise<Row> {
    this.allow(caller, 'create');
    const em = this.orm.em.fork();
    await this.checkReferences(em, input);
    const values = this.resource.toEntity(input, 'create');
    if (this.owner) values[this.owner] = caller.id;
    const created = em.create(this.entity, values);
    this.resource.options.settle?.(created, null);
    await this.write(em, created, null, caller, 'create');
    return this.answer(created, caller);
  }

  /** Only the fields sent change, so two editors of different fields do not undo each other. */
  async update(caller: Actor, id: string, input: object): Promise<Row> {
    this.allow(caller, 'update');
    const em = this.orm.em.fork();
    const found = await this.find(em, caller, id);
    if (this.archived && found[this.archived]) throw new ApiError(404, this.resource.messages.notFound);
    await this.checkReferences(em, input);
    const before: EntityRow = { ...found };
    em.assign(found, this.resource.toEntity(input, 'update'));
    this.resource.options.settle?.(found, before);
    await this.write(em, found, before, caller, 'update');
    return this.answer(found, caller);
  }

  /** Removes the record, or archives it when its resource archives (one already archived is gone: 404). */
  async delete(caller: Actor, id: string): Promise<Row> {
    this.allow(caller, 'delete');
    const em = this.orm.em.fork();
    const found = await this.find(em, caller, id);
    if (this.archived) {
      if (found[this.archived]) throw new ApiError(404, this.resource.messages.notFound);
      const before: EntityRow = { ...found };
      found[this.archived] = new Date();
      await this.write(em, found, before, caller, 'delete');
      return this.answer(found, caller);
    }
    const deleted = this.answer(found, caller);
    const entry = this.audited('delete', found, null);
    await em.begin();
    try {
      await em.remove(found).flush();
      await recordAudit(em, caller, entry);
      await em.commit();
    } catch (error) {
      await em.rollback();
      throw error;
    }
    return deleted;
  }

  async restore(caller: Actor, id: string): Promise<Row> {
    const em = this.orm.em.fork();
    const found = await this.findArchived(em, caller, id);
    const before: EntityRow = { ...found };
    found[this.archived!] = null;
    // A live record took its unique values meanwhile (a new client of the same store): a 409 naming them.
    await this.write(em, found, before, caller, 'restore');
    return this.answer(found, caller);
  }

  /** Deletes the archived record and every row of its history, in one transaction. */
  async purge(caller: Actor, id: string): Promise<Row> {
    const em = this.orm.em.fork();
    const found = await this.findArchived(em, caller, id);
    const purged = this.answer(found, caller);
    await em.transactional(async (tx) => {
      for (const { table, column } of this.resource.options.archive!.history)
        await tx.execute(`delete from "${table}" where "${column}" = ?`, [found.id]);
      await tx.execute(`delete from "${this.resource.table}" where id = ?`, [found.id]);
      await recordAudit(tx, caller, this.audited('purge', found, null));
    });
    return purged;
  }

  /** An archived record, for a superuser: 404 when there is none, 409 when it is not archived. */
  private async findArchived(em: Em, caller: Actor, id: string): Promise<EntityRow> {
    if (!this.archived) throw new ApiError(405, messages.methodNotAllowed);
    requireSuperuser(caller);
    const found = await this.find(em, caller, id);
    if (!found[this.archived]) throw new ApiError(409, this.resource.messages.notArchived);
    return found;
  }

  private async find(em: Em, caller: Actor, id: string): Promise<EntityRow> {
    return this.readable(caller, await em.findOne(this.entity, { id: recordId(id) }));
  }

  /** The record, if it exists and the caller may see it: anyone's for a superuser, else their own when owned. */
  private readable<T extends Row>(caller: Actor, found: T | null | undefined): T {
    if (!found) throw new ApiError(404, this.resource.messages.notFound);
    if (this.ownScope(caller) && (found[this.owner!] as { id: string } | undefined)?.id !== caller.id)
      throw new ApiError(403, messages.notEnoughPermissions);
    return found;
  }

  /**
   * The audit log's entry of a write: the fields it changed, from the record before (null on create) and after (null
   * on delete), secrets as `alterado`.
   */
  private audited(action: AuditAction, before: EntityRow | null, after: EntityRow | null) {
    const { fields } = this.resource;
    const answered = (r: EntityRow | null) => (r ? this.resource.full.toPublic(r, true) : null);
    const changes = changesOf(fields, answered(before), answered(after), {
      before,
      after,
      secret: (name) => propertyOf(name, fields[name]),
    });
    return { action, resource: this.resource.name, recordId: String((after ?? before)!.id), changes };
  }

  /**
   * Writes the record, with the work its declaration queues for this change and the person's audit row in the same
   * transaction (both asked once the record is written: a new one has its id then).
   */
  private async write(
    em: Em,
    row: EntityRow,
    before: EntityRow | null,
    caller: Actor,
    action: AuditAction,
  ): Promise<void> {
    const queues = this.jobs ? this.resource.options.queues : undefined;
    await em.begin();
    try {
      await this.flush(em);
      for (const { queue, data, singletonKey } of queues?.(row, before) ?? [])
        await this.jobs!.send(queue as QueueName, data as JobPayloads[QueueName], { em, singletonKey });
      await recordAudit(
        em,
        caller,
        action === 'delete' ? this.audited(action, before, null) : this.audited(action, before, row),
      );
      await em.commit();
    } catch (error) {
      await em.rollback();
      throw error;
    }
  }

  /** The 409 naming the unique field whose index refused the write (its index is `<table>_<field>_unique`). */
  private takenMessage(error: UniqueConstraintViolationException): string {
    const constraint = (error as { constraint?: string }).constraint;
    const field = this.resource.unique.find((n) => constraint === `${this.resource.table}_${n}_unique`);
    return field ? this.resource.messages.takenBy[field] : this.resource.messages.taken;
  }

  private async flush(em: Em): Promise<void> {
    try {
      await em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new ApiError(409, this.takenMessage(error));
      throw error;
    }
  }
}
