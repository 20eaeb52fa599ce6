import { quotaVerdict } from '../../domain/backups.js';
import { ApiError } from '../../domain/errors.js';
import type { Config } from '../../platform/config.js';
import type { Database } from '../database.js';
import { countArtifactsHeld } from '../repositories/storage/artifacts.js';
import { type BackupRow, insertBackup } from '../repositories/storage/backups.js';

/**
 * A new backup row (`creating`) within the per-instance limit. Runs in the transaction that began
 * the backup operation, after its compare-and-set locked the instance: every backup is made under
 * such an operation, so the count cannot change before the commit.
 */
export async function holdNewBackup(
  trx: Database,
  config: Pick<Config, 'MAX_BACKUPS_PER_INSTANCE'>,
  backup: { id: string; instanceId: string; userId: string; name: string; policyId: string | null },
): Promise<BackupRow> {
  const verdict = quotaVerdict(
    'backup',
    await countArtifactsHeld(trx, 'backup', backup.instanceId),
    config.MAX_BACKUPS_PER_INSTANCE,
  );
  if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
  return insertBackup(trx, backup);
}
