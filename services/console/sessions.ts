import { randomBytes, randomUUID } from 'node:crypto';
import { endConsoleSessions } from '../../db/repositories/instances/console-endings.js';
import {
  countLiveSessions,
  findConsoleSession,
  findSessionOfInstance,
  insertConsoleSession,
} from '../../db/repositories/instances/console-sessions.js';
import { lockInstance } from '../../db/repositories/instances/instances.js';
import { type Asker, actorUserId } from '../../domain/actors.js';
import { type ConsoleKind, mayOpenConsole } from '../../domain/console/sessions.js';
import { hashToken } from '../../domain/credentials.js';
import { ApiError, notFound } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { instanceInReach } from '../instances/reach.js';
import { consoleOffer } from './offers.js';

/**
 * Opens a console session (SPEC.md §4): bound to the instance and the asker, with a single-use
 * connect token for the gateway, stored as a hash and returned here only. The instance's row lock
 * serializes the count of its live sessions with the insert.
 */
export async function createConsoleSession(
  deps: ServiceDeps,
  asker: Asker,
  request: { instanceId: string; kind: ConsoleKind },
) {
  const offer = await consoleOffer(deps, asker, request.instanceId);
  const gatewayUrl = deps.config.CONSOLE_GATEWAY_URL;
  if (!gatewayUrl)
    throw new ApiError('SVC-CONFIG-503', {
      detail: 'No console gateway is configured (CONSOLE_GATEWAY_URL).',
    });
  const id = randomUUID();
  const connectToken = `cso_${randomBytes(32).toString('base64url')}`;
  await deps.db.transaction().execute(async (trx) => {
    await lockInstance(trx, offer.instance.id);
    const verdict = mayOpenConsole({
      status: offer.instance.status,
      kind: request.kind,
      offered: offer.kinds,
      liveSessions: await countLiveSessions(trx, offer.instance.id),
      maxLive: deps.config.MAX_CONSOLE_SESSIONS_PER_INSTANCE,
    });
    if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
    await insertConsoleSession(trx, {
      id,
      instanceId: offer.instance.id,
      userId: actorUserId(asker)!,
      kind: request.kind,
      connectTokenHash: hashToken(connectToken),
      connectTtlMs: deps.config.CONSOLE_CONNECT_TTL_MS,
      sessionTtlMs: deps.config.CONSOLE_SESSION_TTL_MS,
    });
  });
  const session = (await findConsoleSession(deps.db, id))!;
  return { session, connectToken, gatewayUrl };
}

/** The instance's session, for one who may reach the instance; the standard 404 otherwise. */
export async function sessionInReach(
  deps: Pick<ServiceDeps, 'db'>,
  asker: Asker,
  instanceId: string,
  id: string,
) {
  const instance = await instanceInReach(deps, asker, instanceId);
  const session = await findSessionOfInstance(deps.db, instance.id, id);
  if (!session) throw notFound();
  return session;
}

/**
 * Ends the session `revoked` (its gateway cuts it at its next look at the feed or heartbeat). A
 * session over already is left as it ended: the answer is the session either way.
 */
export async function revokeConsoleSession(
  deps: Pick<ServiceDeps, 'db'>,
  asker: Asker,
  request: { instanceId: string; sessionId: string },
) {
  const session = await sessionInReach(deps, asker, request.instanceId, request.sessionId);
  return revokeSession(deps, session.id);
}

/** Ends the session `revoked` (an administrator's revoke names the session alone); 404 if unknown. */
export async function revokeSession(deps: Pick<ServiceDeps, 'db'>, sessionId: string) {
  await endConsoleSessions(deps.db, 'revoked', (eb) => eb('id', '=', sessionId));
  const session = await findConsoleSession(deps.db, sessionId);
  if (!session) throw notFound();
  return session;
}

/** An instance on its way out, or moved elsewhere, ends its sessions. */
export async function endSessionsOfInstance(
  deps: Pick<ServiceDeps, 'db'>,
  instanceId: string,
  reason: 'instance_deleted' | 'instance_migrated',
): Promise<void> {
  await endConsoleSessions(deps.db, reason, (eb) => eb('instance_id', '=', instanceId));
}
