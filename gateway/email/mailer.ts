import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../config';

export interface Mail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/**
 * How mail leaves this process:
 * - `smtp`: through SMTP_HOST;
 * - `log`: no SMTP outside production: the message, links included, is written to the log so a developer can
 *   follow a recovery link;
 * - `off`: no SMTP in production: nothing is sent and nothing usable is logged (a reset link in a log is a live
 *   credential); the process says so once when it starts.
 */
export type MailMode = 'smtp' | 'log' | 'off';

export class Mailer {
  readonly mode: MailMode;
  /** The SMTP transport, made with the first message: nodemailer loads only in a process that sends mail. */
  private transport?: Promise<Transporter>;

  constructor(
    private readonly config: Config,
    private readonly log: Logger,
  ) {
    this.mode = config.SMTP_HOST ? 'smtp' : config.NODE_ENV === 'production' ? 'off' : 'log';
    if (this.mode === 'off') {
      log.warn('SMTP_HOST is not set: password recovery and account emails cannot be sent');
    }
  }

  private transportOf(): Promise<Transporter> {
    const config = this.config;
    this.transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        host: config.SMTP_HOST,
        port: config.SMTP_PORT,
        secure: config.SMTP_SSL,
        requireTLS: config.SMTP_TLS && !config.SMTP_SSL,
        ignoreTLS: !config.SMTP_TLS && !config.SMTP_SSL,
        auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD ?? '' } : undefined,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      }),
    );
    return this.transport;
  }

  /** Hands the message to the SMTP server (or, in `log` mode, to the log). Throws when the server refuses it. */
  async send(mail: Mail): Promise<void> {
    if (this.mode === 'off') throw new Error('SMTP is not configured');
    if (this.mode === 'log') {
      this.log.warn({ to: mail.to, subject: mail.subject, text: mail.text }, 'SMTP is not configured; email not sent');
      return;
    }
    const transport = await this.transportOf();
    await transport.sendMail({
      from: { name: this.config.EMAILS_FROM_NAME, address: this.config.EMAILS_FROM_EMAIL },
      to: mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
    });
  }

  close(): void {
    void this.transport?.then((transport) => transport.close()).catch(() => undefined);
  }
}
