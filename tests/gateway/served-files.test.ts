import http from 'node:http';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as they came over the wire: fetch would decompress them behind our back. */
  body: Buffer;
}

function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const FOREVER = 'public, max-age=31536000, immutable';

/** The chunks a built chunk imports statically. */
const staticImports = (file: string) =>
  [...readFileSync(path.join('dist/admin', file), 'utf8').matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)].map(
    ([, name]) => `assets/${name}`,
  );
/** A chunk and every chunk it imports statically. */
const closure = (file: string, needed = new Set<string>()) => {
  if (needed.has(file)) return needed;
  needed.add(file);
  staticImports(file).forEach((name) => closure(name, needed));
  return needed;
};
/** The chunk Vite named after a module: `chunk('start')` is assets/start-<hash>.js. */
const chunk = (name: string) => {
  const found = readdirSync('dist/admin/assets').filter((file) => new RegExp(`^${name}-[\\w-]+\\.js$`).test(file));
  expect(found, name).toHaveLength(1);
  return `assets/${found[0]}`;
};
const varies = (answer: RawAnswer) =>
  String(answer.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/);

let t: TestGateway;
let startScript: string;
let mainScript: string;
let identity: Buffer;

beforeAll(async () => {
  // Built before the suites run (`npm test` builds first), as for the explorer's test in docs.test.ts.
  expect(existsSync('dist/admin.built'), 'build the admin first: npm run build').toBe(true);
  t = await startTestGateway();
  const page = await rawGet(`${t.url}/`);
  const src = /<script type="module"[^>]* src="(\/assets\/admin-[^"]+\.js)"/.exec(page.body.toString());
  expect(src, page.body.toString()).not.toBeNull();
  startScript = src![1];
  // The page's script is a small start that loads the app's code: the largest of the files it names is the one
  // whose size compression matters for.
  const named = [...readFileSync(path.join('dist/admin', startScript), 'utf8').matchAll(/assets\/[\w.-]+\.js/g)];
  const sized = named.map(([file]) => ({ file: `/${file}`, size: statSync(path.join('dist/admin', file)).size }));
  mainScript = sized.sort((a, b) => b.size - a.size)[0].file;
  identity = readFileSync(path.join('dist/admin', mainScript));
});
afterAll(() => t?.close());

describe("the admin's main script", () => {
  it('is sent as built, with its length and type, to a client that asks for no encoding', async () => {
    const answer = await rawGet(t.url + mainScript);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
    expect(Number(answer.headers['content-length'])).toBe(identity.length);
    expect(answer.body.equals(identity)).toBe(true);
    expect(answer.headers['cache-control']).toBe(FOREVER);
    expect(varies(answer)).toContain('accept-encoding');
  });

  it.each([
    ['br', 'br', zlib.brotliDecompressSync],
    ['gzip', 'gzip', zlib.gunzipSync],
    // What browsers send: every encoding equally wanted; brotli is the smaller.
    ['gzip, deflate, br, zstd', 'br', zlib.brotliDecompressSync],
    // Brotli refused outright.
    ['br;q=0, gzip', 'gzip', zlib.gunzipSync],
  ])(
    'asked with Accept-Encoding "%s", is sent %s-compressed and decompresses to the same bytes',
    async (accept, encoding, decompress) => {
      const answer = await rawGet(t.url + mainScript, { 'Accept-Encoding': accept });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      const onDisk = path.join('dist/admin', `${mainScript}.${encoding === 'gzip' ? 'gz' : 'br'}`);
      expect(answer.body.length).toBe(statSync(onDisk).size);
      expect(answer.body.length).toBeLessThan(identity.length / 3);
      expect(decompress(answer.body).equals(identity)).toBe(true);
      expect(answer.headers['cache-control']).toBe(FOREVER);
      expect(varies(answer)).toContain('accept-encoding');
    },
  );

  it('carries the protections every answer has, and is not sent again to a browser that has it', async () => {
    const answer = await rawGet(t.url + mainScript, { 'Accept-Encoding': 'br' });
    expect(answer.headers['content-security-policy']).toContain("default-src 'self'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-request-id']).toBeTruthy();
    const again = await rawGet(t.url + mainScript, {
      'Accept-Encoding': 'br',
      'If-None-Match': String(answer.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['cache-control']).toBe(FOREVER);
  });

  it('answers HEAD with the headers alone', async () => {
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .request(t.url + mainScript, { method: 'HEAD', headers: { 'Accept-Encoding': 'gzip' } }, resolve)
        .on('error', reject)
        .end(),
    );
    answer.resume();
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(Number(answer.headers['content-length'])).toBe(statSync(path.join('dist/admin', `${mainScript}.gz`)).size);
  });

  it('is sent as built when the client accepts only identity', async () => {
    const answer = await rawGet(t.url + mainScript, { 'Accept-Encoding': 'identity' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.equals(identity)).toBe(true);
  });
});

describe('pages that name the hashed files', () => {
  it.each(['/', '/clientes', '/index.html'])(
    '%s is the admin page, never kept without asking again',
    async (address) => {
      const answer = await rawGet(t.url + address, { Accept: 'text/html' });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.body.toString()).toContain(startScript);
      expect(answer.headers['cache-control']).toMatch(/no-cache|no-store/);
    },
  );

  it.each([
    ['/', 'br', zlib.brotliDecompressSync],
    ['/clientes', 'gzip', zlib.gunzipSync],
    ['/index.html', 'br', zlib.brotliDecompressSync],
  ])('%s, over 1 KiB, is sent %s-compressed to a browser that accepts it', async (address, encoding, decompress) => {
    const page = readFileSync('dist/admin/index.html');
    expect(page.length).toBeGreaterThan(1024);
    const accept = encoding === 'br' ? 'gzip, deflate, br, zstd' : 'gzip, deflate';
    const answer = await rawGet(t.url + address, { Accept: 'text/html', 'Accept-Encoding': accept });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe(encoding);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.headers['cache-control']).toMatch(/no-cache|no-store/);
    expect(varies(answer)).toContain('accept-encoding');
    expect(answer.body.length).toBeLessThan(page.length / 2);
    expect(decompress(answer.body).equals(page)).toBe(true);
  });

  it.each([
    ['/login', 'login'],
    ['/login/', 'login'],
    ['/recover-password', 'recover-password'],
  ])('%s is the page the build rendered, compressed and never kept without asking again', async (address, name) => {
    const page = readFileSync(`dist/admin/pages/${name}.html`);
    const answer = await rawGet(t.url + address, { Accept: 'text/html', 'Accept-Encoding': 'gzip, deflate, br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['cache-control']).toMatch(/no-cache|no-store/);
    expect(zlib.brotliDecompressSync(answer.body).equals(page)).toBe(true);
    const text = page.toString();
    // Both appearances, and one classic script that names the app's entry to load, not the app itself.
    expect(text).toContain('<template id="prerendered-light">');
    expect(text).toContain('<template id="prerendered-dark">');
    expect(text).toMatch(new RegExp(`<script src="/assets/prerendered-[\\w-]+\\.js" data-entry="${startScript}">`));
    expect(text).not.toMatch(/<script type="module"|rel="modulepreload"/);
  });

  it.each(['/signup', '/reset-password', '/callback'])(
    '%s, which depends on the server or its address, is the admin page',
    async (address) => {
      const answer = await rawGet(t.url + address, { Accept: 'text/html' });
      expect(answer.status).toBe(200);
      expect(answer.body.equals(readFileSync('dist/admin/index.html'))).toBe(true);
    },
  );

  it('the GraphQL explorer opened in a browser is not cached either', async () => {
    const answer = await rawGet(`${t.url}/graphql`, { Accept: 'text/html' });
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toContain('GraphQL explorer');
    expect(answer.headers['cache-control']).toMatch(/no-cache|no-store/);
  });

  it("names the chunks every list screen's first paint needs, and not the data layer, so they load beside the start script", async () => {
    const page = (await rawGet(`${t.url}/clientes`, { Accept: 'text/html' })).body.toString();
    const preloaded = new Set(
      [...page.matchAll(/<link rel="modulepreload"[^>]* href="\/(assets\/[^"]+\.js)"/g)].map(([, file]) => file),
    );
    // The start script imports the app and the list screens dynamically; they and everything they import statically
    // are what a first screen needs.
    const app = closure(chunk('start'));
    // The declared list (clients, items, e-mails) and the one written by hand (users).
    const screens = ['DeclaredList', 'UserList'].map((name) => closure(chunk(name)));
    const shared = [...screens[0]].filter((file) => screens.every((needed) => needed.has(file)));
    const missing = [...app, ...shared].filter((file) => !preloaded.has(file) && `/${file}` !== startScript);
    expect(missing).toEqual([]);
    // What one screen alone needs comes with that screen (preload.ts), not with every first screen.
    const users = chunk('UserList');
    expect(preloaded.has(users)).toBe(false);
    expect([...preloaded].filter((file) => !app.has(file) && !shared.includes(file))).toEqual([]);
    expect([...preloaded].filter((file) => /graphqlProvider/.test(file))).toEqual([]);
  });

  it("keeps a list screen's first code within 300 kB at gzip level 6, without the add, edit and delete dialogs", () => {
    // What /clientes runs before its rows: the start script, the app, and the declared list screen.
    const first = new Set([
      ...closure(startScript.slice(1)),
      ...closure(chunk('start')),
      ...closure(chunk('DeclaredList')),
    ]);
    const gzipped = [...first].reduce(
      (total, file) => total + zlib.gzipSync(readFileSync(path.join('dist/admin', file)), { level: 6 }).length,
      0,
    );
    expect(gzipped).toBeLessThanOrEqual(300_000);
    // The dialogs' modules are chunks of their own, loaded once the rows have been painted.
    for (const name of ['RecordDialog', 'DeleteConfirm']) expect(first.has(chunk(name)), name).toBe(false);
  });

  it.each(['/assets/admin-00000000.js', '/assets/', '/assets/a/b.js', '/assets/.env'])(
    '%s, which the build does not have, is missing, not the admin page',
    async (address) => {
      const answer = await rawGet(t.url + address);
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body.toString())).toEqual({ detail: 'Not Found' });
    },
  );
});

describe('/docs', () => {
  const swaggerDist = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const version = () =>
    (JSON.parse(readFileSync(path.join(swaggerDist, 'package.json'), 'utf8')) as { version: string }).version;

  it('is never cached, and names its scripts by the package version so they can be', async () => {
    const page = await rawGet(`${t.url}/docs`);
    expect(page.headers['cache-control']).toMatch(/no-cache|no-store/);
    const init = await rawGet(`${t.url}/docs/init.js`);
    expect(init.headers['cache-control']).toMatch(/no-cache|no-store/);
    expect(page.body.toString()).toContain(`/docs/assets/${version()}/swagger-ui-bundle.js`);
  });

  it.each([
    [undefined, undefined, (b: Buffer) => b],
    ['gzip, deflate, br', 'br', zlib.brotliDecompressSync],
    ['gzip', 'gzip', zlib.gunzipSync],
    // The same choice as for the admin's files: by quality first.
    ['br;q=0.5, gzip', 'gzip', zlib.gunzipSync],
    ['br;q=0, gzip;q=0', undefined, (b: Buffer) => b],
  ])(
    'sends Swagger UI with Accept-Encoding %s as %s, decompressing to the package file',
    async (accept, encoding, decompress) => {
      const page = (await rawGet(`${t.url}/docs`)).body.toString();
      const bundle = /src="(\/docs\/assets\/[^"]+\/swagger-ui-bundle\.js)"/.exec(page)![1];
      const answer = await rawGet(t.url + bundle, accept ? { 'Accept-Encoding': accept } : {});
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect(decompress(answer.body).equals(readFileSync(path.join(swaggerDist, 'swagger-ui-bundle.js')))).toBe(true);
      expect(answer.headers['cache-control']).toBe(FOREVER);
      expect(varies(answer)).toContain('accept-encoding');
    },
  );

  it.each(['/docs/assets/0.0.0/swagger-ui-bundle.js', `/docs/assets/VERSION/..%2Fexpress%2Fpackage.json`])(
    'answers %s with 404: only this version of the package files',
    async (address) => {
      const answer = await rawGet(t.url + address.replace('VERSION', version()));
      expect(answer.status).toBe(404);
    },
  );
});
