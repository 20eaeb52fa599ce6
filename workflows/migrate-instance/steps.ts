import { patched } from '@temporalio/workflow';
import type { MigrateInstanceInput } from '../../domain/migrations/run-input.js';
import { PATCHES } from '../lib/patches.js';
import { switchAndCommit } from './commit-steps.js';
import { postCopyOf } from './convergence.js';
import { diskSteps } from './disk-steps.js';
import type { MigrationRun, MigrationStep } from './run.js';
import type { MigrationTasks } from './tasks.js';

/**
 * The migration's steps in order, one per state of the happy path (SPEC.md §3): each a semantic
 * task on the source or the target, its undo pushed on the run's saga as it succeeds.
 */
export function migrationSteps(
  run: MigrationRun,
  input: MigrateInstanceInput,
  tasks: MigrationTasks,
): MigrationStep[] {
  const { migrationId, operation, strategy } = input;
  const { books, saga } = run;
  const { onSource, onTarget, ids } = tasks;
  const power = (action: 'start' | 'stop', summary: string) =>
    onSource('instance.power', { instance_id: operation.instanceId, action }, summary);

  const beforeTheSwitch: MigrationStep[] = [
    {
      state: 'READY',
      run: async () => void (await books.renewMigrationLease({ migrationId, ttlMs: input.leaseTtlMs })),
    },
    {
      state: 'PREPARING_TARGET',
      run: async () => {
        const { image, hostname, cpu_cores, memory_mb, disk_mb } = input.instance;
        const volumes = (input.volumes ?? []).map((v) => ({ volume_id: v.id, size_mb: v.sizeMb }));
        await onTarget(
          'migration.prepare_target',
          {
            ...ids,
            ...(image ? { image } : {}),
            hostname,
            cpu_cores,
            memory_mb,
            disk_mb,
            ...(volumes.length > 0 && { volumes }),
          },
          'prepare the target',
        );
        saga.push('prepare the target', () =>
          onTarget('migration.discard_target', ids, 'discard what the migration put on the target'),
        );
        return undefined;
      },
    },
    ...diskSteps(run, input, tasks),
    {
      state: 'PREPARING_NETWORK',
      run: async () => {
        const { ipv4, ipv6 } = input.instance;
        // Every address, private NIC and firewall rule goes with the guest. No change to them can
        // begin meanwhile: the migration is the instance's operation until it ends.
        const plan = patched(PATCHES.migrationCarriesNetwork.id)
          ? await networkPlan(run, operation.instanceId)
          : undefined;
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
        run.sourceStoppedAt = Date.now();
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
          { ...ids, final_sync: strategy === 'cold', ...postCopyOf(input) },
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
