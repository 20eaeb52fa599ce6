import type { Database } from '../../db/database.js';
import { listMigrationsOutOf, lockMigrationHosts } from '../../db/repositories/moves/migration-sources.js';
import { ApiError } from '../../domain/errors.js';
import { mayLeaveHost } from '../../domain/migrations/outbound.js';
import type { Finding } from '../../domain/migrations/preflight.js';
import type { Config } from '../../platform/config.js';

type LimitConfig = Pick<Config, 'MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR'>;

/** The preflight's blocker when the source has no slot free now (read without a lock: advice). */
export async function sourceBusyBlocker(
  db: Database,
  config: LimitConfig,
  source: { id: string; name: string },
): Promise<Finding<'SOURCE_BUSY'> | undefined> {
  const verdict = mayLeaveHost({
    hypervisorName: source.name,
    underWay: await listMigrationsOutOf(db, source.id),
    limit: config.MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR,
  });
  return verdict.ok ? undefined : { code: 'SOURCE_BUSY', detail: verdict.detail };
}

/**
 * In the transaction that records a migration, before its row: both hosts locked, then the moves
 * out of the source counted under that lock, so two requests never both take its last slot.
 * Refused with MIGRATION_SOURCE_BUSY (the transaction rolls back: nothing written).
 */
export async function takeSourceSlot(
  trx: Database,
  config: LimitConfig,
  move: { source: { id: string; name: string }; targetId: string },
): Promise<void> {
  await lockMigrationHosts(trx, [move.source.id, move.targetId]);
  const verdict = mayLeaveHost({
    hypervisorName: move.source.name,
    underWay: await listMigrationsOutOf(trx, move.source.id),
    limit: config.MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR,
  });
  if (!verdict.ok) throw new ApiError(verdict.code, { detail: verdict.detail });
}

/** A request whose one blocker is its busy source is refused as such, so its caller knows to retry. */
export function refuseSourceBusy(blockers: readonly Finding<string>[]): void {
  const [only] = blockers;
  if (blockers.length === 1 && only?.code === 'SOURCE_BUSY')
    throw new ApiError('MIGRATION_SOURCE_BUSY', { detail: only.detail });
}
