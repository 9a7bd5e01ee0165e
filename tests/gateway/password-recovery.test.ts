import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { startTestSmtp, type TestSmtp } from '../support/smtp';

const RECOVERY = 'If that email is registered, we sent a password recovery link';

let smtp: TestSmtp;
let t: TestGateway;
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
  it('sends a real email whose link resets the password', async () => {
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
  });

  it('answers unknown addresses the same way and sends nothing', async () => {
    const before = smtp.messages.length;
    const answer = await t.request('POST', '/api/v1/password-recovery/nobody@example.com');
    expect(answer).toMatchObject({ status: 200, body: { message: RECOVERY } });
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages.length).toBe(before);
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
    const token = await t.superuserToken();
    const page = await t.request('POST', '/api/v1/password-recovery-html-content/recover.me@example.com', { token });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('http://frontend.test/reset-password?token=');
  });
});

describe('password recovery without SMTP', () => {
  it('writes the link to the log so a developer can still reset a password', async () => {
    const lines: string[] = [];
    const { default: pino } = await import('pino');
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const bare = await startTestGateway({}, log);
    try {
      const user = await bare.createUser('nosmtp@example.com', 'old-password-1');
      await bare.request('POST', `/api/v1/password-recovery/${user.email}`);
      const entry = lines.map((l) => JSON.parse(l)).find((l) => l.msg?.includes('SMTP is not configured'));
      expect(entry?.text).toMatch(/http:\/\/frontend\.test\/reset-password\?token=\S+/);
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
