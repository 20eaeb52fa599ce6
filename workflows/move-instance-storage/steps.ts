import { setCurrentDetails, sleep } from '@temporalio/workflow';
import type { MoveInstanceStorageInput } from '../../domain/storage-moves/run-input.js';
import type { StorageMoveState } from '../../domain/storage-moves/states.js';
import { askPowerState } from '../lib/guest-power.js';
import type { MoveStep } from '../lib/moves/run.js';
import { agentStep } from '../lib/steps.js';
import { guestOfMove, type StorageMoveRun } from './run.js';

export type StorageMoveStep = MoveStep<StorageMoveState>;

/**
 * The steps of a storage move (SPEC.md §1), each pushing its undo as it succeeds: a cold move of a
 * running guest stops it, each disk is copied (live: mirrored) and verified, the guest is switched
 * to the new copies (the point of no return), a stopped guest started again, the commit records
 * the new backend, and after the retention window the old copies go.
 */
export function storageMoveSteps(run: StorageMoveRun, input: MoveInstanceStorageInput): StorageMoveStep[] {
  const { operation, hypervisorId, moveId } = input;
  const instance_id = operation.instanceId;
  const quick = agentStep('quick', operation.timing);
  const long = agentStep('long', operation.timing);
  const task = { hypervisorId, correlationId: operation.correlationId };
  const onMove = { move_id: moveId, instance_id };
  const live = input.strategy === 'live';
  const cold = !live && input.guestRunning;
  const power = (action: 'start' | 'stop') =>
    quick({ ...task, type: 'instance.power', params: { instance_id, action } }, `${action} the guest`);
  return [
    ...(cold
      ? [
          {
            state: 'STOPPING_GUEST' as const,
            run: async () => {
              await power('stop');
              run.saga.push('stop the guest', () => power('start'));
              return undefined;
            },
          },
        ]
      : []),
    {
      state: 'COPYING',
      run: async () => {
        for (const disk of input.disks) {
          await long(
            {
              ...task,
              type: 'storage.copy',
              params: { ...onMove, disk, from_backend: input.from, to_backend: input.to, live },
            },
            `copy ${disk} to ${input.to}`,
          );
          run.saga.push(`copy ${disk}`, () =>
            quick(
              { ...task, type: 'storage.abort', params: { ...onMove, disk } },
              `remove the copy of ${disk}`,
            ),
          );
        }
        return undefined;
      },
    },
    {
      state: 'VERIFYING',
      run: async () => {
        for (const disk of input.disks)
          await quick(
            { ...task, type: 'storage.verify', params: { ...onMove, disk } },
            `verify the copy of ${disk}`,
          );
        return undefined;
      },
    },
    {
      state: 'SWITCHING',
      run: async () => {
        await quick(
          {
            ...task,
            type: 'storage.switch',
            params: { ...onMove, disks: [...input.disks], to_backend: input.to, live },
          },
          `switch the guest to ${input.to}`,
        );
        return undefined;
      },
    },
    ...(cold ? [{ state: 'STARTING_GUEST' as const, run: () => power('start').then(() => undefined) }] : []),
    {
      state: 'COMMITTING',
      run: async () => {
        const power_state = await askPowerState(guestOfMove(input), 'ask the guest’s power state');
        await run.books.commitStorageMove({
          moveId,
          operationId: operation.operationId,
          retainMs: input.retainMs,
          reported: power_state,
        });
        run.committed = true;
        run.show('COMPLETED');
        return undefined;
      },
    },
    {
      state: 'CLEANING_UP',
      run: async () => {
        setCurrentDetails(
          `**Storage move state:** COMPLETED (the old copies are kept ${Math.round(input.retainMs / 1000)} s)`,
        );
        if (input.retainMs > 0 && run.state === 'COMPLETED') await sleep(input.retainMs);
        await run.enter('CLEANING_UP');
        for (const disk of input.disks)
          await quick(
            { ...task, type: 'storage.cleanup', params: { ...onMove, disk, from_backend: input.from } },
            `remove the old copy of ${disk}`,
          );
        await run.enter('CLEANED_UP');
        return undefined;
      },
    },
  ];
}
