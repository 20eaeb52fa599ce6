import type { Database } from '../../db/database.js';
import { hypervisorMigrationFacts } from '../../db/repositories/moves/hypervisor-migration-facts.js';
import { instanceMigrationFacts } from '../../db/repositories/moves/migration-facts.js';
import { notFound } from '../../domain/errors.js';
import { type PreflightReport, preflight } from '../../domain/migrations/preflight.js';
import type { MigrationMode } from '../../domain/migrations/states.js';
import type { ServiceDeps } from '../context.js';
import { movePolicy } from '../moves/settings.js';
import { sourceBusyBlocker } from './source-limit.js';

export interface PreflightRequest {
  readonly instanceId: string;
  readonly targetId?: string | undefined;
  readonly mode: MigrationMode;
}

/**
 * The facts preflight judges, read (only read) from the database, and whether one more move may
 * leave the source now (SOURCE_BUSY; checked again under lock as the migration is recorded).
 */
export async function readPreflight(
  db: Database,
  config: Parameters<typeof movePolicy>[0] & Parameters<typeof sourceBusyBlocker>[1],
  request: PreflightRequest,
) {
  const instance = await instanceMigrationFacts(db, request.instanceId);
  if (!instance) throw notFound();
  const hypervisors = await hypervisorMigrationFacts(db);
  const source = hypervisors.find((h) => h.id === instance.row.hypervisor_id);
  const report: PreflightReport = source
    ? preflight({
        instance: instance.facts,
        source,
        hypervisors,
        mode: request.mode,
        ...(request.targetId ? { targetId: request.targetId } : {}),
        policy: movePolicy(config),
      })
    : {
        ok: false,
        mode: request.mode,
        target: null,
        strategy: null,
        blockers: [{ code: 'INSTANCE_NOT_PLACED', detail: 'The instance is not on a hypervisor.' }],
        warnings: [],
        strategies: { LIVE_REQUIRED: null, LIVE_IF_POSSIBLE: null, AUTO: null, COLD: null },
        candidates: [],
        rejected: [],
      };
  const busy = source && (await sourceBusyBlocker(db, config, source));
  if (busy)
    return {
      instance: instance.row,
      source,
      report: { ...report, ok: false, blockers: [...report.blockers, busy] },
    };
  return { instance: instance.row, source, report };
}

/** Preflight (SPEC.md §4): read-only; every blocker and warning, strategies and ranked candidates. */
export async function migrationPreflight(
  deps: Pick<ServiceDeps, 'db' | 'config'>,
  request: PreflightRequest,
): Promise<PreflightReport & { instance_uuid: string; source: { id: string; name: string } | null }> {
  const { instance, source, report } = await readPreflight(deps.db, deps.config, request);
  return {
    ...report,
    instance_uuid: instance.id,
    source: source ? { id: source.id, name: source.name } : null,
  };
}
