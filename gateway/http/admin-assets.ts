import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import mime from 'mime-types';
import Negotiator from 'negotiator';

/** How the admin's hashed files may be kept: Vite names each after a hash of its content. */
export const FOREVER = 'public, max-age=31536000, immutable';

export type AdminAssets = ReturnType<typeof adminAssets>;

/** The copies the build writes beside each hashed file (admin/vite.config.ts), best first where equally wanted. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
type Encoding = (typeof ENCODINGS)[number]['name'] | 'identity';

/** A file as it is sent: its bytes in one encoding, and the headers that describe them. */
export interface AssetAnswer {
  body: Buffer;
  contentType: string;
  /** Everything else: caching, validators, the encoding. */
  headers: string[];
}

/** The answer to a GET or HEAD of /assets/<name>: a file, "not modified", or missing. */
export type AssetResult = { status: 200; file: AssetAnswer } | { status: 304; file: AssetAnswer } | { status: 404 };

/** A file name under /assets as Vite writes them: no folder, nothing hidden. */
const ASSET_NAME = /^\/assets\/([\w-][\w.-]*)$/;

/**
 * The admin's hashed files (dist/admin/assets), answered from memory: each file, in the encoding a browser takes, is
 * read from disk once and kept in an LRU of at most `maxBytes`. A first screen asks for about twenty files at once
 * over a browser's six connections; read, checked and streamed from disk each time (serve-static), they kept the
 * gateway busy long enough to hold the screen back by tens of milliseconds.
 *
 * A file's content never changes under its name, so what is kept stays right; a build made while the gateway runs
 * adds names, which are read on their first request.
 */
export function adminAssets(dir: string, maxBytes: number) {
  const kept = new LRUCache<string, AssetAnswer | false>({
    maxSize: maxBytes,
    // A missing file is kept too, as a small entry: a client asking for an old chunk again does not reach the disk.
    sizeCalculation: (file) => (file ? file.body.length + 512 : 64),
    fetchMethod: (key) => {
      const [name, encoding] = key.split('\0') as [string, Encoding];
      return load(dir, name, encoding);
    },
  });

  /** Whether this request is one for a hashed file: a GET or HEAD of /assets/<name>. */
  const handles = (method: string | undefined, urlPath: string) =>
    (method === 'GET' || method === 'HEAD') && ASSET_NAME.test(urlPath);

  /** The file the request asks for, in the best encoding it accepts and the build made. */
  async function answer(req: IncomingMessage, urlPath: string): Promise<AssetResult> {
    const name = ASSET_NAME.exec(urlPath)![1];
    const accepted = new Negotiator(req).encodings(['br', 'gzip', 'identity'], { preferred: ['br', 'gzip'] });
    // identity refused outright still gets the file as built, as serve-static answers.
    for (const encoding of [...accepted, 'identity'] as Encoding[]) {
      const file = await kept.fetch(`${name}\0${encoding}`);
      if (file === undefined) continue;
      if (file === false) {
        if (encoding === 'identity') return { status: 404 };
        continue;
      }
      const etag = file.headers[file.headers.indexOf('ETag') + 1];
      return { status: req.headers['if-none-match'] === etag ? 304 : 200, file };
    }
    return { status: 404 };
  }

  return { handles, answer };
}

/** One file in one encoding, with its headers; false when the build made no such file. */
async function load(dir: string, name: string, encoding: Encoding): Promise<AssetAnswer | false> {
  const suffix = ENCODINGS.find((e) => e.name === encoding)?.suffix ?? '';
  const file = path.join(dir, name + suffix);
  let body: Buffer;
  let modified: Date;
  try {
    [body, { mtime: modified }] = await Promise.all([readFile(file), stat(file)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR')
      return false;
    throw error;
  }
  const headers = [
    'Cache-Control',
    FOREVER,
    'Vary',
    'Accept-Encoding',
    'Last-Modified',
    modified.toUTCString(),
    // As serve-static names a file: its size and time (both of this encoding's copy).
    'ETag',
    `W/"${body.length.toString(16)}-${modified.getTime().toString(16)}"`,
  ];
  if (encoding !== 'identity') headers.push('Content-Encoding', encoding);
  return { body, contentType: mime.contentType(path.extname(name)) || 'application/octet-stream', headers };
}
