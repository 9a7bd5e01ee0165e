import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface TestSmtp {
  port: number;
  messages: ParsedMail[];
  /** Waits for the next message addressed to `to`. */
  next(to: string, timeoutMs?: number): Promise<ParsedMail>;
  /** The first message addressed to `to`, whether it already arrived or is still to come. */
  waitFor(to: string, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives (optionally requiring a login). */
export async function startTestSmtp(auth?: { user: string; pass: string }): Promise<TestSmtp> {
  const messages: ParsedMail[] = [];
  const waiters: { to: string; resolve: (m: ParsedMail) => void }[] = [];
  const recipientsOf = (mail: ParsedMail) => [mail.to].flat().flatMap((a) => a?.value.map((v) => v.address) ?? []);
  const server = new SMTPServer({
    secure: false,
    disabledCommands: auth ? ['STARTTLS'] : ['AUTH', 'STARTTLS'],
    authOptional: !auth,
    allowInsecureAuth: true,
    onAuth(login, _session, callback) {
      if (auth && login.username === auth.user && login.password === auth.pass)
        return callback(null, { user: login.username });
      callback(new Error('Invalid username or password'));
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          const recipients = recipientsOf(mail);
          for (const w of [...waiters]) {
            if (recipients.includes(w.to)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(mail);
            }
          }
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const next = (to: string, timeoutMs = 10_000) =>
    new Promise<ParsedMail>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no email to ${to} within ${timeoutMs} ms`)), timeoutMs);
      waiters.push({
        to,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  return {
    port,
    messages,
    next,
    waitFor: async (to, timeoutMs) => messages.find((m) => recipientsOf(m).includes(to)) ?? next(to, timeoutMs),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
