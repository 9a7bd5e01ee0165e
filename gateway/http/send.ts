import type { ServerResponse } from 'node:http';

/** An answer written in one call, with the headers the protections have already set (no body for a HEAD). */
export function sendBody(res: ServerResponse, status: number, body: string | Buffer, contentType: string): void {
  if (res.headersSent) return;
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
