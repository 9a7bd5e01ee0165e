import { boolean, datetime, id, int, state, text } from '../kit/field';
import { Resource } from '../kit/resource';
import type { PublicOf } from '../kit/field';
import { JOBS_SCHEMA } from '../queue/queue';

/** The states of a queued email: pg-boss's own, `failed` meaning after its last retry. */
export const MAIL_JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;

/**
 * One queued email as the queue holds it, in the columns the fields name: where it goes and how it went, never its
 * body or any link in it. pg-boss keeps a failed attempt's error as the job's output until the job completes, and a
 * completed job's output is what the mail worker answered (`sent`, and why not).
 */
const columns = `
  id, data->>'kind' as kind, data->>'email' as "to", state::text as state,
  case when started_on is null then 0 else retry_count + 1 end as attempts,
  retry_limit,
  case when state <> 'completed' and jsonb_typeof(output->'message') = 'string' then output->>'message' end
    as last_error,
  case when state = 'completed' then coalesce(output->'sent' = 'true'::jsonb, false) end as sent,
  case when state = 'completed' and jsonb_typeof(output->'reason') = 'string' then output->>'reason' end
    as not_sent_reason,
  created_on as created_at,
  case when state in ('created', 'retry') then start_after end as next_attempt_at,
  completed_on as completed_at`;

/** The mail outbox: jobs still in the queue and those pg-boss has archived (kept 30 days more). Superusers only. */
export const mailJobResource = new Resource(
  'MailJob',
  {
    id: id(),
    state: state(MAIL_JOB_STATES, {
      tones: {
        created: 'neutral',
        retry: 'warning',
        active: 'info',
        completed: 'success',
        cancelled: 'neutral',
        failed: 'error',
      },
      listed: true,
      filterable: true,
      description: 'created, retry, active, completed, cancelled or failed (after its last retry)',
    }),
    kind: text({
      listed: true,
      description: 'password-recovery, new-account, email-changed, health-alert, health-recovered or health-digest',
    }),
    to: text({ listed: true, description: 'The recipient' }),
    attempts: int({ min: 0, max: 10_000, listed: true, description: 'Attempts made so far' }),
    retry_limit: int({ min: 0, max: 10_000, description: 'Retries a failed attempt may cause' }),
    last_error: text({ nullable: true, listed: true, description: 'Why the last attempt failed' }),
    sent: boolean({ nullable: true, description: 'Once completed: whether a message went to the mail server' }),
    not_sent_reason: text({ nullable: true, description: 'Why a completed job sent nothing' }),
    created_at: datetime({ listed: true, sortable: true }),
    next_attempt_at: datetime({ nullable: true, description: 'When a waiting job is tried next' }),
    completed_at: datetime({ nullable: true, listed: true }),
  },
  {
    source: `select ${columns} from ${JOBS_SCHEMA}.job where name = 'mail'
      union all select ${columns} from ${JOBS_SCHEMA}.archive where name = 'mail'`,
    path: 'mail-jobs',
    screen: 'emails',
    noun: 'mail job',
    read: 'superuser',
    write: 'superuser',
    title: 'to',
    menu: 50,
    icon: 'Mail',
    description: 'A queued email as superusers follow it: never its body or any link in it',
  },
);

export type MailJobPublic = PublicOf<typeof mailJobResource.fields>;
