import type { MailJobPublic } from '../../gateway/email/mail-job.resource';
import type { TestGateway } from './gateway';

/** What `allMailJobs` answers for one job: the service's public shape. */
export type MailJobView = MailJobPublic;

const FIELDS =
  'id kind to state attempts retry_limit last_error sent not_sent_reason created_at next_attempt_at completed_at';

/** The mail queue as a superuser reads it through GraphQL `allMailJobs` (newest first). */
export async function mailJobs(t: TestGateway, token: string, state?: string): Promise<MailJobView[]> {
  const answer = await t.graphql(
    `query($filter: MailJobFilter) { allMailJobs(perPage: 1000, filter: $filter) { ${FIELDS} } }`,
    { filter: state ? { state } : undefined },
    token,
  );
  if (answer.body.errors) throw new Error(JSON.stringify(answer.body.errors));
  return answer.body.data.allMailJobs;
}

/** Polls `allMailJobs` until a job matches, and answers it. */
export async function waitForMailJob(
  t: TestGateway,
  token: string,
  matches: (job: MailJobView) => boolean,
  timeoutMs = 15_000,
): Promise<MailJobView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailJobs(t, token)).find(matches);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no matching mail job within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
