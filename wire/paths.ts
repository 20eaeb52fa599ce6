/** The base paths of SPEC.md §4. */
export const CLIENT_BASE = '/api/client/cloud';
export const APPLICATION_BASE = '/api/application/cloudsvc';
export const AGENT_BASE = '/api/cloudsvc/agent';
export const CONSOLE_INTERNAL_BASE = '/api/application/cloudsvc/console/internal';
export const ADMIN_BASE = '/admin/cloudsvc';
