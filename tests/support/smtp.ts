import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface TestSmtpOptions {
  /** Requires this login. */
  auth?: { user: string; pass: string };
  /** How long the server takes to accept each message, as a slow mail server does. */
  delayMs?: number;
  /** Recipients refused with a permanent 550, as a server refuses an unknown mailbox. */
  reject?: (address: string) => boolean;
}

export interface TestSmtp {
  port: number;
  messages: ParsedMail[];
  /** Waits for the next message addressed to `to`. */
  next(to: string, timeoutMs?: number): Promise<ParsedMail>;
  /** The first message addressed to `to`, whether it already arrived or is still to come. */
  waitFor(to: string, timeoutMs?: number): Promise<ParsedMail>;
  /** Messages received so far for `to`. */
  to(address: string): ParsedMail[];
  /** Stops listening (an outage: connections are refused); what arrived is kept. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export const recipientsOf = (mail: ParsedMail) => [mail.to].flat().flatMap((a) => a?.value.map((v) => v.address) ?? []);

/** A real SMTP server on 127.0.0.1 that keeps what it receives (optionally requiring a login). */
export async function startTestSmtp(options: TestSmtpOptions | { user: string; pass: string } = {}): Promise<TestSmtp> {
  const { auth, delayMs = 0, reject } = 'user' in options ? { auth: options } : (options as TestSmtpOptions);
  const messages: ParsedMail[] = [];
  const waiters: { to: string; resolve: (m: ParsedMail) => void }[] = [];

  const create = () =>
    new SMTPServer({
      secure: false,
      closeTimeout: 1000,
      disabledCommands: auth ? ['STARTTLS'] : ['AUTH', 'STARTTLS'],
      authOptional: !auth,
      allowInsecureAuth: true,
      onAuth(login, _session, callback) {
        if (auth && login.username === auth.user && login.password === auth.pass)
          return callback(null, { user: login.username });
        callback(new Error('Invalid username or password'));
      },
      onRcptTo(address, _session, callback) {
        if (reject?.(address.address)) {
          return callback(Object.assign(new Error(`Mailbox ${address.address} does not exist`), { responseCode: 550 }));
        }
        callback();
      },
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => {
            setTimeout(() => {
              messages.push(mail);
              const recipients = recipientsOf(mail);
              for (const w of [...waiters]) {
                if (recipients.includes(w.to)) {
                  waiters.splice(waiters.indexOf(w), 1);
                  w.resolve(mail);
                }
              }
              callback();
            }, delayMs);
          })
          .catch(callback);
      },
    });

  let server = create();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  let listening = true;

  const stop = () =>
    new Promise<void>((resolve) => {
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
    });
  const next = (to: string, timeoutMs = 10_000) =>
    new Promise<ParsedMail>((resolve, rejectWait) => {
      const timer = setTimeout(() => rejectWait(new Error(`no email to ${to} within ${timeoutMs} ms`)), timeoutMs);
      waiters.push({
        to,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  const to = (address: string) => messages.filter((m) => recipientsOf(m).includes(address));
  return {
    port,
    messages,
    next,
    waitFor: async (address, timeoutMs) => to(address)[0] ?? next(address, timeoutMs),
    to,
    stop,
    start: async () => {
      if (listening) return;
      server = create();
      await new Promise<void>((resolve, fail) => {
        server.server.once('error', fail);
        server.listen(port, '127.0.0.1', resolve);
      });
      listening = true;
    },
    close: stop,
  };
}
