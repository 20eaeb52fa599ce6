import {
  endConsoleSessions,
  endingsAfter,
  latestEnding,
  sweepConsoleSessions,
} from '../../db/repositories/instances/console-endings.js';
import {
  endedAmong,
  gatewayRelayUrl,
  heartbeatGateway,
} from '../../db/repositories/instances/console-gateways.js';
import { markConnected, redeemConnectToken } from '../../db/repositories/instances/console-sessions.js';
import { hashToken } from '../../domain/credentials.js';
import { ApiError } from '../../domain/errors.js';
import type { ServiceDeps } from '../context.js';
import { openConsoleStream } from './streams.js';

// The console gateway's side (the internal API): it redeems connect tokens, reports its relays,
// heartbeats what it holds, and follows the feed of endings to cut what must end.

/** The most endings one look at the feed returns; the gateway asks again from the new cursor. */
export const ENDINGS_PAGE = 500;

/**
 * Redeems a connect token once, for this gateway: the session it opens, what to relay, and the
 * token the instance's agent will present when its stream reaches the gateway (streams.ts).
 * Refused alike (SVC-CONSOLE-401) when unknown, used, past its time or ended; refused before the
 * token is spent (409) while the gateway has not said where agents reach it.
 */
export async function validateConnectToken(
  deps: ServiceDeps,
  gatewayCredentialId: string,
  request: { connectToken: string; correlationId: string | null },
) {
  const relayUrl = await gatewayRelayUrl(deps.db, gatewayCredentialId);
  if (!relayUrl)
    throw new ApiError('SVC-CONFLICT-409', {
      detail: 'This gateway has not said where agents reach it: send relay_url in its heartbeat first.',
    });
  const session = await redeemConnectToken(deps.db, hashToken(request.connectToken), gatewayCredentialId);
  if (!session) throw new ApiError('SVC-CONSOLE-401');
  const streamToken = await openConsoleStream(deps, session, relayUrl, request.correlationId);
  return { session, streamToken };
}

/**
 * The gateway's report of a session's relay: `connected` once it is up, `disconnected` once the
 * browser or the instance's end went away (the session then ends: its token was single-use).
 * A session not this gateway's, or over, is refused with 409 (SVC-CONFLICT-409).
 */
export async function reportSessionState(
  deps: Pick<ServiceDeps, 'db'>,
  gatewayCredentialId: string,
  report: { sessionId: string; state: 'connected' | 'disconnected' },
): Promise<void> {
  const changed =
    report.state === 'connected'
      ? await markConnected(deps.db, report.sessionId, gatewayCredentialId)
      : (
          await endConsoleSessions(deps.db, 'disconnected', (eb) =>
            eb.and([eb('id', '=', report.sessionId), eb('gateway_credential_id', '=', gatewayCredentialId)]),
          )
        ).length > 0;
  if (!changed)
    throw new ApiError('SVC-CONFLICT-409', {
      detail: 'The session is not one this gateway relays, or it has ended.',
    });
}

/**
 * The gateway is alive and holds `sessionIds`: they are kept alive, sessions past their time end,
 * and the answer names the held ones that have ended (to be cut now).
 */
export async function gatewayHeartbeat(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  gatewayCredentialId: string,
  beat: { relayUrl: string | null; sessionIds: readonly string[] },
): Promise<{ session: string; reason: string }[]> {
  await heartbeatGateway(deps.db, gatewayCredentialId, beat);
  await sweepConsoleSessions(deps.db, deps.config.CONSOLE_HEARTBEAT_TIMEOUT_MS);
  return endedAmong(deps.db, gatewayCredentialId, beat.sessionIds);
}

/**
 * The endings after `cursor`, oldest first: every session ended since, for whatever reason
 * (sessions past their time are ended first, so an expiry is in the feed within one look). No
 * cursor: none, and the feed's newest position to follow from.
 */
export async function revocationFeed(deps: Pick<ServiceDeps, 'db' | 'config'>, cursor: string | undefined) {
  await sweepConsoleSessions(deps.db, deps.config.CONSOLE_HEARTBEAT_TIMEOUT_MS);
  if (cursor === undefined) return { endings: [], cursor: await latestEnding(deps.db) };
  const endings = await endingsAfter(deps.db, cursor, ENDINGS_PAGE);
  return { endings, cursor: endings.at(-1)?.id ?? cursor };
}
