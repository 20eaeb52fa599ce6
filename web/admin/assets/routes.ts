import type { Hono } from 'hono';
import { notFound } from '../../../domain/errors.js';
import type { PageEnv } from '../context.js';
import { routes } from '../paths.js';
import { LIVE_SCRIPT } from './live.js';
import { ADMIN_CSS } from './styles.js';

const ASSETS: Readonly<Record<string, { type: string; body: string }>> = {
  'admin.css': { type: 'text/css; charset=utf-8', body: ADMIN_CSS },
  'live.js': { type: 'text/javascript; charset=utf-8', body: LIVE_SCRIPT },
};

/** The pages' style sheet and script, served from here: nothing from elsewhere, nothing secret. */
export function register(app: Hono<PageEnv>): void {
  app.get(routes.asset, (c) => {
    const name = c.req.param('name');
    const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (!asset) throw notFound();
    return c.body(asset.body, 200, {
      'Content-Type': asset.type,
      'Cache-Control': 'public, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
    });
  });
}
