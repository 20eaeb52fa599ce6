import type { Client, ScheduleOptionsStartWorkflowAction, WorkflowHandle } from '@temporalio/client';
import {
  defineSearchAttributeKey,
  type SearchAttributePair,
  SearchAttributeType,
  type Workflow,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
} from '@temporalio/common';
import type { StepTiming } from '../domain/operation-context.js';
import { SEARCH_ATTRIBUTES } from '../domain/search-attributes.js';
import type { Config } from '../platform/config.js';
import type * as workflows from '../workflows/index.js';

export type WorkflowType = keyof typeof workflows;
export type WorkflowInput<W extends WorkflowType> = Parameters<(typeof workflows)[W]>[0];

const KEYS = {
  instance: defineSearchAttributeKey(SEARCH_ATTRIBUTES.instance, SearchAttributeType.KEYWORD),
  hypervisor: defineSearchAttributeKey(SEARCH_ATTRIBUTES.hypervisor, SearchAttributeType.KEYWORD),
  operation: defineSearchAttributeKey(SEARCH_ATTRIBUTES.operation, SearchAttributeType.KEYWORD),
  migrationState: defineSearchAttributeKey(SEARCH_ATTRIBUTES.migrationState, SearchAttributeType.KEYWORD),
};

export interface SearchAttributeValues {
  readonly instance?: string;
  readonly hypervisor?: string;
  readonly operation?: string;
  readonly migrationState?: string;
}

/**
 * How a second start of the same workflow id is treated, per workflow type. An instance
 * operation's id is its operation's: a start repeated by the reconciler joins the run already
 * there, and a finished operation is never run again. A probe's id is new every time.
 */
const INSTANCE_OPERATION = {
  conflict: WorkflowIdConflictPolicy.USE_EXISTING,
  reuse: WorkflowIdReusePolicy.REJECT_DUPLICATE,
} as const;

const START_POLICIES: Record<
  WorkflowType,
  { conflict: WorkflowIdConflictPolicy; reuse: WorkflowIdReusePolicy }
> = {
  powerInstance: INSTANCE_OPERATION,
  provisionInstance: INSTANCE_OPERATION,
  deleteInstance: INSTANCE_OPERATION,
  rebuildInstance: INSTANCE_OPERATION,
  resetInstancePassword: INSTANCE_OPERATION,
  backupInstance: INSTANCE_OPERATION,
  verifyBackup: INSTANCE_OPERATION,
  deleteBackup: INSTANCE_OPERATION,
  restoreInstance: INSTANCE_OPERATION,
  snapshotInstance: INSTANCE_OPERATION,
  deleteSnapshot: INSTANCE_OPERATION,
  // Started by its Temporal Schedule, each run under an id of its own (the schedule's, plus the time).
  scheduledBackup: INSTANCE_OPERATION,
  scheduledPowerAction: INSTANCE_OPERATION,
  migrateInstance: INSTANCE_OPERATION,
  moveInstanceStorage: INSTANCE_OPERATION,
  changeInstanceNetwork: INSTANCE_OPERATION,
  changeInstanceFirewall: INSTANCE_OPERATION,
  resizeRootDisk: INSTANCE_OPERATION,
  resizeInstance: INSTANCE_OPERATION,
  attachVolume: INSTANCE_OPERATION,
  detachVolume: INSTANCE_OPERATION,
  resizeVolume: INSTANCE_OPERATION,
  changeIsoMount: INSTANCE_OPERATION,
  bootIso: INSTANCE_OPERATION,
  changeRescueMode: INSTANCE_OPERATION,
  // One run per ISO, its id the ISO's: a repeated start joins it.
  fetchIso: INSTANCE_OPERATION,
  // One run per removal; the ISO's `deleting` state keeps a second from starting beside it.
  deleteIso: INSTANCE_OPERATION,
  // One run of a version's distribution at a time: a start while one runs joins it; one after it
  // ended runs again for the copies not ready (a hypervisor that came online, a failed fetch).
  distributeImage: {
    conflict: WorkflowIdConflictPolicy.USE_EXISTING,
    reuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
  },
  // One run per version and hypervisor at a time: a comeback while it runs joins it; one after it
  // ended finds the copy ready (nothing to do) or fetches what is still lacking.
  fetchImageCopy: {
    conflict: WorkflowIdConflictPolicy.USE_EXISTING,
    reuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
  },
  // One run per deleted version's copy and hypervisor at a time: the delete, a comeback and the
  // sweep asking while it runs join it; one after it ended finds the copy removed, or asks again.
  removeImageCopy: {
    conflict: WorkflowIdConflictPolicy.USE_EXISTING,
    reuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
  },
  // One run per console session, its id the session's: a repeated start joins it.
  openConsoleStream: INSTANCE_OPERATION,
  // One run per removal; the volume's `deleting` state keeps a second from starting beside it.
  deleteVolume: INSTANCE_OPERATION,
  // Started by its migration's run as a child (workflows/migrate-instance/cleanup.ts), never here.
  cleanUpMigrationSource: INSTANCE_OPERATION,
  // One run of a provider's test, sync or rotation: a repeated start joins it.
  checkProvider: INSTANCE_OPERATION,
  // One run per evacuation, its id the evacuation's: a repeated start joins it.
  evacuateHypervisor: INSTANCE_OPERATION,
  probeHypervisor: { conflict: WorkflowIdConflictPolicy.FAIL, reuse: WorkflowIdReusePolicy.REJECT_DUPLICATE },
  // One run per location at a time, woken by a signal (`signalWithStart`); a finished one is
  // started again by the next change.
  publishReverseDns: {
    conflict: WorkflowIdConflictPolicy.USE_EXISTING,
    reuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
  },
  // One run per endpoint and stream at a time, started by the signal that queues a delivery on it
  // (`signalWithStart`); a run that ended idle is followed by a new one under the same id.
  deliverWebhooks: {
    conflict: WorkflowIdConflictPolicy.USE_EXISTING,
    reuse: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
  },
};

export interface WorkflowStart<W extends WorkflowType> {
  readonly type: W;
  readonly workflowId: string;
  readonly input: WorkflowInput<W>;
  readonly searchAttributes: SearchAttributeValues;
  readonly correlationId: string | null;
  /** For workflows that must give up as a whole (the probe). */
  readonly executionTimeoutMs?: number;
}

function typedSearchAttributes(values: SearchAttributeValues): SearchAttributePair[] {
  return (Object.keys(KEYS) as (keyof typeof KEYS)[]).flatMap((name) => {
    const value = values[name];
    return value === undefined ? [] : [{ key: KEYS[name], value }];
  });
}

/**
 * The one place workflows are started: task queue, id policies, search attributes, the
 * correlation id as memo, all bounded by TEMPORAL_RPC_TIMEOUT_MS so an unreachable Temporal
 * answers quickly instead of holding the request.
 */
export async function startWorkflow<W extends WorkflowType>(
  deps: { temporal: Client; config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'TEMPORAL_RPC_TIMEOUT_MS'> },
  start: WorkflowStart<W>,
): Promise<WorkflowHandle> {
  const policy = START_POLICIES[start.type];
  return deps.temporal.withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, () =>
    deps.temporal.workflow.start(start.type, {
      taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
      workflowId: start.workflowId,
      workflowIdConflictPolicy: policy.conflict,
      workflowIdReusePolicy: policy.reuse,
      typedSearchAttributes: typedSearchAttributes(start.searchAttributes),
      memo: { correlation_id: start.correlationId },
      ...(start.executionTimeoutMs ? { workflowExecutionTimeout: start.executionTimeoutMs } : {}),
      args: [start.input] as never,
    }),
  );
}

/**
 * A signal to a workflow, starting it first if no run of its id is open: how work is queued on a
 * long-lived run that serves a stream of changes one at a time (a webhook stream, a location's
 * reverse DNS). Bounded by TEMPORAL_RPC_TIMEOUT_MS as `startWorkflow` is.
 */
export async function signalWithStart<W extends WorkflowType>(
  deps: { temporal: Client; config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'TEMPORAL_RPC_TIMEOUT_MS'> },
  start: Omit<WorkflowStart<W>, 'executionTimeoutMs'>,
  signal: { readonly name: string; readonly args: readonly unknown[] },
): Promise<void> {
  const policy = START_POLICIES[start.type];
  await deps.temporal.withDeadline(Date.now() + deps.config.TEMPORAL_RPC_TIMEOUT_MS, () =>
    deps.temporal.workflow.signalWithStart(start.type, {
      taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
      workflowId: start.workflowId,
      workflowIdReusePolicy: policy.reuse,
      typedSearchAttributes: typedSearchAttributes(start.searchAttributes),
      memo: { correlation_id: start.correlationId },
      args: [start.input],
      signal: signal.name,
      signalArgs: [...signal.args],
    }),
  );
}

/**
 * What a Temporal Schedule starts on each of its runs: the same task queue, typed input and search
 * attributes as `startWorkflow`. Temporal appends the run's scheduled time to `workflowId`.
 */
export function scheduledStart<W extends WorkflowType>(
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>,
  start: Pick<WorkflowStart<W>, 'type' | 'workflowId' | 'input' | 'searchAttributes'>,
): ScheduleOptionsStartWorkflowAction<Workflow> {
  return {
    type: 'startWorkflow',
    workflowType: start.type,
    workflowId: start.workflowId,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    args: [start.input],
    typedSearchAttributes: typedSearchAttributes(start.searchAttributes),
  };
}

/** The agent-step timing every workflow input carries, from configuration. */
export const stepTiming = (
  config: Pick<Config, 'AGENT_TASK_HEARTBEAT_TIMEOUT_MS' | 'AGENT_TASK_PICKUP_TIMEOUT_MS'>,
): StepTiming => ({
  heartbeatTimeoutMs: config.AGENT_TASK_HEARTBEAT_TIMEOUT_MS,
  pickupTimeoutMs: config.AGENT_TASK_PICKUP_TIMEOUT_MS,
});
