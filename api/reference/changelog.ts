import type { OpenAPIHono } from '@hono/zod-openapi';
import { html } from 'hono/html';
import { CHANGELOG_PATH, DEPRECATIONS, type Deprecation } from '../../domain/api-versions/deprecations.js';
import { API_VERSIONS, CURRENT_API_VERSION } from '../../domain/api-versions/versions.js';
import type { AppEnv } from '../../http/context.js';
import { VERSION_CHANGES } from '../../wire/versions/render.js';

const PAGE_HEADERS = {
  'Cache-Control': 'no-cache',
  'Content-Security-Policy': "default-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
} as const;

const what = (d: Deprecation) =>
  d.kind === 'version' ? `Version ${d.version}` : `${d.method.toUpperCase()} ${d.path} (${d.api} API)`;

/**
 * The page a deprecation's `Link: <…>; rel="deprecation"` points to: the versions, what each
 * changed and what is deprecated, from the registries the API answers by (docs/api-changelog.md
 * says the same at length).
 */
export function registerChangelog(app: OpenAPIHono<AppEnv>): void {
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cloudsvc API changelog</title></head>
<body><main><h1>cloudsvc API changelog</h1>
<p>The current version is ${CURRENT_API_VERSION}. Send <code>Cloudsvc-Version: &lt;version&gt;</code> to be answered in another; a key is pinned to the version it was issued in.</p>
<h2>Deprecated</h2><ul>
${DEPRECATIONS.map((d) => html`<li>${what(d)}: deprecated on ${d.deprecatedOn}, served until ${d.sunsetOn}.</li>`)}
</ul>
${[...API_VERSIONS].reverse().map(
  (version) => html`<h2 id="${version}">${version}</h2><ul>
${VERSION_CHANGES.filter((c) => c.version === version).map((c) => html`<li>${c.summary}</li>`)}
${version === API_VERSIONS[0] ? html`<li>The first dated version: the APIs as they were before versions.</li>` : ''}
</ul>`,
)}
</main></body></html>`;
  app.get(CHANGELOG_PATH, (c) => c.html(page, 200, PAGE_HEADERS));
}
