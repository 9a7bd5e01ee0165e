import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertSignature } from '../../gateway/health/alert-webhook';
import { startTestSmtp, type TestSmtp } from '../support/smtp';
import { syncSuite } from '../support/sync';

/**
 * Alerts: a client critical past ALERT_AFTER_MINUTES mails every active user who receives alerts (superusers unless
 * they say otherwise, anyone who chooses to), once per client and reason per ALERT_REPEAT_HOURS, and again when it
 * recovers; a daily digest lists every client not "Em dia"; each is posted, signed, to ALERT_WEBHOOK_URL. All through
 * the mail queue, caught here by a real SMTP server. Nothing goes about a client whose app is uninstalled.
 */
let smtp: TestSmtp;
const posts: { body: string; signature: string | undefined }[] = [];
const chat = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    posts.push({ body, signature: req.headers['x-alert-signature'] as string | undefined });
    res.end('ok');
  });
});
const SECRET = 'a-chat-webhook-secret';

beforeAll(async () => {
  smtp = await startTestSmtp();
  await new Promise<void>((resolve) => chat.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await smtp?.close();
  await new Promise((resolve) => chat.close(resolve));
});

const suite = syncSuite({
  env: {
    get SMTP_HOST() {
      return '127.0.0.1';
    },
    get SMTP_PORT() {
      return String(smtp.port);
    },
    SMTP_TLS: 'false',
    ALERT_AFTER_MINUTES: '10',
    get ALERT_WEBHOOK_URL() {
      return `http://127.0.0.1:${(chat.address() as AddressInfo).port}/hook`;
    },
    ALERT_WEBHOOK_SECRET: SECRET,
    // Checked when the test says, not on the minute.
    HEALTH_CRON: '0 0 1 1 *',
  },
});

const MINUTE = 60_000;

/** A check as of `at`, and the alerts it calls for. */
async function check(at: Date) {
  await suite.t.gateway.services.health.refresh(at);
  return suite.t.gateway.services.healthAlerts.afterCheck(at);
}

const waitForPosts = async (n: number) => {
  for (const end = Date.now() + 20_000; posts.length < n; await new Promise((r) => setTimeout(r, 100)))
    if (Date.now() > end) throw new Error(`${posts.length} posts of ${n}`);
};

describe('health alerts', () => {
  it('mails who receives alerts once a client has stayed critical, not again within the repeat, and when it recovers', async () => {
    const su = (await suite.t.request('GET', '/api/v1/users/me', { token: suite.su })).body;
    expect(su.receives_alerts).toBe(true);
    const watcher = await suite.t.createUser();
    const quiet = await suite.t.createUser();
    // An ordinary user chooses to receive them in Configurações; another does not.
    const chosen = await suite.t.request('PATCH', '/api/v1/users/me', {
      token: watcher.token,
      json: { receives_alerts: true },
    });
    expect(chosen.status).toBe(200);
    expect(chosen.body.receives_alerts).toBe(true);
    expect((await suite.t.request('GET', '/api/v1/users/me', { token: quiet.token })).body.receives_alerts).toBe(false);

    const c = await suite.tools.connectedClient({ name: 'Loja da Ana', hiper_token: 'h'.repeat(64) });
    for (let i = 0; i < 3; i++) expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'failed' });
    const now = Date.now();
    // Critical, but not for ALERT_AFTER_MINUTES yet.
    expect(await check(new Date(now))).toEqual({ alerts: 0, recoveries: 0 });
    expect(await check(new Date(now + 11 * MINUTE))).toEqual({ alerts: 1, recoveries: 0 });

    const [toSu, toWatcher] = await Promise.all([smtp.waitFor(su.email), smtp.waitFor(watcher.email)]);
    expect(toSu.subject).toBe('Sistema de Integração - Crítico: Loja da Ana');
    expect(toSu.text).toContain('As 3 últimas sincronizações do catálogo falharam: Token Hiper recusado pelo Hiper');
    const link = `http://frontend.test/saude?filter=${encodeURIComponent(JSON.stringify({ client_id: c.id }))}`;
    expect(toSu.text).toContain(link);
    expect(toSu.html).toContain('lang="pt-BR"');
    expect(toWatcher.subject).toBe(toSu.subject);

    // The next checks, within ALERT_REPEAT_HOURS: nothing more.
    expect(await check(new Date(now + 12 * MINUTE))).toEqual({ alerts: 0, recoveries: 0 });
    expect(await check(new Date(now + 60 * MINUTE))).toEqual({ alerts: 0, recoveries: 0 });

    // Fixed: one mail saying it is back.
    const fixed = await suite.t.request('PUT', `/api/v1/clients/${c.id}`, {
      token: suite.su,
      json: { hiper_token: c.account.key },
    });
    expect(fixed.status).toBe(200);
    expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'succeeded' });
    expect(await suite.tools.syncNow(c.id, 'stock')).toMatchObject({ state: 'succeeded' });
    expect(await check(new Date())).toEqual({ alerts: 0, recoveries: 1 });
    const back = await smtp.next(su.email);
    expect(back.subject).toBe('Sistema de Integração - De volta: Loja da Ana (Em dia)');
    expect(await check(new Date())).toEqual({ alerts: 0, recoveries: 0 });
    expect(smtp.to(quiet.email)).toEqual([]);

    // The chat webhook got the alert and the recovery, each signed over its body.
    await waitForPosts(2);
    const [alert, recovery] = posts.slice(-2);
    for (const post of [alert, recovery]) expect(post.signature).toBe(alertSignature(SECRET, post.body));
    expect(JSON.parse(alert.body)).toMatchObject({
      event: 'alert',
      text: expect.stringContaining('Crítico: Loja da Ana'),
      link,
    });
    expect(JSON.parse(recovery.body)).toMatchObject({ event: 'recovered', text: 'De volta: Loja da Ana' });

    // The E-mails screen's list shows them by kind.
    const mail = await suite.t.request('GET', '/api/v1/mail-jobs/?limit=100', { token: suite.su });
    const kinds = mail.body.data
      .filter((job: { to: string }) => job.to === su.email)
      .map((j: { kind: string }) => j.kind);
    expect(kinds).toEqual(expect.arrayContaining(['health-alert', 'health-recovered']));
  });

  it('alerts again past ALERT_REPEAT_HOURS, never about a client whose app is uninstalled, and digests the day', async () => {
    const su = (await suite.t.request('GET', '/api/v1/users/me', { token: suite.su })).body;
    const c = await suite.tools.connectedClient({ name: 'Loja do Caio', hiper_token: 'h'.repeat(64) });
    for (let i = 0; i < 3; i++) expect(await suite.tools.syncNow(c.id)).toMatchObject({ state: 'failed' });
    const gone = await suite.tools.connectedClient({ name: 'Loja Desinstalada' });
    await suite.t.sql(`update clients set sync_state = 'disconnected' where id = $1`, [gone.id]);
    const now = Date.now();
    await check(new Date(now));
    const before = smtp.to(su.email).length;
    expect(await check(new Date(now + 11 * MINUTE))).toMatchObject({ alerts: 1 });
    const first = await smtp.next(su.email);
    expect(first.subject).toBe('Sistema de Integração - Crítico: Loja do Caio');
    expect(await check(new Date(now + 25 * 60 * MINUTE))).toMatchObject({ alerts: 1 });
    expect((await smtp.next(su.email)).subject).toBe(first.subject);
    expect(smtp.to(su.email).length).toBe(before + 2);
    expect(smtp.messages.some((m) => m.subject?.includes('Loja Desinstalada'))).toBe(false);

    // The digest: every client not "Em dia" (the uninstalled one aside), worst first.
    // To both who receive alerts: the superuser and the user who chose to in the first test.
    expect(await suite.t.gateway.services.healthAlerts.digest()).toMatchObject({ recipients: 2 });
    const digest = await smtp.next(su.email);
    expect(digest.subject).toMatch(/^Sistema de Integração - Resumo do dia: \d+ clientes? críticos?, \d+ em atenção$/);
    expect(digest.text).toContain('Loja do Caio (Crítico)');
    expect(digest.text).not.toContain('Loja Desinstalada');
  });

  it('takes receives_alerts from a superuser creating an account, REST and GraphQL, and refuses a wrong value', async () => {
    const created = await suite.t.request('POST', '/api/v1/users/', {
      token: suite.su,
      json: { email: `chefe-${Date.now()}@example.com`, password: 'a-good-password', is_superuser: true },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.receives_alerts).toBe(true);
    const plain = await suite.t.request('POST', '/api/v1/users/', {
      token: suite.su,
      json: { email: `plain-${Date.now()}@example.com`, password: 'a-good-password' },
    });
    expect(plain.body.receives_alerts).toBe(false);
    const changed = await suite.t.request('PATCH', `/api/v1/users/${plain.body.id}`, {
      token: suite.su,
      json: { receives_alerts: true },
    });
    expect(changed.body.receives_alerts).toBe(true);
    const refused = await suite.t.request('PATCH', '/api/v1/users/me', {
      token: suite.su,
      json: { receives_alerts: 'sim' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0].loc).toEqual(['body', 'receives_alerts']);
    const graphql = await suite.t.graphql(
      'mutation { updateMe(receives_alerts: false) { receives_alerts } }',
      {},
      suite.su,
    );
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data).toEqual({ updateMe: { receives_alerts: false } });
    expect((await suite.t.request('GET', '/api/v1/users/me', { token: suite.su })).body.receives_alerts).toBe(false);
  });
});
