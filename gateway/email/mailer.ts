import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../config';

export interface Mail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** Sends over SMTP when SMTP_HOST is set; otherwise writes the message to the log so a developer can follow its link. */
export class Mailer {
  private readonly transport?: Transporter;

  constructor(
    private readonly config: Config,
    private readonly log: Logger,
  ) {
    if (config.SMTP_HOST) {
      this.transport = nodemailer.createTransport({
        host: config.SMTP_HOST,
        port: config.SMTP_PORT,
        secure: config.SMTP_SSL,
        requireTLS: config.SMTP_TLS && !config.SMTP_SSL,
        ignoreTLS: !config.SMTP_TLS && !config.SMTP_SSL,
        auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD ?? '' } : undefined,
        connectionTimeout: 10_000,
        socketTimeout: 20_000,
      });
    }
  }

  get configured(): boolean {
    return this.transport !== undefined;
  }

  async send(mail: Mail): Promise<void> {
    if (!this.transport) {
      this.log.warn({ to: mail.to, subject: mail.subject, text: mail.text }, 'SMTP is not configured; email not sent');
      return;
    }
    await this.transport.sendMail({
      from: { name: this.config.EMAILS_FROM_NAME, address: this.config.EMAILS_FROM_EMAIL },
      to: mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
    });
  }

  close(): void {
    this.transport?.close();
  }
}
