import type { Database } from '../database.js';
import { releaseTargetReservation } from '../repositories/moves/migration-handover.js';
import { recordMigrationState } from '../repositories/moves/migration-states.js';
import { releaseMoveLease } from '../repositories/moves/move-leases.js';
import { voidTransferTokens } from '../repositories/moves/transfer-tokens.js';

/**
 * A migration request whose run could not be started (the workflow service did not answer): in
 * one transaction, what the request took is given back (the target's reservation, the transfer
 * token, the lease) and the migration ends ROLLED_BACK with the failure that says why, from
 * REQUESTED, so that its record tells what happened. Its operation is abandoned by the caller.
 */
export async function endUnstartedMigration(
  db: Database,
  migrationId: string,
  failure: { code: string; message: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await releaseTargetReservation(trx, migrationId);
    await voidTransferTokens(trx, migrationId);
    await releaseMoveLease(trx, migrationId);
    const detail = { failed_step: 'REQUESTED', ...failure };
    await recordMigrationState(trx, migrationId, 'ROLLING_BACK', detail, {
      failed_step: 'REQUESTED',
      failure,
    });
    await recordMigrationState(trx, migrationId, 'ROLLED_BACK', detail, { finished: true });
  });
}
