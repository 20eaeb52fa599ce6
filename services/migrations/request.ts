import { endUnstartedMigration } from '../../db/records/migrations.js';
import type { Actor } from '../../domain/actors.js';
import { WORKFLOW_UNAVAILABLE } from '../../domain/instances/failures.js';
import type { ServiceDeps } from '../context.js';
import { launchMove, refuseBlocked } from '../moves/request.js';
import { type MigrationRequest, recordMigration } from './record.js';
import { refuseSourceBusy } from './source-limit.js';

/**
 * Requests a migration (SPEC.md §3, DESIGN.md): the real preflight first (any blocker refuses it,
 * with every blocker named; a busy source alone, MIGRATION_SOURCE_BUSY; a refused request changes
 * nothing: no record, no signal to any run); then in one transaction the migrate operation's
 * compare-and-set (which refuses a second migration or any operation in progress), the source's
 * slot for a move out (source-limit.ts), the exclusive lease, the migration row with its network
 * plan, and the target's room and the transfer tokens of the disks that move, the root disk and
 * each attached volume (target-holds.ts); after the commit, the workflow start. A target that
 * still holds the copy an earlier migration retains takes the move all the same: that copy stays
 * beside the arriving one until this migration commits (docs/migration.md, "A move back").
 */
export async function requestMigration(
  deps: ServiceDeps,
  actor: Actor,
  request: MigrationRequest,
): Promise<{ migrationId: string; workflowId: string }> {
  const recorded = await recordMigration(deps, actor, request);
  if ('blocked' in recorded) {
    refuseSourceBusy(recorded.blocked);
    refuseBlocked('migration', recorded.blocked);
  }
  await launchMove(deps, recorded, () =>
    endUnstartedMigration(deps.db, recorded.migrationId, WORKFLOW_UNAVAILABLE),
  );
  return { migrationId: recorded.migrationId, workflowId: recorded.plan.workflowId };
}
