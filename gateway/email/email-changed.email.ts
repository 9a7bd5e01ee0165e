import { escapeHtml, htmlEmail } from './layout';
import type { Mail } from './mailer';

/**
 * Sent to an account's previous address when its email changes, so that a change the owner did not make (a stolen
 * session moving the account to another mailbox) does not go unnoticed.
 */
export function emailChangedEmail(opts: { projectName: string; oldEmail: string; newEmail: string }): Mail {
  const { projectName, oldEmail, newEmail } = opts;
  const subject = `${projectName} - The email of your account was changed`;
  const html = htmlEmail(subject, `${projectName} - Email Changed`, [
    'Hello,',
    `The email of your account was changed from <strong>${escapeHtml(oldEmail)}</strong> to ` +
      `<strong>${escapeHtml(newEmail)}</strong>. From now on you sign in with the new address, and ` +
      'password recovery emails go there.',
    'If you made this change, there is nothing else to do.',
    '<strong>If you did not</strong>, someone else may be using your account: tell an administrator at once, so ' +
      'they can put your address back and end that access.',
  ]);
  const text = `${projectName} - Email Changed

The email of your account was changed from ${oldEmail} to ${newEmail}. From now on you sign in with the new address, and password recovery emails go there.

If you made this change, there is nothing else to do.
If you did not, someone else may be using your account: tell an administrator at once, so they can put your address back and end that access.`;
  return { to: oldEmail, subject, html, text };
}
