import { ADMIN_BASE } from '../../wire/paths.js';

/**
 * Where the admin pages live (SPEC.md §4 "Admin pages"), under the admin API's base. A page's
 * forms post back to the page's own path, so no page path shares a method and path with the API.
 */
export const pages = {
  login: `${ADMIN_BASE}/login`,
  logout: `${ADMIN_BASE}/logout`,
  migrations: `${ADMIN_BASE}/migrations`,
  migration: (id: string) => `${ADMIN_BASE}/migrations/${id}/view`,
  wizard: (instanceId: string) => `${ADMIN_BASE}/instances/view/${instanceId}/migrate/wizard`,
  asset: (name: string) => `${ADMIN_BASE}/assets/${name}`,
} as const;

/** The routes as the page app registers them (relative to ADMIN_BASE). */
export const routes = {
  login: '/login',
  logout: '/logout',
  migrations: '/migrations',
  migration: '/migrations/:migration/view',
  wizard: '/instances/view/:instance/migrate/wizard',
  asset: '/assets/:name',
} as const;

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const FORM_PATHS = new RegExp(
  `^${ADMIN_BASE}/(?:login|logout|migrations/${UUID}/view|instances/view/${UUID}/migrate/wizard)/?$`,
);

/** A page that takes an HTML form's body (the APIs take JSON only: api/middleware/request-context.ts). */
export const takesForm = (path: string): boolean => FORM_PATHS.test(path);

/**
 * Where to go after signing in: a page of ours, never another site (`//host`, `/\host`, a scheme),
 * whatever the login form was given.
 */
export function pageAfterLogin(next: string | undefined): string {
  if (next?.startsWith(`${ADMIN_BASE}/`) && !/[\\\s]|\/\/|%2f|%5c/i.test(next.slice(1))) return next;
  return pages.migrations;
}
