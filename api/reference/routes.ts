import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { html } from 'hono/html';
import { notFound } from '../../domain/errors.js';
import type { AppEnv } from '../../http/context.js';
import { registerChangelog } from './changelog.js';
import { DOCUMENT_NAMES, DOCUMENTS, type DocumentName } from './openapi.js';
import { REFERENCE_SCRIPT } from './script.js';

const require = createRequire(import.meta.url);
const dist = (file: string) => () => readFileSync(require.resolve(`swagger-ui-dist/${file}`), 'utf8');

/** Swagger UI from its npm package, served from here: the page works with no internet access. */
const ASSETS: Readonly<Record<string, { type: string; body: () => string }>> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', body: dist('swagger-ui.css') },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', body: dist('swagger-ui-bundle.js') },
  'reference.js': { type: 'text/javascript; charset=utf-8', body: () => REFERENCE_SCRIPT },
};

const PAGE_HEADERS = {
  'Cache-Control': 'no-cache',
  // Swagger UI styles elements inline and draws its icons as data: images; its try-it calls this API.
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "font-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
} as const;

const isDocument = (name: string): name is DocumentName => (DOCUMENT_NAMES as string[]).includes(name);

/**
 * The API reference (docs/api.md): `/docs` lists the five documents, `/docs/{name}` renders one with
 * Swagger UI (`swagger-ui-dist`), its operations tried out against this very API.
 */
export function registerReference(app: OpenAPIHono<AppEnv>): void {
  app.get('/docs/assets/:file', (c) => {
    const file = c.req.param('file');
    const asset = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!asset) throw notFound();
    return c.body(asset.body(), 200, { 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=3600' });
  });
  app.get('/docs', (c) =>
    c.html(
      html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cloudsvc API reference</title></head>
<body><main><h1>cloudsvc API reference</h1><ul>
${DOCUMENT_NAMES.map(
  (name) =>
    html`<li><a href="/docs/${name}">${DOCUMENTS[name].title}</a> (<a href="/openapi/${name}.json">/openapi/${name}.json</a>)</li>`,
)}
</ul></main></body></html>`,
      200,
      PAGE_HEADERS,
    ),
  );
  registerChangelog(app);
  app.get('/docs/:name', (c) => {
    const name = c.req.param('name');
    if (!isDocument(name)) throw notFound();
    return c.html(
      html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${DOCUMENTS[name].title}</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body data-spec="/openapi/${name}.json"><div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/assets/reference.js"></script>
</body></html>`,
      200,
      PAGE_HEADERS,
    );
  });
}
