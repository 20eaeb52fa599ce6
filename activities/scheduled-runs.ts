import type { Database } from '../db/database.js';
import { recordOperation } from '../db/records/operations.js';
import { findOperation } from '../db/repositories/instances/instance-operation-reads.js';
import { findInstance } from '../db/repositories/instances/instances.js';
import type { Actor } from '../domain/actors.js';
import { ApiError } from '../domain/errors.js';
import type { InstanceOperation } from '../domain/instances/operations.js';
import type { OperationContext, StepTiming } from '../domain/operation-context.js';

/** Why a scheduled run did nothing: the panel's code and words. */
export type SkipReason = { readonly code: string; readonly detail: string };

export type ScheduledBegin =
  | { readonly begun: true; readonly operation: OperationContext }
  | { readonly begun: false; readonly reason: SkipReason };

/** What every scheduled run's first step is given, whatever its schedule. */
export interface ScheduledRunRequest {
  /** The scheduled run's own workflow: it is the operation's workflow. */
  readonly workflowId: string;
  /** Made by the workflow, so a retried attempt finds the operation the first one began. */
  readonly operationId: string;
  readonly timing: StepTiming;
}

/** A scheduled run's operation begun (with what its kind needs besides), or why it was skipped. */
export type ScheduledStart<Extra> =
  | ({ readonly begun: true; readonly operation: OperationContext } & Extra)
  | { readonly begun: false; readonly reason: SkipReason };

export const skipReason = (code: string, detail: string) =>
  ({ begun: false, reason: { code, detail } }) as const;

/**
 * A scheduled run (of a customer's schedule) begins its operation as a request would: the
 * operations model's compare-and-set (a busy or migrating instance, or a status the operation does
 * not start from, refuses it; under `customer` rules a suspended instance too) and the
 * activity-log line, with `within` in the same transaction. A refusal is a skip, with why. The
 * operation id comes from the run, so a retried attempt finds the operation the first one began.
 */
export async function beginScheduledOperation(
  db: Database,
  actor: Actor,
  run: {
    readonly instanceId: string;
    readonly kind: InstanceOperation;
    readonly operationId: string;
    readonly workflowId: string;
    readonly workflowType: string;
    /** The run's own input: the reconciler would start it again (it never needs to: the run exists). */
    readonly workflowInput: unknown;
    readonly timing: StepTiming;
    readonly rules: 'customer' | 'operator';
  },
  within?: (trx: Database) => Promise<unknown>,
): Promise<ScheduledBegin> {
  const instance = await findInstance(db, run.instanceId);
  if (!instance) return skipReason('INSTANCE_DELETED', 'The instance no longer exists.');
  if (!instance.hypervisor_id) return skipReason('SVC-CONFLICT-409', 'The instance is not placed yet.');
  const operation: OperationContext = {
    operationId: run.operationId,
    instanceId: instance.id,
    hypervisorId: instance.hypervisor_id,
    kind: run.kind,
    correlationId: run.workflowId,
    timing: run.timing,
  };
  if (await findOperation(db, run.operationId)) return { begun: true, operation };
  try {
    await db.transaction().execute(async (trx) => {
      await recordOperation(
        trx,
        actor,
        {
          operationId: run.operationId,
          instanceId: instance.id,
          kind: run.kind,
          workflowId: run.workflowId,
          workflowType: run.workflowType,
          workflowInput: run.workflowInput,
          correlationId: run.workflowId,
        },
        run.rules === 'customer',
      );
      await within?.(trx);
    });
  } catch (error) {
    if (error instanceof ApiError) return skipReason(error.code, error.detail);
    throw error;
  }
  return { begun: true, operation };
}
