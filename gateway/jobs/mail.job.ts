import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { AuthService } from '../users/auth.service';
import type { Config } from '../config';
import { emailChangedEmail } from '../email/email-changed.email';
import { PROJECT_NAME } from '../email/layout';
import type { Mail, Mailer } from '../email/mailer';
import { newAccountEmail } from '../email/new-account.email';
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
}

/**
 * The `mail` queue: renders each message when it is sent (a reset link is made then, so none is ever stored) and
 * hands it to SMTP; a refusal or an unreachable server fails the attempt, retried with exponential backoff.
 */
export function mailQueue({ orm, config, auth, mailer, log }: MailJobDeps): QueueDefinition<'mail'> {
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
      if (!mail) return { sent: false, reason: 'no active account has this email' };
      await mailer.send(mail);
      log.info({ job: job.id, kind: job.data.kind, attempt: job.retryCount + 1 }, 'email sent');
      return { sent: true };
    },
  };
}
