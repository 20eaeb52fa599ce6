import { endAdminSession } from '../../db/repositories/accounts/admin-sessions.js';
import { recordActivity } from '../../db/repositories/events/activity-log.js';
import type { ServiceDeps } from '../context.js';
import type { AdminSession } from './resolve.js';

/** Logs a session out: its cookie opens nothing from now on, in any process. */
export async function closeAdminSession(deps: Pick<ServiceDeps, 'db'>, session: AdminSession): Promise<void> {
  await endAdminSession(deps.db, session.id);
  await recordActivity(deps.db, {
    userId: session.userId,
    actor: `admin:${session.userId}`,
    event: 'admin.session_closed',
    detail: {},
  });
}
