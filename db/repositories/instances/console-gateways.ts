import { sql } from 'kysely';
import type { ConsoleSessionState } from '../../../domain/console/sessions.js';
import type { Database } from '../../database.js';

// The console gateways as their heartbeats tell them: alive, where agents reach them, and what they hold.

/** A gateway's heartbeat: it is alive, with `relayUrl`, and the named sessions still live and its own are kept alive. */
export async function heartbeatGateway(
  db: Database,
  gatewayCredentialId: string,
  beat: { relayUrl: string | null; sessionIds: readonly string[] },
): Promise<void> {
  await db
    .insertInto('console_gateways')
    .values({
      credential_id: gatewayCredentialId,
      relay_url: beat.relayUrl,
      sessions: beat.sessionIds.length,
    })
    .onConflict((oc) =>
      oc.column('credential_id').doUpdateSet({
        relay_url: beat.relayUrl,
        sessions: beat.sessionIds.length,
        last_heartbeat_at: sql`now()`,
      }),
    )
    .execute();
  if (beat.sessionIds.length === 0) return;
  await db
    .updateTable('console_sessions')
    .set({ last_heartbeat_at: sql`now()` })
    .where('id', 'in', beat.sessionIds)
    .where('gateway_credential_id', '=', gatewayCredentialId)
    .where('state', 'in', ['validated', 'connected'] satisfies ConsoleSessionState[])
    .execute();
}

/** Which of the sessions a gateway named are over for it: ended, or never its own. */
export async function endedAmong(
  db: Database,
  gatewayCredentialId: string,
  sessionIds: readonly string[],
): Promise<{ session: string; reason: string }[]> {
  if (sessionIds.length === 0) return [];
  const ended = await db
    .selectFrom('console_sessions')
    .select(['id', 'end_reason'])
    .where('id', 'in', sessionIds)
    .where((eb) => eb.or([eb('state', '=', 'ended'), eb('gateway_credential_id', '!=', gatewayCredentialId)]))
    .execute();
  // Why each ended, as the feed says it; one held by another gateway is this one's no more.
  return ended.map((r) => ({ session: r.id, reason: r.end_reason ?? 'held_elsewhere' }));
}

/** Where agents reach the gateway to relay consoles, as its last heartbeat said; null if none. */
export async function gatewayRelayUrl(db: Database, gatewayCredentialId: string): Promise<string | null> {
  const row = await db
    .selectFrom('console_gateways')
    .select('relay_url')
    .where('credential_id', '=', gatewayCredentialId)
    .executeTakeFirst();
  return row?.relay_url ?? null;
}
