import type { Database } from '../db/database.js';
import { recordActivity } from '../db/repositories/events/activity-log.js';
import { findInstance } from '../db/repositories/instances/instances.js';
import { findScheduledAction, recordScheduledRun } from '../db/repositories/instances/scheduled-actions.js';
import type { ScheduledAction, ScheduledRunOutcome } from '../domain/instances/scheduled-actions.js';
import {
  beginScheduledOperation,
  type ScheduledRunRequest,
  type ScheduledStart,
  skipReason,
} from './scheduled-runs.js';

export interface ScheduledPowerRequest extends ScheduledRunRequest {
  readonly actionId: string;
}

export type ScheduledPowerStart = ScheduledStart<{ readonly action: ScheduledAction }>;

const SCHEDULE_ACTOR = { type: 'system', name: 'scheduled-action' } as const;

/** The database side of a scheduled power action's runs (workflows/scheduled-power-action.ts). */
export function createScheduledActionActivities(db: Database) {
  return {
    /**
     * A scheduled run begins its power action as a customer's request would (scheduled-runs.ts):
     * an instance busy with another operation, migrating, suspended, or in a status the action does
     * not start from refuses it, and the run is skipped with that reason, never queued behind it.
     */
    async beginScheduledPower(request: ScheduledPowerRequest): Promise<ScheduledPowerStart> {
      const scheduled = await findScheduledAction(db, request.actionId);
      if (!scheduled) return skipReason('SCHEDULE_DELETED', 'The scheduled action no longer exists.');
      const begun = await beginScheduledOperation(db, SCHEDULE_ACTOR, {
        instanceId: scheduled.instance_id,
        kind: scheduled.action,
        operationId: request.operationId,
        workflowId: request.workflowId,
        workflowType: 'scheduledPowerAction',
        workflowInput: { actionId: scheduled.id, instanceId: scheduled.instance_id, timing: request.timing },
        timing: request.timing,
        // The customer's action: a suspended instance refuses it as it refuses their own request.
        rules: 'customer',
      });
      return begun.begun ? { ...begun, action: scheduled.action } : begun;
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
