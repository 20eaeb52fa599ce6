import type { Verdict } from '../errors.js';
import type { MigrationMode } from '../migrations/states.js';

/**
 * An evacuation drains a hypervisor: its instances migrate away, a few at a time, while the node
 * is in maintenance. It runs (or is paused) until every instance is dealt with, or until an
 * administrator cancels it; `failed` is an evacuation whose run could not be started.
 */
/**
 * What is drained: a hypervisor (its instances migrate to others) or one of its storage backends
 * (its instances' disks there move to another backend of the same hypervisor); or, the way back,
 * a restore: the instances a hypervisor's evacuation moved migrate home to it
 * (domain/evacuations/restore.ts).
 */
export const EVACUATION_KINDS = ['hypervisor', 'backend', 'restore'] as const;
export type EvacuationKind = (typeof EVACUATION_KINDS)[number];

export const EVACUATION_STATES = [
  'running',
  'paused',
  'cancelling',
  'completed',
  'cancelled',
  'failed',
] as const;
export type EvacuationState = (typeof EVACUATION_STATES)[number];

/** The states in which an evacuation holds its hypervisor: one at a time per node. */
export const ACTIVE_EVACUATION_STATES: readonly EvacuationState[] = ['running', 'paused', 'cancelling'];

/**
 * Each instance of an evacuation: waiting its turn, migrating, waiting for an operator's recovery
 * decision on its migration, or done (moved, failed, blocked by what keeps it on its host, or left
 * where it is by a cancel).
 */
export const EVACUATION_ITEM_STATES = [
  'pending',
  'migrating',
  'recovery_required',
  'moved',
  'failed',
  'blocked',
  'cancelled',
] as const;
export type EvacuationItemState = (typeof EVACUATION_ITEM_STATES)[number];

/** An instance whose migration is under way: it takes a slot of the parallelism, or waits for an operator. */
export const ITEM_IN_FLIGHT: readonly EvacuationItemState[] = ['migrating', 'recovery_required'];

/**
 * What a failed move does: `skip` records it and goes on; `retry` tries the instance again later,
 * up to the attempts allowed; `pause` records it and pauses the evacuation for an operator.
 */
export const FAILURE_POLICIES = ['skip', 'retry', 'pause'] as const;
export type FailurePolicy = (typeof FAILURE_POLICIES)[number];

export interface EvacuationPolicy {
  readonly mode: MigrationMode;
  /** Migrations out of the node at once. */
  readonly maxParallel: number;
  /** Migrations into any one target at once, counting every migration into it. */
  readonly maxParallelPerTarget: number;
  readonly onFailure: FailurePolicy;
  /** How often one instance is tried: a move that failed or a start refused as busy counts one. */
  readonly maxAttempts: number;
}

/** An administrator's control of a running evacuation, checked by the service and again by the run. */
export type EvacuationControl = 'pause' | 'resume' | 'cancel';

const ALLOWED_FROM: Record<EvacuationControl, readonly EvacuationState[]> = {
  pause: ['running'],
  resume: ['paused'],
  cancel: ['running', 'paused'],
};

export function mayControl(state: EvacuationState, control: EvacuationControl): Verdict {
  if (ALLOWED_FROM[control].includes(state)) return { ok: true };
  if (!ACTIVE_EVACUATION_STATES.includes(state))
    return { ok: false, code: 'EVACUATION_FINISHED', detail: `The evacuation is ${state}.` };
  return {
    ok: false,
    code: 'EVACUATION_STATE_CONFLICT',
    detail: `The evacuation is ${state}; ${control} needs it ${ALLOWED_FROM[control].join(' or ')}.`,
  };
}
