import type { Database } from '../db/database.js';
import { recordOperation } from '../db/records/operations.js';
import { recordActivity } from '../db/repositories/activity-log.js';
import { findOperation } from '../db/repositories/instance-operations.js';
import { findInstance } from '../db/repositories/instances.js';
import { findScheduledAction, recordScheduledRun } from '../db/repositories/scheduled-actions.js';
import { ApiError } from '../domain/errors.js';
import type { ScheduledAction, ScheduledRunOutcome } from '../domain/instances/scheduled-actions.js';
import type { OperationContext, StepTiming } from '../domain/operation-context.js';

export interface ScheduledPowerRequest {
  readonly actionId: string;
  /** The scheduled run's own workflow: it is the power operation's workflow. */
  readonly workflowId: string;
  /** Made by the workflow, so a retried attempt finds the operation the first one began. */
  readonly operationId: string;
  readonly timing: StepTiming;
}

export type ScheduledPowerStart =
  | { readonly begun: true; readonly operation: OperationContext; readonly action: ScheduledAction }
  | { readonly begun: false; readonly reason: { code: string; detail: string } };

const SCHEDULE_ACTOR = { type: 'system', name: 'scheduled-action' } as const;

const skipped = (code: string, detail: string): ScheduledPowerStart => ({
  begun: false,
  reason: { code, detail },
});

/** The database side of a scheduled power action's runs (workflows/scheduled-power-action.ts). */
export function createScheduledActionActivities(db: Database) {
  return {
    /**
     * A scheduled run begins its power action as a customer's request would, through the
     * operations model's compare-and-set: an instance busy with another operation, migrating, or in
     * a status the action does not start from refuses it, and the run is skipped with that reason,
     * never queued behind the other operation.
     */
    async beginScheduledPower(request: ScheduledPowerRequest): Promise<ScheduledPowerStart> {
      const scheduled = await findScheduledAction(db, request.actionId);
      if (!scheduled) return skipped('SCHEDULE_DELETED', 'The scheduled action no longer exists.');
      const instance = await findInstance(db, scheduled.instance_id);
      if (!instance) return skipped('INSTANCE_DELETED', 'The instance no longer exists.');
      if (!instance.hypervisor_id) return skipped('SVC-CONFLICT-409', 'The instance is not placed yet.');
      const operation: OperationContext = {
        operationId: request.operationId,
        instanceId: instance.id,
        hypervisorId: instance.hypervisor_id,
        kind: scheduled.action,
        correlationId: request.workflowId,
        timing: request.timing,
      };
      const begun = { begun: true, operation, action: scheduled.action } as const;
      if (await findOperation(db, request.operationId)) return begun;
      try {
        await db.transaction().execute((trx) =>
          recordOperation(trx, SCHEDULE_ACTOR, {
            operationId: request.operationId,
            instanceId: instance.id,
            kind: scheduled.action,
            workflowId: request.workflowId,
            workflowType: 'scheduledPowerAction',
            workflowInput: { actionId: scheduled.id, instanceId: instance.id, timing: request.timing },
            correlationId: request.workflowId,
          }),
        );
      } catch (error) {
        if (error instanceof ApiError) return skipped(error.code, error.detail);
        throw error;
      }
      return begun;
    },

    /** What a scheduled run did: on the action, and in the instance's activity log. */
    async recordScheduledPowerRun(run: {
      actionId: string;
      instanceId: string;
      outcome: ScheduledRunOutcome;
    }) {
      await db.transaction().execute(async (trx) => {
        await recordScheduledRun(trx, run.actionId, run.outcome);
        if (await findInstance(trx, run.instanceId))
          await recordActivity(trx, {
            instanceId: run.instanceId,
            actor: 'system:scheduled-action',
            event: 'instance.scheduled_action.ran',
            detail: { scheduled_action_id: run.actionId, ...run.outcome },
          });
      });
    },
  };
}
