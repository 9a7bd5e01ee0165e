import { buttonLink, escapeHtml, htmlEmail } from './layout';
import type { Mail } from './mailer';

/** The password recovery message: the body POST /password-recovery-html-content shows is this `html`. */
export function resetPasswordEmail(opts: {
  projectName: string;
  email: string;
  link: string;
  validHours: number;
}): Mail {
  const { projectName, email, link, validHours } = opts;
  const subject = `${projectName} - Password recovery for user ${email}`;
  const html = htmlEmail(subject, `${projectName} - Password Recovery`, [
    'Hello,',
    `We received a request to recover the password for your account <strong>${escapeHtml(email)}</strong>.`,
    'Reset your password by clicking the button below:',
    buttonLink(link, 'Reset password'),
    `Or copy this link into your browser: <br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`,
    `This link expires in ${validHours} hours.`,
    'If you did not request a password recovery you can ignore this email.',
  ]);
  const text = `${projectName} - Password Recovery

We received a request to recover the password for your account ${email}.
Reset your password with this link (valid for ${validHours} hours):
${link}

If you did not request a password recovery you can ignore this email.`;
  return { to: email, subject, html, text };
}
