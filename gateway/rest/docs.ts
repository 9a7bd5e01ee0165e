import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { Router, type Request, type Response } from 'express';
import { acceptedEncodings, FOREVER } from '../http/encoding';
import { messages } from '../messages';

const swaggerDist = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const swaggerVersion = (JSON.parse(readFileSync(path.join(swaggerDist, 'package.json'), 'utf8')) as { version: string })
  .version;
/** The version is part of the address, so a browser keeps these files until the package changes. */
const assets = `/docs/assets/${swaggerVersion}`;

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Sistema de Integração - API docs</title>
  <link rel="stylesheet" href="${assets}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${assets}/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${assets}/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

// A file of its own, not an inline script, so the Content-Security-Policy can forbid inline scripts.
const init = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  presets: [SwaggerUIBundle.presets.apis],
});`;

const NOT_CACHED = { 'Cache-Control': 'no-cache' };

const COMPRESSIBLE = /\.(js|css|map|json|html|txt)$/;
const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];
// Brotli's top quality takes seconds for Swagger UI's bundle; 9 takes a fraction of that for a few more bytes.
const compressors: Record<Encoding, (input: Buffer) => Promise<Buffer>> = {
  br: (input) =>
    promisify(zlib.brotliCompress)(input, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: input.length,
      },
    }),
  gzip: (input) => promisify(zlib.gzip)(input, { level: 9 }),
};

/**
 * swagger-ui-dist's text files compressed on first request, in the zlib thread pool, and kept: the package does not
 * ship compressed copies, and compressing 1.7 MB for every visitor would cost more than the page itself.
 */
class CompressedFiles {
  private readonly done = new Map<string, Promise<Buffer>>();

  get(file: string, encoding: Encoding): Promise<Buffer> {
    const key = `${encoding} ${file}`;
    let compressed = this.done.get(key);
    if (!compressed) {
      compressed = compressors[encoding](readFileSync(path.join(swaggerDist, file)));
      this.done.set(key, compressed);
      // A failure is not kept: the next request tries again.
      compressed.catch(() => this.done.delete(key));
    }
    return compressed;
  }
}

/** The interactive OpenAPI page, served from swagger-ui-dist's files: it works offline. */
export function docsPage(): Router {
  const router = Router();
  // Only the package's own top-level files are served: no path from the request reaches the file system.
  const files = new Set(
    readdirSync(swaggerDist, { withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => f.name),
  );
  const compressed = new CompressedFiles();

  router.get('/', (_req, res) => {
    res.set(NOT_CACHED).type('html').send(page);
  });
  router.get('/init.js', (_req, res) => {
    res.set(NOT_CACHED).type('application/javascript').send(init);
  });
  router.get(`/assets/${swaggerVersion}/:file`, async (req: Request<{ file: string }>, res: Response, next) => {
    const { file } = req.params;
    if (!files.has(file)) return next();
    res.set('Cache-Control', FOREVER);
    let encoding: Encoding | undefined;
    if (COMPRESSIBLE.test(file)) {
      res.vary('Accept-Encoding');
      const best = acceptedEncodings(req, ENCODINGS)[0];
      if (best !== 'identity') encoding = best as Encoding;
    }
    if (!encoding) return res.sendFile(path.join(swaggerDist, file), { cacheControl: false });
    try {
      const body = await compressed.get(file, encoding);
      res.set('Content-Encoding', encoding).type(path.extname(file)).send(body);
    } catch (error) {
      next(error);
    }
  });
  router.use('/assets', (_req, res) => {
    res.status(404).json({ detail: messages.notFound });
  });
  return router;
}
