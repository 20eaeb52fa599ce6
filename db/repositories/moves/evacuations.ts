import { sql } from 'kysely';
import {
  ACTIVE_EVACUATION_STATES,
  type EvacuationPolicy,
  type EvacuationState,
} from '../../../domain/evacuations/states.js';
import type { ConvergencePolicy } from '../../../domain/migrations/convergence.js';
import type { ListRequest } from '../../../domain/pagination.js';
import type { Database } from '../../database.js';
import { type KeysetOrder, readKeysetPage } from '../../keyset.js';

export interface NewEvacuation {
  readonly id: string;
  readonly hypervisorId: string;
  readonly policy: EvacuationPolicy;
  readonly workflowId: string;
  readonly requestedBy: string;
  readonly reason: string | null;
  readonly maintenanceBefore: boolean;
  /** A backend's drain: its instances' disks on `from` move to `to`. Absent: the hypervisor's. */
  readonly backends?: { readonly from: string; readonly to: string };
  /** A restore: the evacuation whose moved instances it brings home to `hypervisorId`. */
  readonly restores?: string;
  /** The convergence policy its migrations take (a hypervisor's drain); absent: none recorded. */
  readonly convergence?: ConvergencePolicy;
}

export async function insertEvacuation(db: Database, evacuation: NewEvacuation): Promise<void> {
  const { policy } = evacuation;
  await db
    .insertInto('evacuations')
    .values({
      id: evacuation.id,
      hypervisor_id: evacuation.hypervisorId,
      mode: policy.mode,
      max_parallel: policy.maxParallel,
      max_parallel_per_target: policy.maxParallelPerTarget,
      on_failure: policy.onFailure,
      max_attempts: policy.maxAttempts,
      workflow_id: evacuation.workflowId,
      requested_by: evacuation.requestedBy,
      reason: evacuation.reason,
      maintenance_before: evacuation.maintenanceBefore,
      convergence: evacuation.convergence ? JSON.stringify(evacuation.convergence) : null,
      ...(evacuation.backends
        ? { kind: 'backend', from_backend: evacuation.backends.from, to_backend: evacuation.backends.to }
        : {}),
      ...(evacuation.restores ? { kind: 'restore', restores: evacuation.restores } : {}),
    })
    .execute();
}

const evacuationRows = (db: Database) =>
  db
    .selectFrom('evacuations as e')
    .innerJoin('hypervisors as h', 'h.id', 'e.hypervisor_id')
    .selectAll('e')
    .select('h.name as hypervisor_name');

export async function findEvacuation(db: Database, evacuationId: string) {
  return evacuationRows(db).where('e.id', '=', evacuationId).executeTakeFirst();
}

export type EvacuationRow = NonNullable<Awaited<ReturnType<typeof findEvacuation>>>;

/** The evacuation holding the hypervisor now, if one does. */
export async function findActiveEvacuationOf(db: Database, hypervisorId: string) {
  return evacuationRows(db)
    .where('e.hypervisor_id', '=', hypervisorId)
    .where('e.state', 'in', ACTIVE_EVACUATION_STATES)
    .executeTakeFirst();
}

/**
 * Moves the evacuation's state when it is in one of `from` (a compare-and-set); false when it was
 * not. An ending state stamps `finished_at`.
 */
export async function moveEvacuationState(
  db: Database,
  evacuationId: string,
  from: readonly EvacuationState[],
  to: EvacuationState,
  failure?: Record<string, unknown>,
): Promise<boolean> {
  const ended = !ACTIVE_EVACUATION_STATES.includes(to);
  const result = await db
    .updateTable('evacuations')
    .set({
      state: to,
      updated_at: sql`now()`,
      ...(ended ? { finished_at: sql`coalesce(finished_at, now())` } : {}),
      ...(failure ? { failure: JSON.stringify(failure) } : {}),
    })
    .where('id', '=', evacuationId)
    .where('state', 'in', [...from, to])
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export interface EvacuationFilters {
  readonly state?: EvacuationState;
  readonly hypervisorId?: string;
}

const EVACUATION_ORDER: KeysetOrder = { at: 'e.created_at', id: 'e.id', idType: 'uuid' };

/** Newest first, by keyset (db/keyset.ts); the filters combine. */
export async function listEvacuations(db: Database, filters: EvacuationFilters, request: ListRequest) {
  let base = db.selectFrom('evacuations as e');
  if (filters.state) base = base.where('e.state', '=', filters.state);
  if (filters.hypervisorId) base = base.where('e.hypervisor_id', '=', filters.hypervisorId);
  const page = await readKeysetPage(db, EVACUATION_ORDER, request, base.select('e.id'), base);
  const ids = page.rows.map((r) => r.id);
  const found = ids.length === 0 ? [] : await evacuationRows(db).where('e.id', 'in', ids).execute();
  const byId = new Map(found.map((row) => [row.id, row]));
  const rows = ids.flatMap((id) => byId.get(id) ?? []);
  return { rows, total: page.total, totalEstimated: page.totalEstimated, next: page.next };
}

/** The policy an evacuation's run follows, as its row holds it. */
export const policyOf = (
  row: Pick<
    EvacuationRow,
    'mode' | 'max_parallel' | 'max_parallel_per_target' | 'on_failure' | 'max_attempts'
  >,
): EvacuationPolicy => ({
  mode: row.mode,
  maxParallel: row.max_parallel,
  maxParallelPerTarget: row.max_parallel_per_target,
  onFailure: row.on_failure,
  maxAttempts: row.max_attempts,
});
