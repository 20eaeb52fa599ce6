import { sql } from 'kysely';
import type { Database } from '../../database.js';

export async function insertTransferToken(
  db: Database,
  token: {
    migrationId: string;
    disk: string;
    tokenHash: string;
    receiverHypervisorId: string;
    ttlMs: number;
  },
): Promise<void> {
  await db
    .insertInto('transfer_tokens')
    .values({
      migration_id: token.migrationId,
      disk: token.disk,
      token_hash: token.tokenHash,
      receiver_hypervisor_id: token.receiverHypervisorId,
      expires_at: sql`now() + ${`${token.ttlMs} milliseconds`}::interval`,
    })
    .execute();
}

/** Where the sending side can be reached for this disk, sealed, for the redeemer only. */
export async function recordTransferEndpoint(
  db: Database,
  migrationId: string,
  disk: string,
  endpointSealed: string,
): Promise<void> {
  await db
    .updateTable('transfer_tokens')
    .set({ endpoint_sealed: endpointSealed })
    .where('migration_id', '=', migrationId)
    .where('disk', '=', disk)
    .execute();
}

/**
 * Redeems a token once: only by the receiving hypervisor, before it expires, not voided, never
 * twice (the compare-and-set on `redeemed_at`). Undefined when any of these fails.
 */
export async function redeemTransferToken(db: Database, tokenHash: string, hypervisorId: string) {
  return db
    .updateTable('transfer_tokens')
    .set({ redeemed_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where('receiver_hypervisor_id', '=', hypervisorId)
    .where('redeemed_at', 'is', null)
    .where('voided_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .where('endpoint_sealed', 'is not', null)
    .returning(['migration_id', 'disk', 'endpoint_sealed'])
    .executeTakeFirst();
}

/** A migration that ended voids its tokens: none can be redeemed afterwards. */
export async function voidTransferTokens(db: Database, migrationId: string): Promise<void> {
  await db
    .updateTable('transfer_tokens')
    .set({ voided_at: sql`now()` })
    .where('migration_id', '=', migrationId)
    .where('voided_at', 'is', null)
    .execute();
}
