import {
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  setCurrentDetails,
  setHandler,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { AgentTaskParams, AgentTaskResult, AgentTaskType } from '../../domain/agent-tasks.js';
import {
  isPastPointOfNoReturn,
  type MigrationState,
  type MigrationStrategy,
  TERMINAL_STATES,
} from '../../domain/migrations/states.js';
import type { OperationContext } from '../../domain/operation-context.js';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { describeFailure } from '../lib/failures.js';
import { Saga } from '../lib/saga.js';
import { agentStep, bookkeeping } from '../lib/steps.js';
import {
  migrationState,
  type RecoveryRequest,
  type RollbackRequest,
  recoverMigration,
  rollbackMigration,
} from './definitions.js';

export interface MigrateInstanceInput {
  readonly migrationId: string;
  readonly operation: OperationContext;
  readonly sourceHypervisorId: string;
  readonly targetHypervisorId: string;
  readonly strategy: MigrationStrategy;
  readonly instance: {
    readonly hostname: string;
    readonly cpu_cores: number;
    readonly memory_mb: number;
    readonly disk_mb: number;
    readonly ipv4: string | null;
    readonly ipv6: string | null;
    /** Whether the guest ran when the migration was requested: it runs on the target after. */
    readonly running: boolean;
  };
  /** The root disk's transfer token, sealed: it is opened only in the target's task. */
  readonly transferToken: string;
  readonly leaseTtlMs: number;
  readonly retainSourceMs: number;
}

interface Step {
  readonly state: MigrationState;
  readonly run: () => Promise<Record<string, unknown> | undefined>;
}

const DISK = 'root';

/**
 * Runbook of a migration (SPEC.md §3): one step per state of the happy path, each a semantic task
 * on the source or the target, its undo pushed as it succeeds. Before the point of no return a
 * failure (or an administrator's cancel/rollback) rolls back in reverse, the untouched source
 * staying authoritative and restarted if the migration stopped it. At or after it, the run waits
 * in RECOVERY_REQUIRED for an operator's decision and never restarts the source by itself.
 * COMMITTING is one transaction; the source is kept for the retention window, then cleaned up.
 */
export async function migrateInstance(input: MigrateInstanceInput): Promise<{ state: MigrationState }> {
  const { migrationId, operation, strategy } = input;
  const ids = { migration_id: migrationId, instance_id: operation.instanceId };
  const books = bookkeeping();
  const quick = agentStep('quick', operation.timing);
  const long = agentStep('long', operation.timing);
  const saga = new Saga();
  const forward = new CancellationScope();

  let state: MigrationState = 'REQUESTED';
  let rollbackRequest: RollbackRequest | undefined;
  let recovery: RecoveryRequest | undefined;
  let finished = false;
  let committed = false;

  setHandler(migrationState, () => state);
  setHandler(
    rollbackMigration,
    (request) => {
      rollbackRequest = request;
      forward.cancel();
      return { state };
    },
    {
      validator: (request) => {
        if (
          TERMINAL_STATES.includes(state) ||
          state === 'ROLLING_BACK' ||
          state === 'COMPLETED' ||
          state === 'CLEANING_UP'
        )
          throw ApplicationFailure.create({
            type: 'MIGRATION_FINISHED',
            message: `The migration is ${state}.`,
            nonRetryable: true,
          });
        if (isPastPointOfNoReturn(state, strategy))
          throw ApplicationFailure.create({
            type: 'MIGRATION_PAST_POINT_OF_NO_RETURN',
            message: `The migration is ${state}, past its point of no return; use recovery instead.`,
            nonRetryable: true,
          });
        if (!request.reason.trim())
          throw ApplicationFailure.create({
            type: 'SVC-REQ-400',
            message: 'A reason is required.',
            nonRetryable: true,
          });
      },
    },
  );
  setHandler(
    recoverMigration,
    (request) => {
      recovery = request;
      return { state };
    },
    {
      validator: (request) => {
        if (state !== 'RECOVERY_REQUIRED')
          throw ApplicationFailure.create({
            type: 'MIGRATION_NOT_RECOVERABLE',
            message: `The migration is ${state}, not waiting for a recovery decision.`,
            nonRetryable: true,
          });
        if (request.decision !== 'retry' && !request.reason.trim())
          throw ApplicationFailure.create({
            type: 'SVC-REQ-400',
            message: 'Recording an outcome needs a reason.',
            nonRetryable: true,
          });
        if (committed && request.decision !== 'retry')
          throw ApplicationFailure.create({
            type: 'SVC-REQ-400',
            message: 'The target is already authoritative: only a retry of the cleanup is possible.',
            nonRetryable: true,
          });
      },
    },
  );

  const enter = async (next: MigrationState, detail: Record<string, unknown> = {}, extra: object = {}) => {
    state = next;
    upsertSearchAttributes({ [SEARCH_ATTRIBUTES.migrationState]: [next] });
    setCurrentDetails(`**Migration state:** ${next}`);
    await books.recordMigrationState({ migrationId, state: next, detail, ...extra });
  };

  // The lease is renewed for as long as the run holds the instance (RECOVERY_REQUIRED included).
  const renewing = CancellationScope.cancellable(async () => {
    while (!finished && !committed) {
      await sleep(Math.max(1_000, Math.floor(input.leaseTtlMs / 3)));
      if (!finished && !committed) await books.renewMigrationLease({ migrationId, ttlMs: input.leaseTtlMs });
    }
  });
  renewing.catch(() => {});

  const onSource = <T extends AgentTaskType>(
    type: T,
    params: AgentTaskParams<T>,
    summary: string,
    kind = quick,
  ) =>
    kind(
      { hypervisorId: input.sourceHypervisorId, type, params, correlationId: operation.correlationId },
      `${summary} (source)`,
    );
  const onTarget = <T extends AgentTaskType>(
    type: T,
    params: AgentTaskParams<T>,
    summary: string,
    kind = quick,
  ) =>
    kind(
      { hypervisorId: input.targetHypervisorId, type, params, correlationId: operation.correlationId },
      `${summary} (target)`,
    );

  let exported: AgentTaskResult<'disk.export'> | undefined;
  let sourceStopped = false;

  const steps: Step[] = [
    {
      state: 'READY',
      run: async () => void (await books.renewMigrationLease({ migrationId, ttlMs: input.leaseTtlMs })),
    },
    {
      state: 'PREPARING_TARGET',
      run: async () => {
        await onTarget(
          'migration.prepare_target',
          {
            ...ids,
            hostname: input.instance.hostname,
            cpu_cores: input.instance.cpu_cores,
            memory_mb: input.instance.memory_mb,
            disk_mb: input.instance.disk_mb,
          },
          'prepare the target',
        );
        saga.push('prepare the target', () =>
          onTarget('migration.discard_target', ids, 'discard what the migration put on the target'),
        );
        return undefined;
      },
    },
    {
      state: 'TRANSFERRING',
      run: async () => {
        exported = await onSource('disk.export', { ...ids, disk: DISK }, 'offer the root disk');
        await books.recordTransferEndpoint({ migrationId, disk: DISK, endpoint: exported.endpoint });
        const received = await onTarget(
          'disk.transfer',
          { ...ids, disk: DISK, transfer_token: input.transferToken },
          'pull the root disk',
          long,
        );
        return { size_mb: received.size_mb };
      },
    },
    {
      state: 'VERIFYING_DISK',
      run: async () => {
        const { checksum } = await onTarget('disk.verify', { ...ids, disk: DISK }, 'checksum the root disk');
        if (checksum !== exported?.checksum)
          throw ApplicationFailure.create({
            type: 'DISK_CHECKSUM_MISMATCH',
            message: 'The disk on the target differs from the source’s.',
            nonRetryable: true,
          });
        return { checksum };
      },
    },
    {
      state: 'PREPARING_NETWORK',
      run: async () => {
        await onTarget(
          'network.prepare',
          { ...ids, ipv4: input.instance.ipv4, ipv6: input.instance.ipv6 },
          'prepare the network',
        );
        saga.push('prepare the network', () => onTarget('network.release', ids, 'release the network'));
        return { addresses: [input.instance.ipv4, input.instance.ipv6].filter(Boolean) };
      },
    },
    {
      state: 'STOPPING_SOURCE',
      run: async () => {
        // A live move keeps the source running until the switchover; a cold one stops it here.
        if (strategy === 'live' || !input.instance.running) return { stopped: false };
        await onSource(
          'instance.power',
          { instance_id: operation.instanceId, action: 'stop' },
          'stop the instance',
        );
        sourceStopped = true;
        saga.push('stop the source', async () => {
          await onSource(
            'instance.power',
            { instance_id: operation.instanceId, action: 'start' },
            'start the instance again',
          );
          sourceStopped = false;
        });
        return { stopped: true };
      },
    },
    {
      state: 'DEFINING_TARGET',
      run: async () => {
        await onTarget(
          'migration.define_target',
          { ...ids, final_sync: strategy === 'cold' },
          'define the guest',
        );
        return undefined;
      },
    },
    ...(strategy === 'live'
      ? [
          {
            state: 'LIVE_MIGRATING' as const,
            run: async () => {
              const { downtime_ms } = await onSource(
                'migration.live',
                { ...ids, target_hypervisor_id: input.targetHypervisorId },
                'move the running guest',
                long,
              );
              return { downtime_ms };
            },
          },
        ]
      : []),
    {
      state: 'STARTING_TARGET',
      run: async () => {
        const { power_state } = await onTarget(
          'migration.start_target',
          { ...ids, start: input.instance.running },
          'start the guest',
        );
        return { power_state };
      },
    },
    {
      state: 'VERIFYING_TARGET',
      run: async () => {
        const { power_state } = await onTarget('migration.verify_target', ids, 'check the guest');
        const expected = input.instance.running ? 'running' : 'stopped';
        if (power_state !== expected)
          throw ApplicationFailure.create({
            type: 'TARGET_NOT_AS_EXPECTED',
            message: `The guest on the target is ${power_state}, not ${expected}.`,
            nonRetryable: true,
          });
        return { power_state };
      },
    },
    {
      state: 'COMMITTING',
      run: async () => {
        await books.commitMigration({
          migrationId,
          operationId: operation.operationId,
          retainSourceMs: input.retainSourceMs,
        });
        committed = true;
        state = 'COMPLETED';
        upsertSearchAttributes({ [SEARCH_ATTRIBUTES.migrationState]: ['COMPLETED'] });
        return undefined;
      },
    },
    {
      state: 'CLEANING_UP',
      run: async () => {
        setCurrentDetails(
          `**Migration state:** COMPLETED (the source is kept ${Math.round(input.retainSourceMs / 1000)} s)`,
        );
        // A timer of no length still waits for the server's timer queue (about a second here).
        if (input.retainSourceMs > 0) await sleep(input.retainSourceMs);
        state = 'CLEANING_UP';
        await books.recordMigrationState({ migrationId, state: 'CLEANING_UP' });
        upsertSearchAttributes({ [SEARCH_ATTRIBUTES.migrationState]: ['CLEANING_UP'] });
        await onSource('migration.cleanup_source', ids, 'remove the old copy');
        return undefined;
      },
    },
  ];

  try {
    for (let index = 0; index < steps.length; ) {
      const step = steps[index]!;
      try {
        // The cleanup step enters its state itself, after the retention window.
        const detail = await forward.run(async () => {
          if (step.state !== 'CLEANING_UP' && step.state !== state) await enter(step.state);
          return step.run();
        });
        if (detail)
          await books.recordMigrationState({ migrationId, state: step.state, detail, annotate: true });
        index++;
      } catch (error) {
        if (!committed && !isPastPointOfNoReturn(step.state, strategy)) {
          await rollBack(step.state, error);
          return { state: 'ROLLED_BACK' };
        }
        const decision = await awaitRecovery(step.state, error);
        if (decision.decision === 'retry') continue;
        if (decision.decision === 'target_authoritative') {
          index = steps.findIndex((s) => s.state === 'COMMITTING');
          continue;
        }
        await CancellationScope.nonCancellable(async () => {
          // The operator restored the source; the target's copy is thrown away, the source is not touched.
          await onTarget('migration.discard_target', ids, 'discard the target copy').catch(() => undefined);
          await books.finishRollback({
            migrationId,
            operationId: operation.operationId,
            cancelled: false,
            detail: { decision: decision.decision, reason: decision.reason, by: decision.actor },
          });
        });
        state = 'ROLLED_BACK';
        upsertSearchAttributes({ [SEARCH_ATTRIBUTES.migrationState]: ['ROLLED_BACK'] });
        return { state };
      }
    }
    state = 'CLEANED_UP';
    await books.recordMigrationState({ migrationId, state: 'CLEANED_UP' });
    upsertSearchAttributes({ [SEARCH_ATTRIBUTES.migrationState]: ['CLEANED_UP'] });
    setCurrentDetails('**Migration state:** CLEANED_UP');
    return { state };
  } finally {
    finished = true;
  }

  async function rollBack(failedStep: MigrationState, error: unknown): Promise<void> {
    await CancellationScope.nonCancellable(async () => {
      const cancelled = rollbackRequest !== undefined && isCancellation(error);
      const failure = cancelled
        ? {
            code: rollbackRequest!.kind === 'cancel' ? 'CANCELLED' : 'ROLLED_BACK_BY_OPERATOR',
            message: rollbackRequest!.reason,
            by: rollbackRequest!.actor,
          }
        : describeFailure(error);
      await enter('ROLLING_BACK', { failed_step: failedStep, ...failure }, { failedStep, failure });
      const compensation = await saga.compensate();
      await books.finishRollback({
        migrationId,
        operationId: operation.operationId,
        cancelled,
        detail: {
          failed_step: failedStep,
          ...failure,
          source_running: input.instance.running && !sourceStopped,
          ...(compensation.failed.length > 0 ? { compensation_failures: compensation.failed } : {}),
        },
      });
      state = 'ROLLED_BACK';
      upsertSearchAttributes({ [SEARCH_ATTRIBUTES.migrationState]: ['ROLLED_BACK'] });
      setCurrentDetails('**Migration state:** ROLLED_BACK');
    });
  }

  async function awaitRecovery(failedStep: MigrationState, error: unknown): Promise<RecoveryRequest> {
    const failure = describeFailure(error);
    await CancellationScope.nonCancellable(() =>
      enter('RECOVERY_REQUIRED', { failed_step: failedStep, ...failure }, { failedStep, failure }),
    );
    setCurrentDetails(
      `**Migration state:** RECOVERY_REQUIRED — ${failedStep} failed: ${failure.code}. Waiting for an operator.`,
    );
    await condition(() => recovery !== undefined);
    const decision = recovery!;
    recovery = undefined;
    await books.recordMigrationState({
      migrationId,
      state: 'RECOVERY_REQUIRED',
      detail: { decision: decision.decision, reason: decision.reason, by: decision.actor },
      recovery: {
        decision: decision.decision,
        reason: decision.reason,
        by: decision.actor,
        failed_step: failedStep,
      },
    });
    // A retry goes back into the failed step with a fresh scope: the old one may have been cancelled.
    return decision;
  }
}
