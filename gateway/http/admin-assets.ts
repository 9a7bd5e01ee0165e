import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import mime from 'mime-types';
import { sendBody } from '../http/send';
import { acceptedEncodings, FOREVER } from './encoding';

export type AdminAssets = ReturnType<typeof adminAssets>;

/** The copies the build writes beside each hashed file (admin/vite.config.mts), by encoding, best first. */
const SUFFIXES: Record<string, string> = { br: '.br', gzip: '.gz', identity: '' };
const COMPRESSED = ['br', 'gzip'];

/** A file as it is sent: its bytes in one encoding, and the headers that describe them. */
export interface AssetAnswer {
  body: Buffer;
  contentType: string;
  etag: string;
  /** Everything else: caching, validators, the encoding. */
  headers: string[];
}

/** The answer to a GET or HEAD of /assets/<name>: the file, "not modified" (with the file's headers), or missing. */
export type AssetResult = { status: 200 | 304; file: AssetAnswer } | { status: 404 };

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
      const [name, encoding] = key.split('\0');
      return load(dir, name, encoding);
    },
  });

  /** The file the request asks for, in the best encoding it accepts and the build made. */
  async function answer(req: IncomingMessage, urlPath: string): Promise<AssetResult> {
    const name = ASSET_NAME.exec(urlPath)![1];
    // A file too small to compress has no copies: the next encoding accepted, at last the file as built.
    for (const encoding of acceptedEncodings(req, COMPRESSED)) {
      const file = await kept.fetch(`${name}\0${encoding}`);
      if (file) return { status: req.headers['if-none-match'] === file.etag ? 304 : 200, file };
    }
    return { status: 404 };
  }

  /** GET and HEAD of /assets/<name>; anything else under /assets goes on (and is answered 404). */
  const handler: RequestHandler = (req, res, next) => {
    if (!ASSET_NAME.test(req.path)) return next();
    answer(req, req.path).then((result) => {
      if (res.headersSent) return;
      if (result.status === 404) return next();
      for (let i = 0; i < result.file.headers.length; i += 2)
        res.setHeader(result.file.headers[i], result.file.headers[i + 1]);
      if (result.status === 304) {
        res.statusCode = 304;
        res.end();
        return;
      }
      sendBody(res, 200, result.file.body, result.file.contentType);
    }, next);
  };

  return { answer, handler };
}

/** One file in one encoding, with its headers; false when the build made no such file. */
async function load(dir: string, name: string, encoding: string): Promise<AssetAnswer | false> {
  const file = path.join(dir, name + SUFFIXES[encoding]);
  let body: Buffer;
  let modified: Date;
  try {
    [body, { mtime: modified }] = await Promise.all([readFile(file), stat(file)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR')
      return false;
    throw error;
  }
  // As serve-static names a file: its size and time (both of this encoding's copy).
  const etag = `W/"${body.length.toString(16)}-${modified.getTime().toString(16)}"`;
  const headers = [
    'Cache-Control',
    FOREVER,
    'Vary',
    'Accept-Encoding',
    'Last-Modified',
    modified.toUTCString(),
    'ETag',
    etag,
  ];
  if (encoding !== 'identity') headers.push('Content-Encoding', encoding);
  return { body, contentType: mime.contentType(path.extname(name)) || 'application/octet-stream', etag, headers };
}
