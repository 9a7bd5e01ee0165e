/** The product's name as every email shows it. */
export const PROJECT_NAME = 'Sistema de Integração';

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A button-styled link, for the one action an email leads to. */
export const buttonLink = (href: string, label: string) =>
  `<a href="${escapeHtml(href)}" style="display: inline-block; padding: 10px 18px; background: #009688; color: #ffffff; border-radius: 4px; text-decoration: none;">${escapeHtml(label)}</a>`;

/** The HTML frame shared by every email: a title in the product's colour over the paragraphs given (already HTML). */
export function htmlEmail(subject: string, heading: string, paragraphs: string[], lang = 'en'): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: Arial, sans-serif; color: #1a202c;">
  <h1 style="color: #009688; font-size: 20px;">${escapeHtml(heading)}</h1>
${paragraphs.map((p) => `  <p>${p}</p>`).join('\n')}
</body></html>`;
}
