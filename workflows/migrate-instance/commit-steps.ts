import { ParentClosePolicy, patched, setCurrentDetails, sleep, startChild } from '@temporalio/workflow';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { migrationCleanupWorkflowId } from '../../domain/workflow-ids.js';
import { reportedPowerState } from '../lib/guest-power.js';
import { stepFailure } from '../lib/moves/run.js';
import { PATCHES } from '../lib/patches.js';
import { cleanUpMigrationSource } from './cleanup.js';
import { convergenceOf, liveStepOf } from './convergence.js';
import { releaseCopiesRetainedOnTarget } from './retained-copies.js';
import type { MigrationRun, MigrationStep } from './run.js';
import type { MigrationTasks } from './tasks.js';

/** From the switchover (the point of no return) to the old source's cleanup. */
export function switchAndCommit(
  run: MigrationRun,
  input: MigrateInstanceInput,
  tasks: MigrationTasks,
): MigrationStep[] {
  const { migrationId, operation } = input;
  const { onSource, onTarget, ids } = tasks;
  const live: MigrationStep = {
    state: 'LIVE_MIGRATING',
    run: async () => {
      const { downtime_ms } = await onSource(
        'migration.live',
        { ...ids, target_hypervisor_id: input.targetHypervisorId, ...convergenceOf(input) },
        'move the running guest',
        liveStepOf(input, tasks),
      );
      if (patched(PATCHES.migrationRecordsInterruption.id))
        await run.books.recordMigrationInterruption({ migrationId, interruptionMs: downtime_ms });
      return { downtime_ms };
    },
  };
  return [
    ...(input.strategy === 'live' ? [live] : []),
    {
      state: 'STARTING_TARGET',
      run: async () => {
        const started = await onTarget(
          'migration.start_target',
          { ...ids, start: input.instance.running },
          'start the guest',
        );
        // A cold move's interruption: from the stop on the source to the start on the target, as
        // this run saw them (SPEC.md §3: a same-IP move is not atomic; its interruption is recorded).
        if (
          run.sourceStoppedAt !== undefined &&
          started.power_state === 'running' &&
          patched(PATCHES.migrationRecordsInterruption.id)
        ) {
          const interruptionMs = Date.now() - run.sourceStoppedAt;
          await run.books.recordMigrationInterruption({ migrationId, interruptionMs });
          return { power_state: started.power_state, interruption_ms: interruptionMs };
        }
        return { power_state: started.power_state };
      },
    },
    {
      state: 'VERIFYING_TARGET',
      run: async () => {
        const { power_state } = await onTarget('migration.verify_target', ids, 'check the guest');
        const expected = input.instance.running ? 'running' : 'stopped';
        if (power_state !== expected)
          throw stepFailure(
            'TARGET_NOT_AS_EXPECTED',
            `The guest on the target is ${power_state}, not ${expected}.`,
          );
        return { power_state };
      },
    },
    {
      state: 'COMMITTING',
      run: async () => {
        // The status is the target's guest as reported, not assumed: an operator may have made
        // the target authoritative without its verification step.
        // A target that cannot say (its guest not defined there yet) leaves the rules' status.
        const reported = patched(PATCHES.migrationCommitFromHypervisor.id)
          ? await reportedPowerState(tasks.target, 'read the guest state (target)')
          : undefined;
        await run.books.commitMigration({
          migrationId,
          operationId: operation.operationId,
          retainSourceMs: input.retainSourceMs,
          ...(reported ? { targetPowerState: reported } : {}),
        });
        run.committed = true;
        run.show('COMPLETED');
        return undefined;
      },
    },
    {
      state: 'CLEANING_UP',
      run: async () => {
        if (patched(PATCHES.migrationCleanupOfItsOwn.id)) {
          // The migration ends at COMPLETED, the instance free; the old copy goes on its own timer.
          await startChild(cleanUpMigrationSource, {
            workflowId: migrationCleanupWorkflowId(migrationId),
            args: [
              {
                migrationId,
                operation,
                sourceHypervisorId: input.sourceHypervisorId,
                targetHypervisorId: input.targetHypervisorId,
                retainSourceMs: input.retainSourceMs,
                strategy: input.strategy,
              },
            ],
            parentClosePolicy: ParentClosePolicy.ABANDON,
            searchAttributes: {
              [SEARCH_ATTRIBUTES.instance]: [operation.instanceId],
              [SEARCH_ATTRIBUTES.hypervisor]: [input.sourceHypervisorId],
              [SEARCH_ATTRIBUTES.operation]: ['migrate'],
              [SEARCH_ATTRIBUTES.migrationState]: ['COMPLETED'],
            },
          });
          run.handedOver = true;
          if (patched(PATCHES.migrationReleasesCopyOnTarget.id))
            await releaseCopiesRetainedOnTarget(run, input);
          return undefined;
        }
        setCurrentDetails(
          `**Migration state:** COMPLETED (the source is kept ${Math.round(input.retainSourceMs / 1000)} s)`,
        );
        // A timer of no length still waits for the server's timer queue (about a second here).
        if (input.retainSourceMs > 0) await sleep(input.retainSourceMs);
        run.state = 'CLEANING_UP';
        await run.books.recordMigrationState({ migrationId, state: 'CLEANING_UP' });
        run.show('CLEANING_UP');
        await onSource('migration.cleanup_source', ids, 'remove the old copy');
        return undefined;
      },
    },
  ];
}
