import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adminAssets, type AssetResult } from '../../gateway/http/admin-assets';

let dir: string;
const script = Buffer.from(`export const answer = ${JSON.stringify('x'.repeat(4000))};\n`);

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'admin-assets-'));
  writeFileSync(path.join(dir, 'app-abc123.js'), script);
  writeFileSync(path.join(dir, 'app-abc123.js.br'), zlib.brotliCompressSync(script));
  writeFileSync(path.join(dir, 'app-abc123.js.gz'), zlib.gzipSync(script));
  // Below the build's 1 kB threshold: no compressed copies.
  writeFileSync(path.join(dir, 'tiny-def456.js'), 'export {};\n');
  writeFileSync(path.join(dir, 'style-0a1b2c.css'), 'body{margin:0}\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const request = (headers: Record<string, string> = {}) => ({ headers }) as unknown as IncomingMessage;
const header = (result: AssetResult, name: string) => {
  if (result.status === 404) return undefined;
  const { headers } = result.file;
  const at = headers.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === name.toLowerCase());
  return at === -1 ? undefined : headers[at + 1];
};
const bodyOf = (result: AssetResult) => (result.status === 404 ? undefined : result.file.body);

describe('adminAssets', () => {
  it('leaves anything but a file name under /assets to the next handler', () => {
    const { handler } = adminAssets(dir, 1 << 20);
    for (const address of ['/assets/', '/assets/a/b.js', '/assets/..%2Fpackage.json', '/assets/.env', '/x/app.js']) {
      let passed = false;
      handler({ path: address, headers: {} } as never, {} as never, () => (passed = true));
      expect(passed, address).toBe(true);
    }
  });

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['identity', undefined],
    ['', undefined],
  ])('asked with Accept-Encoding "%s", sends the %s copy', async (accept, encoding) => {
    const result = await adminAssets(dir, 1 << 20).answer(
      request({ 'accept-encoding': accept }),
      '/assets/app-abc123.js',
    );
    expect(result.status).toBe(200);
    expect(header(result, 'Content-Encoding')).toBe(encoding);
    const decode = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync }[encoding ?? ''] ?? ((b: Buffer) => b);
    expect(decode(bodyOf(result)!).equals(script)).toBe(true);
    expect(header(result, 'Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect(header(result, 'Vary')).toBe('Accept-Encoding');
  });

  it('sends a file the build did not compress as it is, with its type', async () => {
    const assets = adminAssets(dir, 1 << 20);
    const tiny = await assets.answer(request({ 'accept-encoding': 'br, gzip' }), '/assets/tiny-def456.js');
    expect(header(tiny, 'Content-Encoding')).toBeUndefined();
    expect(bodyOf(tiny)!.toString()).toBe('export {};\n');
    expect(tiny.status === 200 && tiny.file.contentType).toBe('text/javascript; charset=utf-8');
    const css = await assets.answer(request(), '/assets/style-0a1b2c.css');
    expect(css.status === 200 && css.file.contentType).toBe('text/css; charset=utf-8');
  });

  it('answers "not modified" to the ETag it gave, and the file to any other', async () => {
    const assets = adminAssets(dir, 1 << 20);
    const first = await assets.answer(request({ 'accept-encoding': 'br' }), '/assets/app-abc123.js');
    const etag = header(first, 'ETag')!;
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await assets.answer(
      request({ 'accept-encoding': 'br', 'if-none-match': etag }),
      '/assets/app-abc123.js',
    );
    expect(again.status).toBe(304);
    // The gzip copy is another representation, with its own ETag.
    const gzip = await assets.answer(
      request({ 'accept-encoding': 'gzip', 'if-none-match': etag }),
      '/assets/app-abc123.js',
    );
    expect(gzip.status).toBe(200);
    expect(header(gzip, 'ETag')).not.toBe(etag);
  });

  it('reads a file once and keeps it: it is still sent after it left the disk', async () => {
    const assets = adminAssets(dir, 1 << 20);
    const accept = request({ 'accept-encoding': 'br' });
    const before = await assets.answer(accept, '/assets/app-abc123.js');
    rmSync(path.join(dir, 'app-abc123.js.br'));
    const after = await assets.answer(accept, '/assets/app-abc123.js');
    expect(after.status).toBe(200);
    expect(bodyOf(after)!.equals(bodyOf(before)!)).toBe(true);
  });

  it('keeps no more than its budget: the least recently sent file is read again', async () => {
    // Room for one compressed copy of the script, not for two files.
    const assets = adminAssets(dir, zlib.brotliCompressSync(script).length + 600);
    const accept = request({ 'accept-encoding': 'br' });
    await assets.answer(accept, '/assets/app-abc123.js');
    await assets.answer(accept, '/assets/tiny-def456.js');
    await assets.answer(accept, '/assets/style-0a1b2c.css');
    rmSync(path.join(dir, 'app-abc123.js.br'));
    rmSync(path.join(dir, 'app-abc123.js'));
    expect((await assets.answer(accept, '/assets/app-abc123.js')).status).toBe(404);
  });

  it('answers 404 for a name the build does not have, and for one added later reads it then', async () => {
    const assets = adminAssets(dir, 1 << 20);
    expect((await assets.answer(request({ 'accept-encoding': 'br' }), '/assets/later-999.js')).status).toBe(404);
    writeFileSync(path.join(dir, 'next-999.js'), 'export const next = 1;\n');
    const added = await assets.answer(request({ 'accept-encoding': 'br' }), '/assets/next-999.js');
    expect(added.status).toBe(200);
  });
});
