import { z } from 'zod';
import type { PlainRows } from '../database/plain-rows';
import { requireSuperuser } from '../users/user.service';
import type { SignedInUser } from '../users/user.schemas';
import { MAX_LIMIT } from '../validation';
import type { MailKind } from './payloads';
import { JOBS_SCHEMA } from './queue';

export const MAIL_JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
export type MailJobState = (typeof MAIL_JOB_STATES)[number];

/** What a superuser sees of a queued mail: where it goes and how it went, never its body or any link in it. */
export interface MailJobPublic {
  id: string;
  kind: MailKind;
  to: string;
  state: MailJobState;
  /** Attempts made so far (a job waiting for its first has made none). */
  attempts: number;
  /** Attempts after the first that a failure may still cause. */
  retry_limit: number;
  /** The last attempt's failure, if it failed. */
  last_error: string | null;
  /** Once completed: whether a message was handed to the mail server (a recovery for an unknown address is not). */
  sent: boolean | null;
  /** Why a completed job sent nothing. */
  not_sent_reason: string | null;
  created_at: string;
  /** When a waiting job is tried next. */
  next_attempt_at: string | null;
  completed_at: string | null;
}

export const MailJobListArgs = z.object({
  page: z.number().int().min(0).max(10_000_000).default(0),
  perPage: z.number().int().min(0).max(MAX_LIMIT).default(25),
  filter: z.object({ state: z.enum(MAIL_JOB_STATES).optional() }).optional(),
});
export type MailJobListArgs = z.output<typeof MailJobListArgs>;

/** A time read as epoch milliseconds (the pool hands timestamps back as text), in ISO 8601. */
const iso = (ms: unknown) => (ms == null ? null : new Date(Number(ms)).toISOString());
const epochMs = (column: string) => `(extract(epoch from ${column}) * 1000)::float8 as ${column}`;
const COLUMNS = `id, data, state::text as state, retry_count, retry_limit, output, created_on as created_order,
  ${['started_on', 'start_after', 'created_on', 'completed_on'].map(epochMs).join(', ')}`;

// Jobs still in the queue and those pg-boss has archived (kept 30 days more), newest first.
const JOBS = `
  select ${COLUMNS} from ${JOBS_SCHEMA}.job where name = 'mail'
  union all
  select ${COLUMNS} from ${JOBS_SCHEMA}.archive where name = 'mail'`;

/** The mail queue as superusers follow it: what is waiting, what went out, what failed for good. */
export class MailJobService {
  constructor(private readonly rows: PlainRows) {}

  async list(caller: SignedInUser, args: MailJobListArgs): Promise<{ data: MailJobPublic[]; count: number }> {
    requireSuperuser(caller);
    const state = args.filter?.state ?? null;
    const where = `where ($1::text is null or state = $1)`;
    const [page, [total]] = await Promise.all([
      this.rows.query(`select * from (${JOBS}) j ${where} order by created_order desc, id desc limit $2 offset $3`, [
        state,
        args.perPage,
        args.page * args.perPage,
      ]),
      this.rows.query(`select count(*)::int as n from (${JOBS}) j ${where}`, [state]),
    ]);
    return { data: page.map(toMailJobPublic), count: Number(total.n) };
  }
}

function toMailJobPublic(row: Record<string, unknown>): MailJobPublic {
  const data = (row.data ?? {}) as { kind?: MailKind; email?: string };
  const output = (row.output ?? {}) as { message?: unknown; sent?: unknown; reason?: unknown };
  const state = row.state as MailJobState;
  const waiting = state === 'created' || state === 'retry';
  return {
    id: String(row.id),
    kind: data.kind ?? ('unknown' as MailKind),
    to: data.email ?? '',
    state,
    attempts: row.started_on ? Number(row.retry_count) + 1 : 0,
    retry_limit: Number(row.retry_limit),
    // pg-boss keeps a failed attempt's error as the output until the job completes.
    last_error: state !== 'completed' && typeof output.message === 'string' ? output.message : null,
    sent: state === 'completed' ? output.sent === true : null,
    not_sent_reason: state === 'completed' && typeof output.reason === 'string' ? output.reason : null,
    created_at: iso(row.created_on)!,
    next_attempt_at: waiting ? iso(row.start_after) : null,
    completed_at: iso(row.completed_on),
  };
}
