import type { Actor } from '../actors.js';
import type { Resources } from '../capacity.js';
import type { MigrateInstanceInput } from '../migrations/run-input.js';
import type { StepTiming } from '../operation-context.js';
import type { HotplugCeiling, ResizeMode } from './hot-resize.js';

/**
 * A plan change that moves the instance first (docs/api.md "Plan changes"): its run starts the
 * migration the request recorded as its child, then begins the `resize` operation on the
 * instance's new hypervisor. These are the shapes the run, its activity and the service share.
 */

/** What the request decided: the move it recorded, and the change to begin once the move commits. */
export interface ResizeAfterMove {
  readonly instanceId: string;
  /** The `resize` operation's id, chosen with the run's id, so a retried begin finds it. */
  readonly operationId: string;
  readonly workflowId: string;
  readonly actor: Actor;
  readonly to: Resources;
  readonly planId: string | null;
  readonly correlationId: string | null;
  readonly timing: StepTiming;
  readonly move: {
    readonly migrationId: string;
    readonly workflowId: string;
    readonly input: MigrateInstanceInput;
  };
}

/** The change as begun on the new hypervisor: what the resize runbook is given. */
export type ResizeBegun =
  | {
      readonly ok: true;
      readonly hypervisorId: string;
      readonly from: Resources;
      readonly mode: ResizeMode;
      readonly fromCeiling: HotplugCeiling | null;
      readonly ceiling?: HotplugCeiling;
    }
  /** Refused after the move (its catalogue code and why): the instance stays where it moved, as it was. */
  | { readonly ok: false; readonly code: string; readonly detail: string };

/** The part of the services a moving change's run calls (the worker hands it to the activities). */
export interface ResizeMoves {
  beginResizeAfterMove(request: ResizeAfterMove): Promise<ResizeBegun>;
}
