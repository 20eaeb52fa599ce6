import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { ApiError, notFound } from '../../domain/errors.js';
import type { AppEnv } from '../../http/context.js';
import { CONSOLE_SCRIPT } from './client-script.js';

const require = createRequire(import.meta.url);
/** xterm.js from its npm package, served from here: no CDN, nothing from elsewhere. */
const assets = {
  'xterm.js': {
    type: 'text/javascript; charset=utf-8',
    body: () => readFileSync(require.resolve('@xterm/xterm/lib/xterm.js'), 'utf8'),
  },
  'xterm.css': {
    type: 'text/css; charset=utf-8',
    body: () => readFileSync(require.resolve('@xterm/xterm/css/xterm.css'), 'utf8'),
  },
  'console.js': { type: 'text/javascript; charset=utf-8', body: () => CONSOLE_SCRIPT },
} as const;

const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function page(gatewayUrl: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Console</title>
<link rel="stylesheet" href="/console/assets/xterm.css">
<style>body{margin:0;background:#111;color:#ddd;font:14px system-ui}#status{padding:6px 10px}#terminal{height:calc(100vh - 32px)}</style>
</head><body data-gateway="${escapeAttribute(gatewayUrl)}">
<div id="status" data-state="connecting">Connecting…</div><div id="terminal"></div>
<script src="/console/assets/xterm.js"></script><script src="/console/assets/console.js"></script>
</body></html>`;
}

/**
 * `/console/{session}`: the page a customer's browser opens for a console session, its connect
 * token in the fragment (`/console/{uuid}#<token>`, the session's `console_url`). It holds nothing
 * of the session; its script connects to the gateway (CONSOLE_GATEWAY_URL), which the page's
 * content security policy is the only place it may connect to.
 */
export function registerConsolePage(app: OpenAPIHono<AppEnv>): void {
  app.get('/console/assets/:name', (c) => {
    const name = c.req.param('name');
    // Own names only: `constructor` or `toString` is every object's, and no asset.
    if (!Object.hasOwn(assets, name)) throw notFound();
    const asset = assets[name as keyof typeof assets];
    return c.body(asset.body(), 200, { 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=3600' });
  });
  app.get('/console/:session', (c) => {
    if (!z.string().uuid().safeParse(c.req.param('session')).success) throw notFound();
    const gateway = c.get('deps').config.CONSOLE_GATEWAY_URL;
    if (!gateway)
      throw new ApiError('SVC-CONFIG-503', {
        detail: 'No console gateway is configured (CONSOLE_GATEWAY_URL).',
      });
    return c.html(page(gateway), 200, {
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
      'Content-Security-Policy': `default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src ${new URL(gateway).origin.replace(/^http/, 'ws')} ${gateway}; base-uri 'none'; frame-ancestors 'none'`,
    });
  });
}
