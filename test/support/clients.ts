import createClient from 'openapi-fetch';
import type { paths as AdminPaths } from '../../clients/admin.js';
import type { paths as ApplicationPaths } from '../../clients/application.js';
import type { paths as ClientPaths } from '../../clients/client.js';
import { ADMIN_BASE, APPLICATION_BASE, CLIENT_BASE } from '../../wire/paths.js';

/**
 * The Client and Application APIs as their users' code sees them: openapi-fetch typed by the
 * generated clients, so a test written against them stops compiling when a document changes
 * under it. `origin` is a listening API's URL.
 */
export const clientApi = (origin: string, key: string) =>
  createClient<ClientPaths>({
    baseUrl: `${origin}${CLIENT_BASE}`,
    headers: { Authorization: `Bearer ${key}` },
  });

export const applicationApi = (origin: string, key: string) =>
  createClient<ApplicationPaths>({
    baseUrl: `${origin}${APPLICATION_BASE}`,
    headers: { Authorization: `Bearer ${key}` },
  });

/** The admin JSON routes (migrations, evacuations, storage moves), with an application key. */
export const adminApi = (origin: string, key: string) =>
  createClient<AdminPaths>({
    baseUrl: `${origin}${ADMIN_BASE}`,
    headers: { Authorization: `Bearer ${key}` },
  });
