import path from 'node:path';
import express, { Router } from 'express';

const swaggerDist = path.dirname(require.resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Sistema de Integração - API docs</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
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

/** The interactive OpenAPI page, served from swagger-ui-dist's files: it works offline. */
export function docsPage(): Router {
  const router = Router();
  router.get('/', (_req, res) => {
    res.type('html').send(page);
  });
  router.get('/init.js', (_req, res) => {
    res.type('application/javascript').send(init);
  });
  router.use('/assets', express.static(swaggerDist, { index: false, maxAge: '1d' }));
  return router;
}
