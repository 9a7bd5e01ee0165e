import type http from 'node:http';

/** Text made safe for HTML. */
export const escape = (value: unknown) =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A whole page in the demo's one plain style. */
export function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>${head}
<style>
  :root { color-scheme: light dark; } a { color: #0b5cad; }
  body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 1rem; max-width: 72rem; color: #1d2330; }
  h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
  table { border-collapse: collapse; width: 100%; } .wrap { overflow-x: auto; }
  th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid #dde; vertical-align: top; }
  input[type=text] { width: 6.5rem; } input[name=nome] { width: 14rem; }
  .note { background: #eef6ee; border: 1px solid #b9dcb9; padding: .5rem .75rem; border-radius: 4px; }
  .error { background: #fbeaea; border-color: #e4b4b4; }
  .muted { color: #667; } img { border-radius: 4px; vertical-align: middle; }
  @media (max-width: 600px) { input[type=text] { width: 4.5rem; } input[name=nome] { width: 12rem; } }
  @media (prefers-color-scheme: dark) {
    a { color: #8ab4f8; }
    body { background: #15181f; color: #e5e8ef; } th, td { border-color: #334; } .muted { color: #99a; }
    .note { background: #1f3321; border-color: #355c38; } .error { background: #3a1f1f; border-color: #6b3535; }
  }
</style></head><body>
${body}
</body></html>`;
}

export function send(res: http.ServerResponse, status: number, type: string, body: string, headers = {}) {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers }).end(body);
}

/** A request's form body (`application/x-www-form-urlencoded`), at most 64 KiB. */
export function formOf(req: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 65_536) reject(new Error('The form is too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}
