import type { Mail } from './mailer';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The password recovery message: the body POST /password-recovery-html-content shows is this `html`. */
export function resetPasswordEmail(opts: {
  projectName: string;
  email: string;
  link: string;
  validHours: number;
}): Mail {
  const { projectName, email, link, validHours } = opts;
  const subject = `${projectName} - Password recovery for user ${email}`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(subject)}</title></head>
<body style="font-family: Arial, sans-serif; color: #1a202c;">
  <h1 style="color: #009688; font-size: 20px;">${escape(projectName)} - Password Recovery</h1>
  <p>Hello,</p>
  <p>We received a request to recover the password for your account <strong>${escape(email)}</strong>.</p>
  <p>Reset your password by clicking the button below:</p>
  <p><a href="${escape(link)}" style="display: inline-block; padding: 10px 18px; background: #009688; color: #ffffff; border-radius: 4px; text-decoration: none;">Reset password</a></p>
  <p>Or copy this link into your browser: <br><a href="${escape(link)}">${escape(link)}</a></p>
  <p>This link expires in ${validHours} hours.</p>
  <p>If you did not request a password recovery you can ignore this email.</p>
</body></html>`;
  const text = `${projectName} - Password Recovery

We received a request to recover the password for your account ${email}.
Reset your password with this link (valid for ${validHours} hours):
${link}

If you did not request a password recovery you can ignore this email.`;
  return { to: email, subject, html, text };
}
