import { z } from 'zod';
import type { MikroORM } from '@mikro-orm/postgresql';
import { requireSuperuser, type Actor } from '../auth/caller';
import { ApiError, ValidationFailed } from '../errors';
import { ListQuery, noNul, NUL_MESSAGE, recordId, validate } from '../validation';
import { recordAudit, type AuditAction, type AuditActor, type AuditEntry, type InTransaction } from '../kit/audit';
import type { AuditEventPublic } from './audit-event.resource';

type Row = Record<string, unknown>;

/** A day or an instant, in ISO 8601 (a day is its midnight UTC). */
const Moment = z
  .string()
  .max(64)
  .refine((v) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), {
    message: 'Input should be a valid date or datetime (ISO 8601)',
  })
  .transform((v) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v));

/** The audit list's filters, as REST's query and GraphQL's filter give them. */
export const AuditFilters = z.object({
  user_id: z.guid().optional(),
  resource: z.string().max(64).refine(noNul, NUL_MESSAGE).optional(),
  record_id: z.string().max(64).refine(noNul, NUL_MESSAGE).optional(),
  since: Moment.optional(),
  until: Moment.optional(),
});
export type AuditFilters = z.output<typeof AuditFilters>;

/** GET /audit-events/: the page and the filters. */
export const AuditListQuery = ListQuery.extend(AuditFilters.shape).meta({ id: 'AuditEventListQuery' });

const COLUMNS = `id, created_at, user_id, user_email, address, action, resource, record_id, changes`;

const toPublic = (row: Row): AuditEventPublic => ({
  id: String(row.id),
  created_at: new Date(row.created_at as string).toISOString(),
  user_id: (row.user_id as string | null) ?? null,
  user_email: (row.user_email as string | null) ?? null,
  address: (row.address as string | null) ?? null,
  action: row.action as AuditAction,
  resource: String(row.resource),
  record_id: String(row.record_id),
  changes: typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes,
});

/**
 * The audit log as superusers read it: newest first, narrowed by who, which resource, which record and when (each
 * filter checked: a user that is no UUID, a resource the product does not have, a moment that is no date, a range
 * that ends before it starts are 422s naming them).
 */
export class AuditLog {
  constructor(
    private readonly orm: MikroORM,
    /** The resources' GraphQL names a filter may name. */
    private readonly resources: () => readonly string[],
  ) {}

  /** Checks the filters given: a 422 naming each bad one. */
  filters(given: unknown): AuditFilters {
    return this.checked(validate(AuditFilters, given, 'query'));
  }

  /** Filters read by their rules, checked against each other and the product's resources. */
  checked(filters: AuditFilters): AuditFilters {
    const issues = [];
    const at = (name: string) => ['query', name];
    if (filters.resource !== undefined && !this.resources().includes(filters.resource))
      issues.push({
        type: 'enum',
        loc: at('resource'),
        msg: `Input should be one of: ${this.resources().join(', ')}`,
        input: filters.resource,
      });
    if (filters.since && filters.until && filters.since > filters.until)
      issues.push({ type: 'value_error', loc: at('since'), msg: 'since should not be after until', input: undefined });
    if (issues.length) throw new ValidationFailed(issues);
    return filters;
  }

  async list(
    caller: Actor,
    { skip, limit }: { skip: number; limit: number },
    filters: AuditFilters,
  ): Promise<{ data: AuditEventPublic[]; count: number }> {
    requireSuperuser(caller);
    const conditions: string[] = [];
    const values: unknown[] = [];
    const where = (sql: string, value: unknown) => {
      conditions.push(sql);
      values.push(value);
    };
    if (filters.user_id) where('user_id = ?', filters.user_id);
    if (filters.resource) where('resource = ?', filters.resource);
    if (filters.record_id) where('record_id = ?', filters.record_id);
    if (filters.since) where('created_at >= ?', filters.since);
    if (filters.until) where('created_at <= ?', filters.until);
    const condition = conditions.length ? `where ${conditions.join(' and ')}` : '';
    const connection = this.orm.em.getConnection();
    const [rows, [{ count }]] = await Promise.all([
      connection.execute<Row[]>(
        `select ${COLUMNS} from audit_events ${condition} order by created_at desc, id desc limit ? offset ?`,
        [...values, limit, skip],
      ),
      connection.execute<{ count: string }[]>(`select count(*)::int as count from audit_events ${condition}`, values),
    ]);
    return { data: rows.map(toPublic), count: Number(count) };
  }

  async get(caller: Actor, id: string): Promise<AuditEventPublic> {
    requireSuperuser(caller);
    const [row] = await this.orm.em
      .getConnection()
      .execute<Row[]>(`select ${COLUMNS} from audit_events where id = ?`, [recordId(id)]);
    if (!row) throw new ApiError(404, 'Audit event not found');
    return toPublic(row);
  }

  /**
   * An action that is not one write of the record's (a sync queued, an order resent). `run` is handed what records
   * it, to call inside the action's own transaction once its change is made; an action with no transaction of its
   * own (a sweep asked for) is recorded once it succeeded. Either way a refused or failed action records nothing.
   */
  async action<T>(actor: AuditActor, entry: AuditEntry, run: (within: InTransaction) => Promise<T>): Promise<T> {
    let recorded = false;
    const done = await run(async (em) => {
      await recordAudit(em, actor, entry);
      recorded = true;
    });
    if (!recorded) await recordAudit(this.orm.em.fork(), actor, entry);
    return done;
  }
}
