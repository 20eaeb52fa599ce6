import type { MigrateInstanceInput } from '../migrations/run-input.js';
import type { MoveInstanceStorageInput } from '../storage-moves/run-input.js';
import type { EvacuationItemState } from './states.js';

/** What an evacuation's run is told when it asks for its next move. */
export type NextMove =
  | ({
      readonly kind: 'started';
      readonly instanceId: string;
      /** The move's id: a migration's (a hypervisor's drain) or a storage move's (a backend's). */
      readonly migrationId: string;
      /** The move's run, which the drain starts as its child. */
      readonly workflowId: string;
    } & (
      | { readonly workflowType: 'migrateInstance'; readonly input: MigrateInstanceInput }
      | { readonly workflowType: 'moveInstanceStorage'; readonly input: MoveInstanceStorageInput }
    ))
  /** Instances wait: put off for a while, or no target has a free slot now. */
  | { readonly kind: 'waiting' }
  /** No instance waits its turn. */
  | { readonly kind: 'none' };

/** The part of the services an evacuation's steps call (the worker hands it to the activities). */
export interface EvacuationMoves {
  beginEvacuationMove(request: { evacuationId: string; migrationId: string }): Promise<NextMove>;
}

/** Where an evacuation's run stands after it read its migrations. */
export interface EvacuationCheck {
  /** Migrations under way, which take a slot of the parallelism. */
  readonly migrating: number;
  /** Migrations waiting for an operator's decision: held by the run, outside the parallelism. */
  readonly awaitingRecovery: number;
  /** Instances whose turn has not come (some may be put off for a while). */
  readonly pending: number;
  /** A failure under the `pause` policy asks the run to pause. */
  readonly pause: boolean;
}

export interface EvacuationReport {
  readonly evacuation_uuid: string;
  readonly state: 'completed' | 'cancelled';
  readonly counts: Partial<Record<EvacuationItemState, number>>;
  /** Every instance the evacuation did not move, with why. */
  readonly not_moved: {
    instance_uuid: string;
    state: EvacuationItemState;
    reasons: { code: string; detail: string }[];
  }[];
}
