import { isCancellation, upsertSearchAttributes, uuid4, workflowInfo } from '@temporalio/workflow';
import type { ScheduledRunOutcome } from '../domain/instances/scheduled-actions.js';
import type { StepTiming } from '../domain/operation-context.js';
import { SEARCH_ATTRIBUTES } from '../domain/search-attributes.js';
import { describeFailure } from './lib/failures.js';
import { step } from './lib/operation.js';
import { bookkeeping } from './lib/steps.js';
import { powerRunbook } from './power-instance.js';

export interface ScheduledPowerActionInput {
  readonly actionId: string;
  readonly instanceId: string;
  readonly timing: StepTiming;
}

/**
 * One run of a scheduled power action (its Temporal Schedule starts it):
 *  1. the action is begun through the operations model as a customer's would be: an instance busy
 *     with another operation, migrating, or in a status the action does not start from, skips
 *     this run with the reason (never queued behind it); a deleted action or instance too;
 *  2. the power runbook runs (this run is the operation's workflow);
 *  3. what happened is recorded on the action and in the instance's activity log.
 * A failed action fails the run too, after the record, so the Temporal UI shows it.
 */
export async function scheduledPowerAction(input: ScheduledPowerActionInput): Promise<ScheduledRunOutcome> {
  const { beginScheduledPower, recordScheduledPowerRun } = bookkeeping();
  step('Beginning the power action');
  const begun = await beginScheduledPower({
    actionId: input.actionId,
    workflowId: workflowInfo().workflowId,
    operationId: uuid4(),
    timing: input.timing,
  });
  let outcome: ScheduledRunOutcome;
  let failure: unknown;
  if (!begun.begun) {
    outcome = { outcome: 'skipped', reason: begun.reason };
  } else {
    upsertSearchAttributes([
      { key: { name: SEARCH_ATTRIBUTES.hypervisor, type: 'KEYWORD' }, value: begun.operation.hypervisorId },
    ]);
    try {
      const reported = await powerRunbook(begun.operation, begun.action);
      outcome = { outcome: 'ran', power_state: reported.power_state };
    } catch (error) {
      if (isCancellation(error)) throw error;
      failure = error;
      const { code, message } = describeFailure(error);
      outcome = { outcome: 'failed', reason: { code, detail: message } };
    }
  }
  if (begun.begun || begun.reason.code !== 'SCHEDULE_DELETED')
    await recordScheduledPowerRun({ actionId: input.actionId, instanceId: input.instanceId, outcome });
  step('Done');
  if (failure) throw failure;
  return outcome;
}
