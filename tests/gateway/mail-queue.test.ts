import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { mailJobs, waitForMailJob, type MailJobView } from '../support/mail-jobs';
import { startTestSmtp, type TestSmtp } from '../support/smtp';

/**
 * Mail through the job queue, against a real SMTP server that is stopped and started, refuses some mailboxes, and a
 * real PostgreSQL: what is queued with what, how it is retried, what is kept, and who sees it.
 */
const BOUNCING = 'no-such-mailbox@example.com';

let smtp: TestSmtp;
let t: TestGateway;
let su: string;

/** Retries come after about 1-2 s, then 2-4 s: quick enough to watch a mail fail for good. */
const smtpEnv = (server: TestSmtp) => ({
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: String(server.port),
  SMTP_TLS: 'false',
  MAIL_RETRY_LIMIT: '2',
  MAIL_RETRY_DELAY_SECONDS: '1',
  MAIL_RETRY_BACKOFF: 'true',
});

beforeAll(async () => {
  smtp = await startTestSmtp({ reject: (address) => address === BOUNCING });
  t = await startTestGateway(smtpEnv(smtp));
  su = await t.superuserToken();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const jobsTo = async (email: string) => (await mailJobs(t, su)).filter((j) => j.to === email);

describe('new account mail', () => {
  it('goes to a user a superuser creates through REST, with the login address and no password', async () => {
    const email = 'welcome.rest@example.com';
    const arriving = smtp.next(email);
    const created = await t.request('POST', '/api/v1/users/', {
      token: su,
      json: { email, password: 'the-secret-password', full_name: 'Welcome' },
    });
    expect(created.status).toBe(200);
    const mail = await arriving;
    expect(mail.subject).toBe(`Sistema de Integração - New account for user ${email}`);
    expect(String(mail.html)).toContain('href="http://frontend.test/login"');
    expect(mail.text).toContain('http://frontend.test/login');
    expect(mail.text).toContain(email);
    expect(`${mail.html}${mail.text}`).not.toContain('the-secret-password');
    // The mail arrives before its worker records the job completed: wait for that record.
    const job = await waitForMailJob(t, su, (j) => j.to === email && j.state === 'completed');
    expect(job).toMatchObject({ kind: 'new-account', state: 'completed', sent: true });
  });

  it('goes to a user created through GraphQL createUser, and not to one who signs up', async () => {
    const arriving = smtp.next('welcome.graphql@example.com');
    const created = await t.graphql(
      'mutation { createUser(email: "welcome.graphql@example.com", password: "a-good-password") { id } }',
      {},
      su,
    );
    expect(created.body.errors).toBeUndefined();
    expect((await arriving).subject).toContain('New account');

    await t.createUser('signed.up.alone@example.com');
    // The signup's own requests are done; give the worker the time it took above, then look.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await jobsTo('signed.up.alone@example.com')).toEqual([]);
  });

  it('is not queued when the account is not created: a refused insert rolls the mail back with it', async () => {
    // The database refuses this one email as a concurrent signup of the same address would (a unique violation).
    await t.sql(`create function refuse_email() returns trigger language plpgsql as $$
      begin
        if new.email = 'rolled.back@example.com' then
          raise exception 'duplicate key value violates unique constraint "users_email_unique"' using errcode = '23505';
        end if;
        return new;
      end $$`);
    await t.sql(
      `create trigger refuse_email before insert or update on users for each row execute function refuse_email()`,
    );
    try {
      const created = await t.request('POST', '/api/v1/users/', {
        token: su,
        json: { email: 'rolled.back@example.com', password: 'a-good-password' },
      });
      expect(created).toMatchObject({
        status: 400,
        body: { detail: 'The user with this email already exists in the system.' },
      });
      const user = await t.createUser('moving.back@example.com');
      const moved = await t.request('PATCH', '/api/v1/users/me', {
        token: user.token,
        json: { email: 'rolled.back@example.com' },
      });
      expect(moved).toMatchObject({ status: 409, body: { detail: 'User with this email already exists' } });
      expect((await t.request('GET', '/api/v1/users/me', { token: user.token })).body.email).toBe(user.email);
      // Nothing waits in the queue for either: not in the job table, not through allMailJobs.
      const queued = await t.sql(`select id from pgboss.job where name = 'mail' and data->>'email' in ($1, $2)`, [
        'rolled.back@example.com',
        user.email,
      ]);
      expect(queued).toEqual([]);
      expect(await jobsTo('rolled.back@example.com')).toEqual([]);
    } finally {
      await t.sql('drop trigger refuse_email on users');
      await t.sql('drop function refuse_email()');
    }
  });
});

describe('email change notice', () => {
  it('goes to the old address when a user changes their email through REST', async () => {
    const user = await t.createUser('old.address@example.com');
    const arriving = smtp.next('old.address@example.com');
    const moved = await t.request('PATCH', '/api/v1/users/me', {
      token: user.token,
      json: { email: 'new.address@example.com' },
    });
    expect(moved).toMatchObject({ status: 200, body: { email: 'new.address@example.com' } });
    const mail = await arriving;
    expect(mail.subject).toBe('Sistema de Integração - The email of your account was changed');
    expect(mail.text).toContain('from old.address@example.com to new.address@example.com');
    expect(String(mail.html)).toContain('<strong>new.address@example.com</strong>');
    expect(smtp.to('new.address@example.com')).toEqual([]);
  });

  it('goes to the old address through GraphQL updateMe and a superuser’s PATCH, and not for a name change', async () => {
    const user = await t.createUser('gql.old@example.com');
    const arriving = smtp.next('gql.old@example.com');
    const moved = await t.graphql('mutation { updateMe(email: "gql.new@example.com") { email } }', {}, user.token);
    expect(moved.body.data).toEqual({ updateMe: { email: 'gql.new@example.com' } });
    expect((await arriving).text).toContain('to gql.new@example.com');

    const other = await t.createUser('admin.moves.me@example.com');
    const notice = smtp.next('admin.moves.me@example.com');
    expect(
      (await t.request('PATCH', `/api/v1/users/${other.id}`, { token: su, json: { email: 'admin.moved@example.com' } }))
        .status,
    ).toBe(200);
    expect((await notice).text).toContain('to admin.moved@example.com');

    const renamed = await t.request('PATCH', '/api/v1/users/me', {
      token: user.token,
      json: { full_name: 'Only The Name', email: 'gql.new@example.com' },
    });
    expect(renamed.status).toBe(200);
    expect((await jobsTo('gql.new@example.com')).filter((j) => j.kind === 'email-changed')).toEqual([]);
    expect((await jobsTo('gql.old@example.com')).length).toBe(1);
  });
});

describe('an SMTP outage', () => {
  it('queues mail while the server is down and delivers it when it is back, with nobody asking again', async () => {
    const users = await Promise.all([1, 2, 3].map((i) => t.createUser(`outage${i}@example.com`)));
    await smtp.stop();
    const stoppedAt = Date.now();
    for (const user of users) {
      const answer = await t.request('POST', `/api/v1/password-recovery/${user.email}`);
      expect(answer.status).toBe(200);
    }
    // Every mail has failed its first attempt and waits for a retry, with the reason.
    const waiting = await Promise.all(
      users.map((u) => waitForMailJob(t, su, (j) => j.to === u.email && j.state === 'retry', 10_000)),
    );
    for (const job of waiting) {
      expect(job.last_error).toMatch(/ECONNREFUSED|connect/i);
      expect(job.attempts).toBe(1);
      expect(job.next_attempt_at).not.toBeNull();
    }
    await smtp.start();
    const restartedAt = Date.now();
    const delivered = await Promise.all(users.map((u) => smtp.next(u.email, 20_000)));
    const deliveredAt = Date.now();
    expect(delivered).toHaveLength(3);
    // The worker marks a job completed just after the server has taken the message: wait for that write too.
    for (const user of users) {
      const job = await waitForMailJob(t, su, (j) => j.to === user.email && j.state === 'completed', 10_000);
      expect(job).toMatchObject({ state: 'completed', sent: true, attempts: 2, last_error: null });
    }
    console.log(
      `SMTP outage: ${users.length} mails queued while the server was down ` +
        `(${((restartedAt - stoppedAt) / 1000).toFixed(1)} s), all ${delivered.length} delivered ` +
        `${((deliveredAt - restartedAt) / 1000).toFixed(1)} s after it came back`,
    );
  }, 60_000);

  it('ends a mail that keeps failing as failed after its retries, visible to superusers and counted', async () => {
    const before = await t.graphql('{ _allMailJobsMeta(filter: { state: failed }) { count } }', {}, su);
    expect(before.body.data._allMailJobsMeta.count).toBe(0);
    const created = await t.request('POST', '/api/v1/users/', {
      token: su,
      json: { email: BOUNCING, password: 'a-good-password' },
    });
    expect(created.status).toBe(200);
    const failed = await waitForMailJob(t, su, (j) => j.to === BOUNCING && j.state === 'failed', 30_000);
    expect(failed).toMatchObject({ kind: 'new-account', attempts: 3, retry_limit: 2, sent: null });
    expect(failed.last_error).toContain('does not exist');
    expect(smtp.to(BOUNCING)).toEqual([]);

    const listed = await t.graphql(
      '{ allMailJobs(filter: { state: failed }) { to state attempts last_error } _allMailJobsMeta(filter: { state: failed }) { count } }',
      {},
      su,
    );
    expect(listed.body.data._allMailJobsMeta.count).toBe(1);
    expect(listed.body.data.allMailJobs).toEqual([
      { to: BOUNCING, state: 'failed', attempts: 3, last_error: failed.last_error },
    ]);
  }, 60_000);

  it('survives a restart: mail queued by a gateway that stops is sent by the next one', async () => {
    const first = await startTestGateway({ ...smtpEnv(smtp), RUN_WORKERS: 'false' });
    let second: TestGateway | undefined;
    try {
      const user = await first.createUser('queued.before.restart@example.com');
      expect((await first.request('POST', `/api/v1/password-recovery/${user.email}`)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1000));
      expect(smtp.to(user.email)).toEqual([]);
      // The gateway stops; its database (and the job in it) stays.
      await first.gateway.close();
      const arriving = smtp.next(user.email, 15_000);
      second = await startTestGateway({ ...smtpEnv(smtp), DATABASE_URL: first.databaseUrl });
      expect((await arriving).subject).toContain('Password recovery');
    } finally {
      await second?.close();
      await first.close();
    }
  }, 60_000);
});

describe('npm run worker', () => {
  it('sends mail a gateway without workers queued, registers the schedules that gateway left to it, and stops cleanly', async () => {
    const worker = path.resolve('dist/gateway/worker.js');
    expect(existsSync(worker), 'run `npm run build:gateway` first').toBe(true);
    const quiet = await startTestGateway({ ...smtpEnv(smtp), RUN_WORKERS: 'false' });
    const schedules = async () =>
      (await quiet.sql('select name from pgboss.schedule order by name')).map((row) => String(row.name));
    try {
      // A gateway that works no jobs keeps no schedule: it creates the queues and leaves the rest to the workers.
      expect(await schedules()).toEqual([]);
      const queues = (await quiet.sql('select name from pgboss.queue')).map((row) => String(row.name));
      expect(queues).toEqual(expect.arrayContaining(['mail', 'prune-tables', 'sync-catalogue-schedule']));
      const user = await quiet.createUser('sent.by.the.worker@example.com');
      expect((await quiet.request('POST', `/api/v1/password-recovery/${user.email}`)).status).toBe(200);
      const arriving = smtp.next(user.email, 30_000);
      const child = spawn(process.execPath, [worker], {
        env: {
          PATH: process.env.PATH ?? '',
          ...Object.fromEntries(
            Object.entries(quiet.config).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v ?? '')]),
          ),
          DATABASE_URL: quiet.databaseUrl,
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output: string[] = [];
      child.stdout.on('data', (c: Buffer) => output.push(c.toString()));
      child.stderr.on('data', (c: Buffer) => output.push(c.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      try {
        expect((await arriving).subject).toContain('Password recovery');
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
      const lines = output.join('');
      expect(lines).toContain('worker started');
      expect(lines).toContain('email sent');
      expect(lines).toContain('worker stopped');
      // The worker registered the cron schedules (the every-so-many-seconds ones are its own timers).
      expect(await schedules()).toEqual([
        'client-health',
        'health-digest',
        'prune-tables',
        'reconcile',
        'sync-catalogue-schedule',
        'sync-full-schedule',
      ]);
    } finally {
      await quiet.close();
    }
  }, 60_000);
});

describe('allMailJobs', () => {
  it('is for superusers only and shows no body, link or token', async () => {
    const user = await t.createUser('not.staff@example.com');
    const refused = await t.graphql('{ allMailJobs { id } }', {}, user.token);
    expect(refused.body.errors[0]).toMatchObject({
      message: "The user doesn't have enough privileges",
      extensions: { code: 'FORBIDDEN' },
    });
    const anonymous = await t.graphql('{ _allMailJobsMeta { count } }');
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    // A state is one of its values: GraphQL's enum refuses any other, and REST answers 422.
    const bad = await t.graphql('{ allMailJobs(filter: { state: lost }) { id } }', {}, su);
    expect(bad.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(bad.body.errors[0].message).toMatch(/MailJobState/);
    const badRest = await t.request('GET', '/api/v1/mail-jobs/?state=lost', { token: su });
    expect(badRest.status).toBe(422);
    expect(badRest.body.detail[0].loc).toEqual(['query', 'state']);
    const userRest = await t.request('GET', '/api/v1/mail-jobs/', { token: user.token });
    expect(userRest.status).toBe(403);

    const all: MailJobView[] = await mailJobs(t, su);
    expect(all.length).toBeGreaterThan(5);
    expect(JSON.stringify(all)).not.toMatch(/token=|eyJ|<html|Reset your password/);
    const sorted = [...all].sort((a, b) => b.created_at.localeCompare(a.created_at));
    expect(all.map((j) => j.created_at)).toEqual(sorted.map((j) => j.created_at));
    const page = await t.graphql('{ allMailJobs(page: 1, perPage: 2) { id } }', {}, su);
    expect(page.body.data.allMailJobs.map((j: { id: string }) => j.id)).toEqual(all.slice(2, 4).map((j) => j.id));

    // REST serves the same records and total, filtered by state alike; one job by id, and no way to write.
    const listed = await t.request('GET', '/api/v1/mail-jobs/?limit=1000', { token: su });
    expect(listed.body).toEqual({ data: all, count: all.length });
    const completed = await t.request('GET', '/api/v1/mail-jobs/?state=completed&limit=1000', { token: su });
    expect(completed.body.data.map((j: MailJobView) => j.id)).toEqual(
      all.filter((j) => j.state === 'completed').map((j) => j.id),
    );
    const one = await t.request('GET', `/api/v1/mail-jobs/${all[0].id}`, { token: su });
    expect(one.body).toEqual(all[0]);
    expect((await t.request('DELETE', `/api/v1/mail-jobs/${all[0].id}`, { token: su })).status).toBe(405);
    const none = await t.graphql('mutation { deleteMailJob(id: "x") { id } }', {}, su);
    expect(none.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});
