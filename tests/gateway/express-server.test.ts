import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { expressServer } from '../../gateway/http/server';

/**
 * The server makes requests and responses that already have the app's prototypes, so Express never has to change an
 * object's prototype (which V8 cannot optimise afterwards), and Express's own helpers work on them as on any.
 */
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(app: express.Express, listener?: Parameters<typeof expressServer>[2]): Promise<string> {
  const server = expressServer(app, {}, listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => new Promise((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('expressServer', () => {
  it('makes requests and responses with the app’s prototypes before Express sees them', async () => {
    const app = express();
    const before: boolean[] = [];
    app.get('/x', (req, res) => {
      res.setHeader('X-Test', 'yes');
      res.status(201).json({
        request: Object.getPrototypeOf(req) === app.request,
        response: Object.getPrototypeOf(res) === app.response,
        host: req.get('host'),
        ip: req.ip,
      });
    });
    const url = await serve(app, (req, res) => {
      before.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response);
      app(req, res);
    });
    const answer = await fetch(`${url}/x`);
    expect(answer.status).toBe(201);
    expect(answer.headers.get('x-test')).toBe('yes');
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await answer.json()).toEqual({
      request: true,
      response: true,
      host: new URL(url).host,
      ip: '127.0.0.1',
    });
    expect(before).toEqual([true, true]);
  });

  it('reads req.ip through the app’s trust proxy setting once a request, however often it is asked', async () => {
    const app = express();
    const asked: string[] = [];
    app.set('trust proxy', (address: string, hop: number) => {
      asked.push(`${address}@${hop}`);
      return hop < 1;
    });
    app.get('/ip', (req, res) => {
      res.json([req.ip, req.ip, req.ip]);
    });
    const url = await serve(app);
    const first = await fetch(`${url}/ip`, { headers: { 'X-Forwarded-For': '203.0.113.9, 198.51.100.7' } });
    expect(await first.json()).toEqual(['198.51.100.7', '198.51.100.7', '198.51.100.7']);
    expect(asked).toEqual(['127.0.0.1@0', '198.51.100.7@1']);
    const second = await fetch(`${url}/ip`, { headers: { 'X-Forwarded-For': '192.0.2.4' } });
    expect(await second.json()).toEqual(['192.0.2.4', '192.0.2.4', '192.0.2.4']);
    // The last address is the answer whatever the setting says of it: only the socket's peer is asked about.
    expect(asked).toEqual(['127.0.0.1@0', '198.51.100.7@1', '127.0.0.1@0']);
  });

  it('keeps Express’s own helpers and a mounted app’s, and gives the objects back their prototypes after it', async () => {
    const app = express();
    const inner = express();
    inner.locals.name = 'inner';
    inner.get('/hello', (req, res) => {
      res.type('text').send(`${req.app.locals.name} ${req.baseUrl} ${String(req.query.q)}`);
    });
    app.use('/mounted', inner);
    app.get('/after', (_req, res) => res.json({ back: Object.getPrototypeOf(res) === app.response }));
    const url = await serve(app);
    const mounted = await fetch(`${url}/mounted/hello?q=1`);
    expect(await mounted.text()).toBe('inner /mounted 1');
    expect(mounted.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await (await fetch(`${url}/after`)).json()).toEqual({ back: true });
  });

  it('keeps each response in V8’s fast layout, not a dictionary (the built server, in a process that can ask V8)', () => {
    const built = path.resolve('dist/gateway/http/server.js');
    expect(existsSync(built), 'run `npm run build:gateway` first').toBe(true);
    // A hundred requests answered by Express, each response asked about once Node has written and closed it.
    const script = `
      const app = require('express')();
      const layouts = [];
      app.get('/', (req, res) => {
        res.once('finish', () => layouts.push([%HasFastProperties(req), %HasFastProperties(res)]));
        res.json({ ok: true });
      });
      const server = require(${JSON.stringify(built)}).expressServer(app, {});
      server.listen(0, '127.0.0.1', async () => {
        const url = 'http://127.0.0.1:' + server.address().port + '/';
        for (let i = 0; i < 100; i++) await (await fetch(url)).json();
        server.close();
        setImmediate(() => process.stdout.write(JSON.stringify(layouts.slice(-3))));
      });
    `;
    const output = execFileSync(process.execPath, ['--allow-natives-syntax', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual([
      [true, true],
      [true, true],
      [true, true],
    ]);
  });
});
