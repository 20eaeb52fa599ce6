import type { Verdict } from '../errors.js';
import { MIGRATION_STATES, type MigrationState } from './states.js';

/**
 * The states in which a migration no longer works its source: the guest runs on the target
 * (COMPLETED and its cleanup wait out the retention window by design), the move was undone, or it
 * waits for an operator's decision and carries nothing meanwhile.
 */
export const MIGRATION_STATES_SETTLED = [
  'COMPLETED',
  'CLEANING_UP',
  'CLEANED_UP',
  'ROLLED_BACK',
  'RECOVERY_REQUIRED',
] as const satisfies readonly MigrationState[];

/** A migration in one of these is under way: it counts against its source's and its target's limits. */
export const MIGRATION_STATES_UNDER_WAY = MIGRATION_STATES.filter(
  (s) => !(MIGRATION_STATES_SETTLED as readonly MigrationState[]).includes(s),
);

/** The moves under way out of one hypervisor, and how many may be at once. */
export interface OutboundMoves {
  readonly hypervisorName: string;
  /** The ids of the migrations under way whose source it is. */
  readonly underWay: readonly string[];
  /** MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR. */
  readonly limit: number;
}

/**
 * Whether one more move may leave this hypervisor now (issue 47 item 5, KubeVirt's outbound limit
 * per node): a single request over the limit is refused with MIGRATION_SOURCE_BUSY, an
 * evacuation's next move waits for a slot.
 */
export function mayLeaveHost(source: OutboundMoves): Verdict {
  if (source.underWay.length < source.limit) return { ok: true };
  return {
    ok: false,
    code: 'MIGRATION_SOURCE_BUSY',
    detail:
      `${source.underWay.length} moves out of ${source.hypervisorName} are under way ` +
      `(${source.underWay.join(', ')}); MIGRATION_MAX_OUTBOUND_PER_HYPERVISOR allows ${source.limit} at once. ` +
      'Retry once one of them ends.',
  };
}
