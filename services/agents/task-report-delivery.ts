import {
  ActivityCancelledError,
  ActivityNotFoundError,
  ActivityPausedError,
  ActivityResetError,
  type Client,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Database } from '../../db/database.js';
import {
  finishLiveTask,
  markReportDelivered,
} from '../../db/repositories/hypervisors/agent-task-report-delivery.js';
import type { ReportAck } from '../../domain/agent-protocol.js';
import { ApiError } from '../../domain/errors.js';
import { ack, type Delivery } from './task-report-effects.js';
import type { Recorded } from './task-report-record.js';

export interface Bridge {
  readonly db: Database;
  readonly temporal: Client;
  readonly leaseMs: number;
  /** TEMPORAL_RPC_TIMEOUT_MS: how long a report waits for Temporal before answering 503. */
  readonly temporalTimeoutMs: number;
}

export async function deliver(
  bridge: Bridge,
  recorded: Recorded,
  sequence: number,
  delivery: Delivery,
): Promise<ReportAck> {
  const { db, temporal } = bridge;
  const { task } = recorded;
  const token = task.task_token;
  const call = () => {
    switch (delivery.kind) {
      case 'heartbeat':
        return temporal.activity.heartbeat(token, delivery.details);
      case 'complete':
        return temporal.activity.complete(token, delivery.result);
      case 'fail':
        return temporal.activity.fail(
          token,
          ApplicationFailure.create({
            message: delivery.message,
            type: delivery.code,
            nonRetryable: delivery.nonRetryable,
          }),
        );
      case 'none':
        return Promise.resolve();
    }
  };

  let answer = recorded.answer;
  try {
    await temporal.withDeadline(Date.now() + bridge.temporalTimeoutMs, call);
  } catch (error) {
    if (error instanceof ActivityCancelledError) {
      // The workflow no longer wants this: acknowledge the cancellation and tell the agent to stop.
      await temporal
        .withDeadline(Date.now() + bridge.temporalTimeoutMs, () =>
          temporal.activity.reportCancellation(token),
        )
        .catch(() => {});
      if (await finishLiveTask(db, task.id, 'cancelled')) answer = ack(task, sequence, 'cancelled');
    } else if (error instanceof ActivityNotFoundError) {
      // Nothing waits for this attempt any more (timed out and retried, or its run ended). A task
      // still under way is abandoned; a completion or failure stays recorded as what the agent did.
      if (delivery.kind === 'heartbeat' && (await finishLiveTask(db, task.id, 'abandoned')))
        answer = ack(task, sequence, 'abandoned');
    } else if (!(error instanceof ActivityPausedError || error instanceof ActivityResetError)) {
      throw new ApiError('SVC-SYS-503', { cause: error });
    }
  }
  await markReportDelivered(db, task.id, sequence, answer);
  return answer;
}
