import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import type { JobPayloads } from '../queue/payloads';
import type { JobQueue } from '../queue/queue';
import type { ClientHealthFacts } from '../email/health.email';
import { SEVERITY, type Health, type HealthReason } from './client-health.resource';

/** One advisory lock for the alerts' bookkeeping: two processes checking at once send each alert once. */
const ALERTS_LOCK = 4_604_371_001;

interface HealthRow {
  client_id: string;
  health: Health;
  health_since: Date;
  reasons: HealthReason[];
  uninstalled: boolean;
}

interface OpenAlert {
  client_id: string;
  code: string;
  kind: string;
  alerted_at: Date;
  recovered_at: Date | null;
}

/** A reason's identity in `health_alerts`: its code and its kind of run ('' for none). */
const keyOf = (clientId: string, code: string, kind = '') => `${clientId}:${code}:${kind}`;

/**
 * What the clients' health calls for, after each check: an alert per client that has stayed at ALERT_LEVEL or worse
 * for ALERT_AFTER_MINUTES (naming the reasons at that level not alerted in the last ALERT_REPEAT_HOURS), and a
 * recovery per client alerted about that is back below the level. Each goes as one mail job per active user who
 * receives alerts, and to ALERT_WEBHOOK_URL when set, queued in the transaction that records it: a check that fails
 * halfway sends nothing twice. Nothing goes about a client whose app is uninstalled.
 */
export class HealthAlerts {
  constructor(
    private readonly orm: MikroORM,
    private readonly config: Config,
    private readonly jobs: JobQueue,
  ) {}

  /** Queues the alerts and recoveries the last check calls for; answers how many of each. */
  async afterCheck(now = new Date()): Promise<{ alerts: number; recoveries: number }> {
    const level = SEVERITY[this.config.ALERT_LEVEL];
    const after = new Date(now.getTime() - this.config.ALERT_AFTER_MINUTES * 60_000);
    const repeatAfter = new Date(now.getTime() - this.config.ALERT_REPEAT_HOURS * 3_600_000);
    return this.orm.em.fork().transactional(async (em) => {
      const connection = em.getConnection();
      const [locked] = await connection.execute<{ locked: boolean }[]>(
        'select pg_try_advisory_xact_lock(?) as locked',
        [ALERTS_LOCK],
      );
      if (!locked.locked) return { alerts: 0, recoveries: 0 };
      const [troubled, open, recipients] = await Promise.all([
        connection.execute<HealthRow[]>(
          `select h.client_id, h.health, h.health_since, h.reasons, c.sync_state = 'disconnected' as uninstalled
           from client_health h join clients c on c.id = h.client_id
           where h.severity >= ? or exists (select 1 from health_alerts a
             where a.client_id = h.client_id and a.recovered_at is null)`,
          [level],
        ),
        connection.execute<OpenAlert[]>(
          `select client_id, code, kind, alerted_at, recovered_at from health_alerts where client_id in
             (select client_id from client_health where severity >= ?) or recovered_at is null`,
          [level],
        ),
        connection.execute<{ email: string }[]>(
          `select email from users where receives_alerts and is_active order by email`,
        ),
      ]);
      const alerts = new Map(open.map((row) => [keyOf(row.client_id, row.code, row.kind), row]));
      const mail: JobPayloads['mail'][] = [];
      const posts: JobPayloads['alert-webhook'][] = [];
      let alerted = 0;
      let recovered = 0;
      for (const row of troubled) {
        if (SEVERITY[row.health] >= level) {
          if (row.uninstalled || new Date(row.health_since) > after) continue;
          const due = row.reasons.filter((reason) => {
            if (SEVERITY[reason.health] < level) return false;
            const last = alerts.get(keyOf(row.client_id, reason.code, reason.kind));
            return !last || last.recovered_at !== null || new Date(last.alerted_at) <= repeatAfter;
          });
          if (!due.length) continue;
          // A reason alerted while another was open stays open; only a client back below the level recovers.
          for (const reason of due)
            await connection.execute(
              `insert into health_alerts (client_id, code, kind, alerted_at, recovered_at) values (?, ?, ?, ?, null)
               on conflict (client_id, code, kind) do update set alerted_at = excluded.alerted_at, recovered_at = null`,
              [row.client_id, reason.code, reason.kind ?? '', now],
            );
          const codes = due.map((reason) => reason.code);
          for (const { email } of recipients)
            mail.push({ kind: 'health-alert', email, clientId: row.client_id, codes });
          posts.push({ event: 'alert', clientId: row.client_id, codes });
          alerted++;
        } else {
          await connection.execute(
            `update health_alerts set recovered_at = ? where client_id = ? and recovered_at is null`,
            [now, row.client_id],
          );
          if (row.uninstalled) continue;
          for (const { email } of recipients) mail.push({ kind: 'health-recovered', email, clientId: row.client_id });
          posts.push({ event: 'recovered', clientId: row.client_id });
          recovered++;
        }
      }
      await this.jobs.sendMany('mail', mail, { em });
      if (this.config.ALERT_WEBHOOK_URL) await this.jobs.sendMany('alert-webhook', posts, { em });
      return { alerts: alerted, recoveries: recovered };
    });
  }

  /** The daily digest: one mail per user who receives alerts, when some client (its app installed) is not "Em dia". */
  async digest(): Promise<{ clients: number; recipients: number }> {
    const connection = this.orm.em.getConnection();
    const [{ troubled }] = await connection.execute<{ troubled: number }[]>(
      `select count(*)::int as troubled from client_health h join clients c on c.id = h.client_id
       where h.health <> 'ok' and c.sync_state <> 'disconnected'`,
    );
    if (!troubled) return { clients: 0, recipients: 0 };
    const recipients = await connection.execute<{ email: string }[]>(
      `select email from users where receives_alerts and is_active order by email`,
    );
    await this.jobs.sendMany(
      'mail',
      recipients.map(({ email }) => ({ kind: 'health-digest', email })),
    );
    if (this.config.ALERT_WEBHOOK_URL) await this.jobs.send('alert-webhook', { event: 'digest' });
    return { clients: troubled, recipients: recipients.length };
  }

  /** The clients' health as the mails name it: one client's, or (none given) every one not "Em dia", worst first. */
  async facts(clientId?: string): Promise<ClientHealthFacts[]> {
    const rows = await this.orm.em
      .getConnection()
      .execute<{ client_id: string; client_name: string; health: Health; reasons: HealthReason[] }[]>(
        clientId
          ? `select client_id, client_name, health, reasons from client_health where client_id = ?`
          : `select h.client_id, h.client_name, h.health, h.reasons from client_health h
           join clients c on c.id = h.client_id
           where h.health <> 'ok' and c.sync_state <> 'disconnected'
           order by h.severity desc, h.health_since, h.client_name`,
        clientId ? [clientId] : [],
      );
    return rows.map((row) => ({
      clientId: row.client_id,
      name: row.client_name,
      health: row.health,
      reasons: row.reasons.map(({ code, text, since }) => ({ code, text, since })),
    }));
  }
}
