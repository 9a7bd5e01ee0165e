import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { mailJobs, waitForMailJob } from '../support/mail-jobs';
import { startTestSmtp, type TestSmtp } from '../support/smtp';

const RECOVERY = 'If that email is registered, we sent a password recovery link';

let smtp: TestSmtp;
let t: TestGateway;
let su: string;
beforeAll(async () => {
  smtp = await startTestSmtp({ user: 'mailer', pass: 'smtp-secret' });
  t = await startTestGateway({
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_TLS: 'false',
    SMTP_USER: 'mailer',
    SMTP_PASSWORD: 'smtp-secret',
    EMAILS_FROM_EMAIL: 'noreply@integracao.example',
  });
  su = await t.superuserToken();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

function resetLink(html: string): URL {
  const href = /href="([^"]*reset-password\?token=[^"]+)"/.exec(html)?.[1];
  if (!href) throw new Error('no reset link in the email');
  return new URL(href.replace(/&amp;/g, '&'));
}

describe('password recovery by email', () => {
  it('sends a real email, HTML and plain text, whose link resets the password', async () => {
    const user = await t.createUser('recover.me@example.com', 'old-password-1');
    const arriving = smtp.next(user.email);
    const answer = await t.request('POST', `/api/v1/password-recovery/${user.email}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ message: RECOVERY });

    const mail = await arriving;
    expect(mail.from?.value[0].address).toBe('noreply@integracao.example');
    expect(mail.subject).toContain('Password recovery');
    const link = resetLink(String(mail.html));
    expect(`${link.origin}${link.pathname}`).toBe('http://frontend.test/reset-password');
    const token = link.searchParams.get('token')!;
    expect(mail.text).toContain(link.toString());

    const reset = await t.request('POST', '/api/v1/reset-password/', {
      json: { token, new_password: 'new-password-2' },
    });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ message: 'Password updated successfully' });

    const old = await t.request('POST', '/api/v1/login/access-token', {
      form: { username: user.email, password: 'old-password-1' },
    });
    expect(old.status).toBe(400);
    expect(await t.login(user.email, 'new-password-2')).toMatch(/^ey/);

    // The link works once: the password change revoked it, and earlier access tokens too.
    const again = await t.request('POST', '/api/v1/reset-password/', {
      json: { token, new_password: 'third-password' },
    });
    expect(again).toMatchObject({ status: 400, body: { detail: 'Invalid token' } });
    const stale = await t.request('GET', '/api/v1/users/me', { token: user.token });
    expect(stale).toMatchObject({ status: 403, body: { detail: 'Could not validate credentials' } });

    // The queue shows the mail as sent, and holds neither its body nor the link.
    const job = await waitForMailJob(t, su, (j) => j.to === user.email && j.state === 'completed');
    expect(job).toMatchObject({ kind: 'password-recovery', sent: true, attempts: 1, last_error: null });
    const [row] = await t.sql<{ data: unknown }>(`select data from pgboss.job where id = $1`, [job.id]);
    expect(row.data).toEqual({ kind: 'password-recovery', email: user.email });
  });

  it('answers unknown and inactive addresses the same way and sends them nothing', async () => {
    const inactive = await t.createUser('inactive.recover@example.com');
    expect(
      (await t.request('PATCH', `/api/v1/users/${inactive.id}`, { token: su, json: { is_active: false } })).status,
    ).toBe(200);
    for (const email of ['nobody@example.com', inactive.email]) {
      const answer = await t.request('POST', `/api/v1/password-recovery/${email}`);
      expect(answer).toMatchObject({ status: 200, body: { message: RECOVERY } });
      // The worker looked the address up and found no active account.
      const job = await waitForMailJob(t, su, (j) => j.to === email && j.state === 'completed');
      expect(job).toMatchObject({ sent: false, not_sent_reason: 'no active account has this email' });
      expect(smtp.to(email)).toEqual([]);
    }
  });

  it('works through GraphQL too, with the same answer', async () => {
    const user = await t.createUser('graphql.recover@example.com', 'old-password-1');
    const arriving = smtp.next(user.email);
    const answer = await t.graphql('mutation($e: String!) { recoverPassword(email: $e) { message } }', {
      e: user.email,
    });
    expect(answer.body).toEqual({ data: { recoverPassword: { message: RECOVERY } } });
    const token = resetLink(String((await arriving).html)).searchParams.get('token')!;
    const reset = await t.graphql(
      'mutation($t: String!, $p: String!) { resetPassword(token: $t, new_password: $p) { message } }',
      {
        t: token,
        p: 'graphql-new-password',
      },
    );
    expect(reset.body).toEqual({ data: { resetPassword: { message: 'Password updated successfully' } } });
    expect(await t.login(user.email, 'graphql-new-password')).toMatch(/^ey/);
  });

  it('shows a superuser the email body', async () => {
    const page = await t.request('POST', '/api/v1/password-recovery-html-content/recover.me@example.com', {
      token: su,
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('http://frontend.test/reset-password?token=');
  });
});

describe('recovery mails to one person', () => {
  it('are three an hour at most, whoever asks and from wherever, and every answer is the same', async () => {
    // Each caller address may ask once: the callers below all pass their own limit, only the recipient's stops them.
    const limited = await startTestGateway({
      TRUST_PROXY: '1',
      RATE_LIMIT_RECOVERY: '1',
      RATE_LIMIT_RECOVERY_RECIPIENT: '3',
    });
    try {
      const admin = await limited.superuserToken();
      const person = await limited.createUser('flooded@example.com');
      const recover = (email: string, address: string) =>
        limited.request('POST', `/api/v1/password-recovery/${email}`, { headers: { 'X-Forwarded-For': address } });
      // At the same moment, from five addresses, the address written in two cases.
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          recover(i % 2 ? person.email.toUpperCase() : person.email, `198.51.100.${i + 1}`),
        ),
      );
      const viaGraphql = await limited.request('POST', '/graphql', {
        json: { query: `mutation { recoverPassword(email: "${person.email}") { message } }` },
        headers: { 'X-Forwarded-For': '198.51.100.6' },
      });
      const unknown = await Promise.all(
        Array.from({ length: 5 }, (_, i) => recover('nobody.flooded@example.com', `198.51.100.${i + 11}`)),
      );
      for (const answer of [...answers, ...unknown]) {
        expect(answer.status).toBe(200);
        expect(answer.text).toBe(JSON.stringify({ message: RECOVERY }));
      }
      expect(viaGraphql.body).toEqual({ data: { recoverPassword: { message: RECOVERY } } });

      const queued = async (email: string) =>
        (await mailJobs(limited, admin)).filter((j) => j.kind === 'password-recovery' && j.to === email).length;
      expect(await queued(person.email)).toBe(3);
      expect(await queued('nobody.flooded@example.com')).toBe(3);
      // Another person is not held back by them.
      expect((await recover('someone.else@example.com', '198.51.100.30')).status).toBe(200);
      expect(await queued('someone.else@example.com')).toBe(1);
    } finally {
      await limited.close();
    }
  });
});

describe('recovery timing', () => {
  it('answers known and unknown addresses in the same time, with a mail server taking 300 ms a message', async () => {
    const slow = await startTestSmtp({ delayMs: 300 });
    const timed = await startTestGateway({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(slow.port), SMTP_TLS: 'false' });
    try {
      const known = await timed.createUser('timed.known@example.com');
      const recover = (email: string) => timed.request('POST', `/api/v1/password-recovery/${email}`);
      // Warm up both paths (connections, compiled code) before measuring.
      await recover(known.email);
      await recover('warm.unknown@example.com');
      const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
      for (let i = 0; i < 15; i++) {
        for (const kind of i % 2 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)) {
          const answer = await recover(kind === 'known' ? known.email : `unknown-${i}@example.com`);
          expect(answer).toMatchObject({ status: 200, body: { message: RECOVERY } });
          times[kind].push(answer.ms);
        }
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const knownMs = median(times.known);
      const unknownMs = median(times.unknown);
      console.log(
        `recovery timing: known median ${knownMs.toFixed(1)} ms, unknown median ${unknownMs.toFixed(1)} ms ` +
          `(15 each, SMTP 300 ms a message)`,
      );
      expect(Math.abs(knownMs - unknownMs)).toBeLessThan(20);
      // Each answer came before the mail server could even have taken one message.
      expect(Math.max(...times.known)).toBeLessThan(300);
      // And the known address still gets its mails.
      await expect.poll(() => slow.to(known.email).length, { timeout: 30_000 }).toBe(16);
      expect(slow.messages.every((m) => m.to && JSON.stringify(m.to).includes(known.email))).toBe(true);
    } finally {
      await timed.close();
      await slow.close();
    }
  }, 60_000);
});

describe('password recovery without SMTP', () => {
  it('in development, writes the link to the log so a developer can still reset a password', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const bare = await startTestGateway({}, log);
    try {
      const user = await bare.createUser('nosmtp@example.com', 'old-password-1');
      await bare.request('POST', `/api/v1/password-recovery/${user.email}`);
      const logged = () =>
        lines.map((l) => JSON.parse(l)).find((l) => l.msg?.includes('SMTP is not configured') && l.to === user.email);
      await expect.poll(logged, { timeout: 10_000 }).toBeTruthy();
      const entry = logged();
      expect(entry.text).toMatch(/http:\/\/frontend\.test\/reset-password\?token=\S+/);
      const token = /token=(\S+)/.exec(entry.text)![1];
      const reset = await bare.request('POST', '/api/v1/reset-password/', {
        json: { token, new_password: 'fresh-password' },
      });
      expect(reset.status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
