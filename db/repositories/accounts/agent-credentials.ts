import { sql } from 'kysely';
import type { Database } from '../../database.js';

/** A hypervisor's agent credentials and the one-time enrollment tokens that get them. */

/** Ends every live credential of a hypervisor's agent (revoke-agent) and its unused enrollment tokens. */
export async function revokeHypervisorCredentials(db: Database, hypervisorId: string): Promise<number> {
  const rows = await db
    .updateTable('credentials')
    .set({ revoked_at: sql`now()` })
    .where('hypervisor_id', '=', hypervisorId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length;
}

/**
 * Spends a one-time enrollment token: the update that marks it used is the check, so two
 * concurrent enrollments with one token cannot both succeed.
 */
export async function consumeEnrollmentToken(
  db: Database,
  tokenHash: string,
): Promise<{ id: string; hypervisorId: string } | undefined> {
  const row = await db
    .updateTable('credentials')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where('type', '=', 'enrollment')
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning(['id', 'hypervisor_id'])
    .executeTakeFirst();
  return row?.hypervisor_id ? { id: row.id, hypervisorId: row.hypervisor_id } : undefined;
}

export async function revokeUnusedEnrollmentTokens(db: Database, hypervisorId: string): Promise<void> {
  await db
    .updateTable('credentials')
    .set({ revoked_at: sql`now()` })
    .where('hypervisor_id', '=', hypervisorId)
    .where('type', '=', 'enrollment')
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}
