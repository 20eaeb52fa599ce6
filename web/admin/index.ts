import { Hono } from 'hono';
import { timing } from 'hono/timing';
import * as assets from './assets/routes.js';
import type { PageEnv } from './context.js';
import { renderError } from './errors.js';
import * as migrationList from './migrations/list/page.js';
import * as migrationAct from './migrations/view/act.js';
import * as migrationView from './migrations/view/page.js';
import { routes } from './paths.js';
import * as login from './session/login.js';
import * as logout from './session/logout.js';
import * as wizard from './wizard/page.js';
import * as wizardStart from './wizard/start.js';

/**
 * The admin pages (SPEC.md §4 "Admin pages", docs/admin-pages.md), mounted at /admin/cloudsvc
 * before the admin API: a page answers a browser's request and hands any other on to the API.
 * Pages call services and render the admin API's serializers, never repositories.
 */
export function adminPages(): Hono<PageEnv> {
  const app = new Hono<PageEnv>({ strict: false });
  // Each page says how long the server took to make it (Server-Timing: the browser's developer
  // tools show it; the bench's admin-pages part reads it).
  const serverTiming = timing({ totalDescription: 'Server time' });
  for (const path of Object.values(routes)) app.use(path, serverTiming);
  for (const page of [assets, login, logout, migrationList, migrationView, migrationAct, wizard, wizardStart])
    page.register(app);
  app.onError((error, c) => renderError(c, error));
  return app;
}

export { takesForm } from './paths.js';
