import { sql } from 'kysely';
import type { ConsoleSessionState } from '../../domain/console/sessions.js';
import type { Database } from '../database.js';

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
export async function endedAmong(db: Database, gatewayCredentialId: string, sessionIds: readonly string[]) {
  if (sessionIds.length === 0) return [];
  const ended = await db
    .selectFrom('console_sessions')
    .select('id')
    .where('id', 'in', sessionIds)
    .where((eb) => eb.or([eb('state', '=', 'ended'), eb('gateway_credential_id', '!=', gatewayCredentialId)]))
    .execute();
  return ended.map((r) => r.id);
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
