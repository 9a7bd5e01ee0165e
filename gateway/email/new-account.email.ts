import { buttonLink, escapeHtml, htmlEmail } from './layout';
import type { Mail } from './mailer';

/**
 * Sent when a superuser creates an account, as the FastAPI template does, with the login address. Unlike the
 * template it carries no password: the mail waits in the job table and passes through mail servers, and a password
 * belongs in neither. The person gets it from whoever created the account, or sets one through "Forgot password?".
 */
export function newAccountEmail(opts: { projectName: string; email: string; loginLink: string }): Mail {
  const { projectName, email, loginLink } = opts;
  const subject = `${projectName} - New account for user ${email}`;
  const html = htmlEmail(subject, `${projectName} - New Account`, [
    `Welcome! An account was created for you with the username <strong>${escapeHtml(email)}</strong>.`,
    'Sign in here:',
    buttonLink(loginLink, 'Go to the login page'),
    `Or copy this link into your browser: <br><a href="${escapeHtml(loginLink)}">${escapeHtml(loginLink)}</a>`,
    'Your password is the one chosen by whoever created the account. If you do not have it, use ' +
      '"Forgot password?" on the login page to set one.',
  ]);
  const text = `${projectName} - New Account

Welcome! An account was created for you with the username ${email}.
Sign in here: ${loginLink}

Your password is the one chosen by whoever created the account. If you do not have it, use "Forgot password?" on the login page to set one.`;
  return { to: email, subject, html, text };
}
