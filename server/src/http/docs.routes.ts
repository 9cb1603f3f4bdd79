import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';
import { buildOpenApiDocument } from './openapi.js';
import { DOCS_CONTENT_SECURITY_POLICY } from './security-headers.js';

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parley API</title><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="docs"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;

const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#docs', deepLinking: true, tryItOutEnabled: true });`;

/** `GET /v1/openapi.json` (generated once) and the `/docs` page that renders it, offline. */
export function docsRoutes(publicUrl: string): Router {
  const router = Router();
  const document = buildOpenApiDocument(publicUrl);
  router.get('/v1/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.use('/docs/assets', express.static(swaggerUiDir, { maxAge: '1d', index: false }));
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(DOCS_INIT);
  });
  router.get('/docs', (_req, res) => {
    res.set('content-security-policy', DOCS_CONTENT_SECURITY_POLICY).type('html').send(DOCS_PAGE);
  });
  return router;
}
