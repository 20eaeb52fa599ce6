import {
  ApplicationFailure,
  ParentClosePolicy,
  patched,
  setCurrentDetails,
  sleep,
  startChild,
} from '@temporalio/workflow';
import type { AgentTaskResult } from '../../domain/agent-tasks.js';
import type { MigrationState } from '../../domain/migrations/states.js';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes.js';
import { migrationCleanupWorkflowId } from '../../domain/workflow-ids.js';
import { cleanUpMigrationSource } from './cleanup.js';
import type { MigrateInstanceInput } from './input.js';
import type { MigrationRun } from './run.js';
import type { MigrationTasks } from './tasks.js';

export interface Step {
  readonly state: MigrationState;
  /** What the step found out, added to its state's history line. */
  readonly run: () => Promise<Record<string, unknown> | undefined>;
}

const DISK = 'root';

/** Runs begun before a migration carried the instance's network and firewall replay without them. */
const CARRIES_NETWORK = 'migration-carries-network';

/** Runs begun before the cleanup had a workflow of its own replay with it inside. */
const CLEANUP_OF_ITS_OWN = 'migration-cleanup-of-its-own';

/** A check of a step that failed: the migration's failure code, as an agent's would be. */
const stepFailure = (type: string, message: string) =>
  ApplicationFailure.create({ type, message, nonRetryable: true });

/**
 * The migration's steps in order, one per state of the happy path (SPEC.md §3): each a semantic
 * task on the source or the target, its undo pushed on the run's saga as it succeeds.
 */
export function migrationSteps(
  run: MigrationRun,
  input: MigrateInstanceInput,
  tasks: MigrationTasks,
): Step[] {
  const { migrationId, operation, strategy } = input;
  const { books, saga } = run;
  const { onSource, onTarget, ids, long } = tasks;
  let exported: AgentTaskResult<'disk.export'> | undefined;
  const power = (action: 'start' | 'stop', summary: string) =>
    onSource('instance.power', { instance_id: operation.instanceId, action }, summary);

  const beforeTheSwitch: Step[] = [
    {
      state: 'READY',
      run: async () => void (await books.renewMigrationLease({ migrationId, ttlMs: input.leaseTtlMs })),
    },
    {
      state: 'PREPARING_TARGET',
      run: async () => {
        const { image, hostname, cpu_cores, memory_mb, disk_mb } = input.instance;
        await onTarget(
          'migration.prepare_target',
          { ...ids, ...(image ? { image } : {}), hostname, cpu_cores, memory_mb, disk_mb },
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
          throw stepFailure('DISK_CHECKSUM_MISMATCH', 'The disk on the target differs from the source’s.');
        return { checksum };
      },
    },
    {
      state: 'PREPARING_NETWORK',
      run: async () => {
        const { ipv4, ipv6 } = input.instance;
        // Every address, private NIC and firewall rule goes with the guest. No change to them can
        // begin meanwhile: the migration is the instance's operation until it ends.
        const plan = patched(CARRIES_NETWORK) ? await networkPlan(run, operation.instanceId) : undefined;
        await onTarget('network.prepare', { ...ids, ipv4, ipv6, ...plan }, 'prepare the network');
        saga.push('prepare the network', () => onTarget('network.release', ids, 'release the network'));
        return {
          addresses: [ipv4, ipv6].filter(Boolean),
          ...(plan && {
            network_revision: plan.network.revision,
            firewall_revision: plan.firewall.revision,
            nics: plan.network.nics.length,
          }),
        };
      },
    },
    {
      state: 'STOPPING_SOURCE',
      run: async () => {
        // A live move keeps the source running until the switchover; a cold one stops it here.
        if (strategy === 'live' || !input.instance.running) return { stopped: false };
        await power('stop', 'stop the instance');
        run.sourceStopped = true;
        saga.push('stop the source', async () => {
          await power('start', 'start the instance again');
          run.sourceStopped = false;
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
  ];
  return [...beforeTheSwitch, ...switchAndCommit(run, input, tasks)];
}

/** The instance's network and firewall as the panel holds them, for its target. */
async function networkPlan(run: MigrationRun, instanceId: string) {
  const { instance_id: _n, ...network } = await run.books.desiredNetwork(instanceId);
  const { instance_id: _f, ...firewall } = await run.books.desiredFirewall(instanceId);
  return { network, firewall };
}

/** From the switchover (the point of no return) to the old source's cleanup. */
/** Runs begun before the commit asked the target replay without the question. */
const COMMIT_FROM_HYPERVISOR = 'migration-commit-from-hypervisor';

function switchAndCommit(run: MigrationRun, input: MigrateInstanceInput, tasks: MigrationTasks): Step[] {
  const { migrationId, operation } = input;
  const { onSource, onTarget, ids, long } = tasks;
  const live: Step = {
    state: 'LIVE_MIGRATING',
    run: async () => {
      const { downtime_ms } = await onSource(
        'migration.live',
        { ...ids, target_hypervisor_id: input.targetHypervisorId },
        'move the running guest',
        long,
      );
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
        const reported = patched(COMMIT_FROM_HYPERVISOR)
          ? await onTarget('instance.state', { instance_id: ids.instance_id }, 'read the guest state').then(
              (result) => result.power_state,
              () => undefined,
            )
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
        if (patched(CLEANUP_OF_ITS_OWN)) {
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
