import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { AuthService } from '../users/auth.service';
import type { Config } from '../config';
import { emailChangedEmail } from '../email/email-changed.email';
import { PROJECT_NAME } from '../email/layout';
import type { Mail, Mailer } from '../email/mailer';
import { newAccountEmail } from '../email/new-account.email';
import { healthAlertEmail, healthDigestEmail, healthLink, healthRecoveredEmail } from '../email/health.email';
import type { HealthAlerts } from '../health/health-alerts';
import { User } from '../users/user.entity';
import type { MailJob } from '../queue/payloads';
import type { QueueDefinition } from '../queue/queue';

// One attempt covers connecting, the greeting and the message (the transport's own timeouts are 10 to 20 s).
const ATTEMPT_SECONDS = 120;

export interface MailJobDeps {
  orm: MikroORM;
  config: Config;
  auth: AuthService;
  mailer: Mailer;
  log: Logger;
  healthAlerts: HealthAlerts;
}

/**
 * The `mail` queue: renders each message when it is sent (a reset link is made then, so none is ever stored) and
 * hands it to SMTP; a refusal or an unreachable server fails the attempt, retried with exponential backoff.
 */
export function mailQueue({ orm, config, auth, mailer, log, healthAlerts }: MailJobDeps): QueueDefinition<'mail'> {
  /** A user who still receives alerts (one who chose otherwise since the alert was queued gets nothing). */
  const receives = async (email: string) => {
    const user = await orm.em.fork().findOne(User, { email });
    return !!user?.isActive && user.receivesAlerts;
  };
  const compose = async (job: MailJob): Promise<Mail | undefined> => {
    switch (job.kind) {
      case 'password-recovery': {
        const user = await orm.em.fork().findOne(User, { email: job.email });
        return user?.isActive ? auth.recoveryEmail(user) : undefined;
      }
      case 'new-account':
        return newAccountEmail({
          projectName: PROJECT_NAME,
          email: job.email,
          loginLink: new URL('/login', config.FRONTEND_HOST).toString(),
        });
      case 'email-changed':
        return emailChangedEmail({ projectName: PROJECT_NAME, oldEmail: job.email, newEmail: job.newEmail });
      case 'health-alert':
      case 'health-recovered': {
        if (!(await receives(job.email))) return undefined;
        const [client] = await healthAlerts.facts(job.clientId);
        if (!client) return undefined;
        const link = healthLink(config.FRONTEND_HOST, job.clientId);
        return job.kind === 'health-alert'
          ? healthAlertEmail({ projectName: PROJECT_NAME, to: job.email, client, codes: job.codes, link })
          : healthRecoveredEmail({ projectName: PROJECT_NAME, to: job.email, client, link });
      }
      case 'health-digest': {
        if (!(await receives(job.email))) return undefined;
        const clients = await healthAlerts.facts();
        if (!clients.length) return undefined;
        return healthDigestEmail({
          projectName: PROJECT_NAME,
          to: job.email,
          clients,
          link: healthLink(config.FRONTEND_HOST),
        });
      }
    }
  };

  return {
    name: 'mail',
    options: {
      retryLimit: config.MAIL_RETRY_LIMIT,
      retryDelay: config.MAIL_RETRY_DELAY_SECONDS,
      retryBackoff: config.MAIL_RETRY_BACKOFF,
      expireInSeconds: ATTEMPT_SECONDS,
    },
    concurrency: config.MAIL_CONCURRENCY,
    handle: async (job) => {
      if (mailer.mode === 'off') {
        // Nothing is rendered, so no reset link exists to leak; the job records why nothing went out.
        log.warn({ job: job.id, kind: job.data.kind }, 'email not sent: SMTP is not configured');
        return { sent: false, reason: 'SMTP is not configured' };
      }
      const mail = await compose(job.data);
      if (!mail)
        return {
          sent: false,
          reason: job.data.kind.startsWith('health-')
            ? 'no active account receiving alerts has this email, or nothing is left to say'
            : 'no active account has this email',
        };
      await mailer.send(mail);
      log.info({ job: job.id, kind: job.data.kind, attempt: job.retryCount + 1 }, 'email sent');
      return { sent: true };
    },
  };
}
