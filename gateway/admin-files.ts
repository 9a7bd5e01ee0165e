import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { acceptedEncodings } from './http/encoding';
import { projectRoot } from './paths';
import { messages } from './messages';

/** The admin and the GraphQL explorer as Vite builds them (admin/vite.config.mts). */
export const adminDist = path.join(projectRoot, 'dist', 'admin');

/** Pages that name the current hashed files: a browser must ask again each time, or it runs yesterday's admin. */
const NOT_CACHED = { 'Cache-Control': 'no-cache' };

/** The copies of index.html the build writes (admin/vite.config.mts), by encoding, best first. */
const PAGE_COPIES: Record<string, string> = { br: '.br', gzip: '.gz' };

/** A public page the build wrote already rendered (admin/vite.config.mts, `prerenderPublicPages`): /login, say. */
const PRERENDERED_PAGE = /^\/([a-z][a-z-]*)\/?$/;

/**
 * The admin's page, in the best encoding the browser accepts that the build made (a page under 1 KiB has no copies):
 * it is asked for again on every visit, ahead of everything else the first screen loads. A public page the build
 * rendered is answered with its own page (pages/<name>.html), which shows it before any of the app's code runs.
 */
function sendAdminPage(req: Request, res: Response) {
  const name = PRERENDERED_PAGE.exec(req.path)?.[1];
  const rendered = name && path.join(adminDist, 'pages', `${name}.html`);
  const index = rendered && existsSync(rendered) ? rendered : path.join(adminDist, 'index.html');
  if (!existsSync(index)) {
    res.type('text').send('The admin is not built yet: run `npm run build`.');
    return;
  }
  res.vary('Accept-Encoding');
  for (const encoding of acceptedEncodings(req, Object.keys(PAGE_COPIES))) {
    const copy = index + (PAGE_COPIES[encoding] ?? '');
    if (encoding !== 'identity' && !existsSync(copy)) continue;
    const headers: Record<string, string> = { ...NOT_CACHED, 'Content-Type': 'text/html; charset=utf-8' };
    if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
    return res.sendFile(copy, { headers });
  }
}

/**
 * The admin's page and screens. Its hashed files (assets/) are answered before (http/admin-assets.ts): Vite names
 * each after a hash of its content, so a browser may keep one for a year without asking again, and the build writes
 * the .br and .gz copies sent to browsers that accept them.
 */
export function adminFiles(): Router {
  const router = Router();
  // What is left under /assets (another method, a folder) is missing, not a screen's address: the history fallback
  // below would answer it with HTML.
  router.use('/assets', (_req, res) => {
    res.status(404).json({ detail: messages.notFound });
  });
  router.get('/index.html', sendAdminPage);
  // Whatever else Vite wrote (the explorer's page, files from a public folder) keeps no fixed name per content.
  router.use(
    express.static(adminDist, {
      index: false,
      cacheControl: false,
      setHeaders: (res) => res.setHeader('Cache-Control', NOT_CACHED['Cache-Control']),
    }),
  );
  // History fallback: every screen's address answers with the admin app, which routes it.
  router.get(/.*/, sendAdminPage);
  return router;
}

/**
 * GET /graphql from a browser (asking for HTML, no query in the address): the GraphQL explorer's page, or a JSON 404
 * as for an unknown address when it is not `served` (PUBLIC_API_DOCS).
 */
export function explorerPage(served: boolean): RequestHandler {
  const explorer = path.join(adminDist, 'graphiql', 'index.html');
  return (req, res, next) => {
    if (!req.accepts('html') || req.query.query !== undefined) return next();
    if (!served) return res.status(404).json({ detail: messages.notFound });
    if (existsSync(explorer)) return res.sendFile(explorer, { headers: NOT_CACHED });
    res.type('text').send('The GraphQL explorer is part of the admin build: run `npm run build`.');
  };
}
